import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '#server/context.ts';
import { audit } from '#server/features/staff/staff.service.ts';
import { requireStaff } from '#server/plugins/staff-session.ts';
import { apiPaths, v1Success } from '#shared/api.ts';
import { OutboxProblemListSchema, OutboxRetrySchema } from '#shared/outbox.ts';
import { outboxProblems, retryMessage } from './outbox.service.ts';

const tags = ['operations'];

/** Operations staff: messages that could not be sent (no words, masked recipients), and a retry. */
export const outboxRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      apiPaths.staffOutbox,
      { schema: { tags, response: { 200: v1Success(OutboxProblemListSchema) } } },
      async (request) => {
        const session = requireStaff(request, 'operations');
        const messages = await outboxProblems(ctx);
        await audit(ctx, session, { action: 'view', subjectType: 'outbox', ip: request.ip });
        return { status: 'SUCCESS' as const, message: '', data: { messages } };
      },
    );

    app.post(
      apiPaths.staffOutboxRetry,
      {
        schema: {
          tags,
          body: OutboxRetrySchema,
          response: { 200: v1Success(OutboxProblemListSchema) },
        },
      },
      async (request) => {
        const session = requireStaff(request, 'operations');
        await retryMessage(ctx, request.body.outbox_id);
        await audit(ctx, session, {
          action: 'retry',
          subjectType: 'outbox_message',
          subjectId: request.body.outbox_id,
          ip: request.ip,
        });
        return {
          status: 'SUCCESS' as const,
          message: 'The message will be sent again in a moment.',
          data: { messages: await outboxProblems(ctx) },
        };
      },
    );
  };
