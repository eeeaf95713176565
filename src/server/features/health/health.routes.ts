import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pingDatabase } from '#server/db/client.ts';
import { AppError } from '#server/lib/errors.ts';
import { HealthSchema } from '#shared/api.ts';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['health'],
        summary: 'Whether this instance and its database answer (for a load balancer)',
        operationId: 'getHealthz',
        security: [],
        response: { 200: HealthSchema },
      },
      logLevel: 'warn',
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      try {
        await pingDatabase(app.db);
      } catch (error) {
        request.log.error({ err: error }, 'health check: database did not answer');
        throw new AppError('DATABASE_UNAVAILABLE', 'The database is not answering.');
      }
      return { status: 'ok' as const, database: 'ok' as const };
    },
  );
};
