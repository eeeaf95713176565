import type { AppContext } from '#server/context.ts';
import type { Job } from '#server/lib/jobs.ts';
import { billingSweep } from './billing.service.ts';

/**
 * Renewal billing every BILLING_INTERVAL_SECONDS (0 turns it off). Each run bills one small batch
 * and says whether more is left, so requests are answered between renewals and between batches,
 * and start-up never waits for a billing walk. Every instance may run it: exactly-once comes from the database's
 * unique keys, not from this timer.
 */
export function billingJob(ctx: AppContext): Job {
  // Billing is never urgent to the minute: while requests keep the process busy it takes at most
  // about a quarter of it (after each renewal it rests three times the processor time used).
  const sweep = billingSweep(ctx, { restFactor: 3 });
  return {
    name: 'billing',
    intervalMs: ctx.env.BILLING_INTERVAL_SECONDS * 1000,
    run: () => sweep.batch(),
  };
}
