import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '#server/context.ts';
import { route } from '#server/lib/route.ts';
import { dashboardApi } from '#shared/dashboard.ts';
import { dashboard } from './dashboard.service.ts';

/** The operator's dashboard in the operations console; each view is audited. */
export const dashboardRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    route(
      app,
      dashboardApi.summary,
      {
        tag: 'operations',
        summary:
          'The last 30 days: store orders and revenue, subscriptions started and cancelled, failed and recovered renewals, visits waiting',
        audit: () => ({ subjectType: 'dashboard' }),
      },
      () => dashboard(ctx),
    );
  };
