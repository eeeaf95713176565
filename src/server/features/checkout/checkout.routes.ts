import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '#server/context.ts';
import { route } from '#server/lib/route.ts';
import { checkoutApi } from '#shared/checkout.ts';
import { checkoutProgress, saveCheckoutProgress } from './checkout.progress.ts';
import { placeOrder, upsells } from './checkout.service.ts';

const tag = 'checkout';

export const checkoutRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    // v2 `ecom/place-order` and its v1 twin `/order/create/`: the same idempotent placement.
    for (const placement of [checkoutApi.placeOrder, checkoutApi.orderCreate]) {
      route(
        app,
        placement,
        { tag, summary: 'Place the order: charge the card, start the subscriptions' },
        async ({ session, body }) => placeOrder(ctx, session, body),
      );
    }

    route(
      app,
      checkoutApi.progress,
      { tag, summary: "Where the customer's checkout has got to" },
      async ({ session }) => ({ progress: await checkoutProgress(ctx, session.customerId) }),
    );

    route(
      app,
      checkoutApi.saveProgress,
      { tag, summary: 'Keep the step reached and the shipping address' },
      async ({ session, body }) => ({
        progress: await saveCheckoutProgress(
          ctx,
          session.customerId,
          body.step,
          body.shipping,
          body.ship_to_partner,
        ),
      }),
    );

    route(
      app,
      checkoutApi.upsells,
      { tag, summary: "Checkout step 2's offers for the cart" },
      async ({ session }) => ({ offers: await upsells(ctx, session.customerId) }),
    );
  };
