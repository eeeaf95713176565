import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '#server/context.ts';
import { route } from '#server/lib/route.ts';
import { checkoutApi } from '#shared/checkout.ts';
import type { PartnerShipping } from './checkout.partners.ts';
import { checkoutProgress, saveCheckoutProgress } from './checkout.progress.ts';
import { placeOrder, upsells } from './checkout.service.ts';

const tag = 'checkout';

/** `partners`: the partner's shared address, for an order shipped to them (given in app.ts). */
export const checkoutRoutes =
  (ctx: AppContext, partners: PartnerShipping): FastifyPluginAsync =>
  async (app) => {
    // v2 `ecom/place-order` and its v1 twin `/order/create/`: the same idempotent placement.
    for (const placement of [checkoutApi.placeOrder, checkoutApi.orderCreate]) {
      route(
        app,
        placement,
        { tag, summary: 'Place the order: charge the card, start the subscriptions' },
        async ({ session, body }) => placeOrder(ctx, session, body, partners),
      );
    }

    route(
      app,
      checkoutApi.progress,
      { tag, summary: "Where the customer's checkout has got to" },
      async ({ session }) => ({
        progress: await checkoutProgress(ctx, session.customerId, partners),
      }),
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
          body.ship_to_partner ?? false,
          partners,
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
