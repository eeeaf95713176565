import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '#server/context.ts';
import type { Job } from '#server/lib/jobs.ts';
import { OUTBOX_JOB, sendDueBatch, type SecretMinter } from './outbox.service.ts';

/**
 * Sends queued email and text messages every OUTBOX_INTERVAL_SECONDS (0 turns it off), and soon
 * after anything is queued. Every instance may run it: each message is claimed by one of them.
 * `minters` make the one-time secrets some messages carry (see SECRET_SLOT), by purpose.
 */
export function outboxJob(
  ctx: AppContext,
  deps: { minters: Record<string, SecretMinter>; log: FastifyBaseLogger },
): Job {
  return {
    name: OUTBOX_JOB,
    intervalMs: ctx.env.OUTBOX_INTERVAL_SECONDS * 1000,
    async run() {
      const { more } = await sendDueBatch(ctx, deps);
      return more;
    },
  };
}
