import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '#server/context.ts';
import { route } from '#server/lib/route.ts';
import { outboxApi } from '#shared/outbox.ts';
import { outboxProblems, retryMessage } from './outbox.service.ts';

const tag = 'operations';

/** Operations staff: messages that could not be sent (no words, masked recipients), and a retry. */
export const outboxRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    route(
      app,
      outboxApi.problems,
      {
        tag,
        summary: 'Email and text messages that failed to send, or are late',
        audit: () => ({ subjectType: 'outbox' }),
      },
      async () => ({ messages: await outboxProblems(ctx) }),
    );

    // A change: audited in the retry's own transaction.
    route(
      app,
      outboxApi.retry,
      { tag, summary: 'Send a message again' },
      async ({ body, auditChange }) => {
        await retryMessage(ctx, body.outbox_id, (tx) =>
          auditChange(tx, {
            action: 'retry',
            subjectType: 'outbox_message',
            subjectId: body.outbox_id,
          }),
        );
        return { messages: await outboxProblems(ctx) };
      },
    );
  };
