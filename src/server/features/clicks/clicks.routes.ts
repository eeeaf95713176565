import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '#server/context.ts';
import { apiPaths } from '#shared/api.ts';
import { ClickCreateResultSchema, ClickCreateSchema } from '#shared/clicks.ts';
import { registerClick } from './clicks.service.ts';

export const clicksRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      apiPaths.clickCreate,
      {
        schema: {
          tags: ['clicks'],
          body: ClickCreateSchema,
          response: { 200: ClickCreateResultSchema },
        },
      },
      async (request) => ({
        status: 'SUCCESS' as const,
        click_id: await registerClick(ctx, request.body, request.ip),
      }),
    );
  };
