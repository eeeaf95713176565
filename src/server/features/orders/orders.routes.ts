import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '#server/context.ts';
import { lander } from '#server/features/accounts/accounts.member.ts';
import { createOwnAnswers, ownAnswerKey } from '#server/lib/own-answers.ts';
import { route } from '#server/lib/route.ts';
import { orderByNumber } from './orders.history.ts';
import { ordersApi } from '#shared/orders.ts';

const tag = 'orders';

export const ordersRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    const landers = createOwnAnswers();
    route(
      app,
      ordersApi.ordersDetails,
      {
        tag,
        summary: "The customer's lander: who they are, what needs attention, their orders",
        // Kept while the customer's data is unchanged: one statement when nothing changed.
        own: {
          cache: landers,
          key: ({ session, body }) =>
            ownAnswerKey(ctx, session.customerId, [body.cursor ?? null, body.limit ?? null]),
        },
      },
      async ({ session, body }) => lander(ctx, session, { cursor: body.cursor, limit: body.limit }),
    );
    route(
      app,
      ordersApi.order,
      { tag, summary: "One of the customer's orders by its number, on whatever page it is" },
      async ({ session, body }) => ({
        order: await orderByNumber(ctx, session.customerId, body.order_number),
      }),
    );
  };
