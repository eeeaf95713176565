import type { AppContext } from '#server/context.ts';
import type { Job } from '#server/lib/jobs.ts';
import { PHARMACY_JOB, runPharmacy } from './pharmacy.service.ts';

/**
 * Sends queued prescriptions, refills and cancellations to the pharmacy every
 * PHARMACY_INTERVAL_SECONDS (0 turns it off) and soon after one is queued; applies the built-in
 * pharmacy's callbacks as they come due; moves orders whose status is behind their pharmacy steps.
 * Every instance may run it: each message is claimed by one of them.
 */
export function pharmacyJob(ctx: AppContext): Job {
  return {
    name: PHARMACY_JOB,
    intervalMs: ctx.env.PHARMACY_INTERVAL_SECONDS * 1000,
    run: () => runPharmacy(ctx),
  };
}
