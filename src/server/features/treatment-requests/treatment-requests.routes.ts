import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '#server/context.ts';
import { route } from '#server/lib/route.ts';
import { treatmentRequestsApi } from '#shared/treatment-requests.ts';
import { createRequest, requestsOf } from './treatment-requests.service.ts';

const tag = 'subscriptions';

/** A patient's requests between visits (issue 29): the treatment card's list, and asking one. */
export const treatmentRequestsRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    route(
      app,
      treatmentRequestsApi.list,
      { tag, summary: "The patient's requests between visits, newest first" },
      async ({ session }) => ({ requests: await requestsOf(ctx, session.customerId) }),
    );
    route(
      app,
      treatmentRequestsApi.create,
      {
        tag,
        summary: 'Ask the provider for an early refill or a dose change, or report a side effect',
      },
      async ({ session, body }) => ({
        request: await createRequest(ctx, session.customerId, body),
      }),
    );
  };
