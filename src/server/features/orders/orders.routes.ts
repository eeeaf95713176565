import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '#server/context.ts';
import { lander } from '#server/features/member/member.service.ts';
import { requireOwnLeadsId } from '#server/plugins/session.ts';
import { LeadsRequestSchema } from '#shared/accounts.ts';
import { apiPaths } from '#shared/api.ts';
import { OrdersDetailsResponseSchema } from '#shared/lander.ts';

export const ordersRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    // Spec §7 "Orders details": the answer's message becomes `lander`, order history inside.
    app.post(
      apiPaths.ordersDetails,
      {
        schema: {
          tags: ['orders'],
          body: LeadsRequestSchema,
          response: { 200: OrdersDetailsResponseSchema },
        },
      },
      async (request) => ({
        status: 'SUCCESS' as const,
        message: await lander(ctx, requireOwnLeadsId(request, request.body.leads_id)),
      }),
    );
  };
