import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '#server/context.ts';
import { requireSession } from '#server/plugins/session.ts';
import { apiPaths } from '#shared/api.ts';
import {
  AddProductSchema,
  ApplyCouponSchema,
  CartResponseSchema,
  RemoveProductSchema,
  UpdateCartSchema,
} from '#shared/cart.ts';
import { addProduct, applyCoupon, getCart, removeProduct, updateCart } from './cart.service.ts';

const tags = ['cart'];

/** v2 commerce calls (spec §7): `{ data }` on success; the cart is always the server's pricing. */
export const cartRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const reply200 = { 200: CartResponseSchema };
    app.post(
      apiPaths.v2Cart,
      { schema: { tags, body: z.strictObject({}).optional(), response: reply200 } },
      async (request) => ({
        data: { cart: await getCart(ctx, requireSession(request).customerId) },
      }),
    );
    app.post(
      apiPaths.v2AddProduct,
      { schema: { tags, body: AddProductSchema, response: reply200 } },
      async (request) => ({
        data: {
          cart: await addProduct(
            ctx,
            requireSession(request).customerId,
            request.body.product_id,
            request.body.quantity,
          ),
        },
      }),
    );
    app.post(
      apiPaths.v2RemoveProduct,
      { schema: { tags, body: RemoveProductSchema, response: reply200 } },
      async (request) => ({
        data: {
          cart: await removeProduct(
            ctx,
            requireSession(request).customerId,
            request.body.product_id,
          ),
        },
      }),
    );
    app.post(
      apiPaths.v2UpdateCart,
      { schema: { tags, body: UpdateCartSchema, response: reply200 } },
      async (request) => ({
        data: { cart: await updateCart(ctx, requireSession(request).customerId, request.body) },
      }),
    );
    app.post(
      apiPaths.v2ApplyCoupon,
      { schema: { tags, body: ApplyCouponSchema, response: reply200 } },
      async (request) => ({
        data: {
          cart: await applyCoupon(ctx, requireSession(request).customerId, request.body.code),
        },
      }),
    );
  };
