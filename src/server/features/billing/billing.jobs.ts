import type { AppContext } from '#server/context.ts';
import type { Job } from '#server/lib/jobs.ts';
import { runBilling } from './billing.service.ts';

/**
 * Renewal billing every BILLING_INTERVAL_SECONDS (0 turns it off). Every instance may run it:
 * exactly-once comes from the database's unique keys, not from this timer.
 */
export function billingJob(ctx: AppContext): Job {
  return {
    name: 'billing',
    intervalMs: ctx.env.BILLING_INTERVAL_SECONDS * 1000,
    async run() {
      await runBilling(ctx);
      return false;
    },
  };
}
