import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '#server/context.ts';
import { answer, route } from '#server/lib/route.ts';
import { subscriptionsApi } from '#shared/subscriptions.ts';
import { changeSubscription, listSubscriptions } from './subscriptions.service.ts';

const tag = 'subscriptions';

export const subscriptionsRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    route(
      app,
      subscriptionsApi.subscriptions,
      { tag, summary: "The customer's subscriptions" },
      async ({ session }) => ({ subscriptions: await listSubscriptions(ctx, session.customerId) }),
    );

    route(
      app,
      subscriptionsApi.subscriptionUpdate,
      { tag, summary: 'Change a subscription, or preview what a change would do' },
      async ({ session, body }) => {
        const { subscription, message } = await changeSubscription(
          ctx,
          session,
          body.subscription_id,
          body.change,
          body.preview,
        );
        return answer(message, { subscription, preview: body.preview });
      },
    );

    route(
      app,
      subscriptionsApi.shipFrequency,
      { tag, summary: "Change a subscription's delivery frequency" },
      async ({ session, body }) => {
        const { subscription, message } = await changeSubscription(
          ctx,
          session,
          body.subscription_id,
          { action: 'change_frequency', frequency: body.frequency },
          false,
        );
        return answer(message, { subscription, preview: false });
      },
    );
  };
