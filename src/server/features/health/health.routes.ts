import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pingDatabase } from '#server/db/client.ts';
import { pendingMigrations } from '#server/db/migrate.ts';
import { AppError } from '#server/lib/errors.ts';
import { HealthSchema, ReadySchema } from '#shared/api.ts';

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

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['health'],
        summary:
          'Whether this instance may take traffic: its database answers and has every migration this build knows',
        operationId: 'getReadyz',
        security: [],
        response: { 200: ReadySchema },
      },
      logLevel: 'warn',
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      let pending: string[];
      try {
        pending = await pendingMigrations(app.db);
      } catch (error) {
        request.log.error({ err: error }, 'readiness check: database did not answer');
        throw new AppError('DATABASE_UNAVAILABLE', 'The database is not answering.');
      }
      if (pending.length > 0) {
        request.log.warn({ pending }, 'readiness check: migrations not applied');
        throw new AppError(
          'DATABASE_UNAVAILABLE',
          `The database is missing ${pending.length} migration(s) this version needs.`,
        );
      }
      return { status: 'ready' as const, database: 'ok' as const, migrations: 'applied' as const };
    },
  );
};
