import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '#server/context.ts';
import { enforceAddressLimit } from '#server/features/auth/auth.service.ts';
import { evaluateCoupon } from '#server/features/coupons/coupons.service.ts';
import { AppError } from '#server/lib/errors.ts';
import { answer, route } from '#server/lib/route.ts';
import { cartApi } from '#shared/cart.ts';
import { addProduct, applyCoupon, getCart, removeProduct, updateCart } from './cart.service.ts';

const tag = 'cart';

/** v2 commerce calls (spec §7): `{ data }` on success; the cart is always the server's pricing. */
export const cartRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    route(app, cartApi.cart, { tag, summary: "The customer's cart" }, async ({ session }) => ({
      cart: await getCart(ctx, session.customerId),
    }));
    route(
      app,
      cartApi.addProduct,
      { tag, summary: 'Add a product to the cart' },
      async ({ session, body }) => ({
        cart: await addProduct(ctx, session.customerId, body.product_id, body.quantity),
      }),
    );
    route(
      app,
      cartApi.removeProduct,
      { tag, summary: 'Remove a product from the cart' },
      async ({ session, body }) => ({
        cart: await removeProduct(ctx, session.customerId, body.product_id),
      }),
    );
    route(
      app,
      cartApi.updateCart,
      { tag, summary: "Set or merge the cart's quantities" },
      async ({ session, body }) => ({ cart: await updateCart(ctx, session.customerId, body) }),
    );
    route(
      app,
      cartApi.applyCoupon,
      { tag, summary: 'Apply a coupon to the cart, or remove it' },
      async ({ session, body }) => ({
        cart: await applyCoupon(ctx, session.customerId, body.code),
      }),
    );
    route(
      app,
      cartApi.couponCode,
      { tag, summary: 'Would this coupon apply to a subtotal? (before log-in)' },
      async ({ body, session, request }) => {
        await enforceAddressLimit(ctx, `coupon:ip:${request.ip}`, 60, 60 * 60_000);
        const verdict = await evaluateCoupon(
          ctx,
          body.code,
          body.subtotal_cents ?? 0,
          session?.customerId ?? null,
        );
        if (!verdict.ok)
          throw new AppError('COUPON_REFUSED', verdict.message, { code: verdict.message });
        return answer(verdict.description, {
          code: verdict.code,
          description: verdict.description,
          discount_cents: verdict.discountCents,
        });
      },
    );
  };
