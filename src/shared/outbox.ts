import { z } from 'zod';
import { apiPaths } from './api.ts';
import { endpoint } from './contract.ts';
import { idSchema } from './ids.ts';

/**
 * A message the outbox could not send, as operations staff see it: never its words (they may name
 * an order or a care-team message), and its recipient masked (`j***@example.com`, `***0142`).
 */
export const OutboxProblemSchema = z.object({
  outbox_id: z.number().int(),
  kind: z.enum(['email', 'sms']),
  recipient: z.string(),
  subject: z.string(),
  /** `failed`: given up after every retry; `pending`: still retrying, but late. */
  status: z.enum(['pending', 'failed']),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  next_attempt_at: z.string().nullable(),
});
export type OutboxProblem = z.infer<typeof OutboxProblemSchema>;

export const OutboxProblemListSchema = z.object({ messages: z.array(OutboxProblemSchema) });

export const OutboxRetrySchema = z.strictObject({ outbox_id: idSchema('Choose a message') });
export type OutboxRetry = z.infer<typeof OutboxRetrySchema>;

/** Operations staff: the messages that could not be sent, and sending one again. */
export const outboxApi = {
  problems: endpoint({
    path: apiPaths.staffOutbox,
    access: 'operations',
    view: true,
    response: OutboxProblemListSchema,
    errors: [],
  }),
  /** Answers the list as it is after the retry. */
  retry: endpoint({
    path: apiPaths.staffOutboxRetry,
    access: 'operations',
    body: OutboxRetrySchema,
    response: OutboxProblemListSchema,
    message: 'The message will be sent again in a moment.',
    errors: ['NOT_FOUND', 'MESSAGE_SENT', 'MESSAGE_SENDING'],
  }),
};
