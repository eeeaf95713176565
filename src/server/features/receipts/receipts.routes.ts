import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '#server/context.ts';
import { route } from '#server/lib/route.ts';
import { receiptsApi } from '#shared/receipts.ts';
import { careReceipt } from './receipts.service.ts';

const tag = 'orders';

/** The receipt of a visit's or a refill's order, for an HSA or FSA claim (issue 29). */
export const receiptsRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    route(
      app,
      receiptsApi.careReceipt,
      { tag, summary: "An online visit's or a refill's itemised receipt, for an HSA or FSA claim" },
      async ({ session, body }) => ({
        receipt: await careReceipt(ctx, session.customerId, body.order_number),
      }),
    );
  };
