import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '#server/context.ts';
import { route } from '#server/lib/route.ts';
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
  };
