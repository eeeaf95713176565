import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '#server/context.ts';
import { route } from '#server/lib/route.ts';
import { clicksApi } from '#shared/clicks.ts';
import { registerClick } from './clicks.service.ts';

export const clicksRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    route(
      app,
      clicksApi.clickCreate,
      { tag: 'clicks', summary: "Register a visit's click for attribution" },
      async ({ body, request }) => ({
        click_id: await registerClick(ctx, body, request.ip),
      }),
    );
  };
