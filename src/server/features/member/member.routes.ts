import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '#server/context.ts';
import { createOwnAnswers, ownAnswerKey } from '#server/lib/own-answers.ts';
import { route } from '#server/lib/route.ts';
import { accountsApi } from '#shared/accounts.ts';
import { ordersApi } from '#shared/orders.ts';
import { accountBasics, lander, patientData } from './member.service.ts';

/**
 * The member area's frame: the calls that answer with what several features know about the
 * customer (account standing, order history, visits, cart). They are declared by accounts and
 * orders, and described under their tags, but composed here, above both.
 */
export const memberRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    route(
      app,
      accountsApi.basics,
      { tag: 'accounts', summary: 'What the member area shows on every page' },
      async ({ session }) => accountBasics(ctx, session),
    );

    route(
      app,
      accountsApi.patientData,
      { tag: 'accounts', summary: "The customer's flags and lander" },
      async ({ session }) => patientData(ctx, session),
    );

    const landers = createOwnAnswers();
    route(
      app,
      ordersApi.ordersDetails,
      {
        tag: 'orders',
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
  };
