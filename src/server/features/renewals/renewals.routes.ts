import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '#server/context.ts';
import { sendRenewal } from '#server/features/visits/visits.renewal.ts';
import { route } from '#server/lib/route.ts';
import { renewalsApi } from '#shared/renewals.ts';
import { startRenewal } from './renewals.service.ts';

const tag = 'visits';

/** A prescription's renewal (issue 29): opened from Home or its e-mail, sent to a provider. */
export const renewalsRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    route(
      app,
      renewalsApi.startRenewal,
      { tag, summary: "Open the renewal of the program's prescription that is due" },
      async ({ session, body }) => startRenewal(ctx, session, body.category),
    );
    route(
      app,
      renewalsApi.sendRenewal,
      { tag, summary: "Send a renewal's answers to a provider; nothing is charged" },
      async ({ session, body }) => sendRenewal(ctx, session, body.visit_id),
    );
  };
