import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '#server/context.ts';
import { requireSession } from '#server/plugins/session.ts';
import { apiPaths } from '#shared/api.ts';
import {
  PlaceOrderResponseSchema,
  PlaceOrderSchema,
  UpsellsResponseSchema,
} from '#shared/checkout.ts';
import { placeOrder, upsells } from './checkout.service.ts';

const tags = ['checkout'];

export const checkoutRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    // v2 `ecom/place-order` and its v1 twin `/order/create/`: the same idempotent placement.
    for (const path of [apiPaths.v2PlaceOrder, apiPaths.orderCreate]) {
      app.post(
        path,
        { schema: { tags, body: PlaceOrderSchema, response: { 200: PlaceOrderResponseSchema } } },
        async (request) => ({
          data: await placeOrder(ctx, requireSession(request), request.body),
        }),
      );
    }

    app.post(
      apiPaths.upsells,
      {
        schema: {
          tags,
          body: z.strictObject({}).optional(),
          response: { 200: UpsellsResponseSchema },
        },
      },
      async (request) => ({
        status: 'SUCCESS' as const,
        message: '',
        data: { offers: await upsells(ctx, requireSession(request).customerId) },
      }),
    );
  };
