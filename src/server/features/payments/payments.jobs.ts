import type { AppContext } from '#server/context.ts';
import { finishInterruptedCharge } from '#server/features/billing/billing.service.ts';
import { takeStaleCheckoutClaims } from '#server/features/cart/cart.service.ts';
import {
  finishCheckoutAttempt,
  finishCheckoutCharge,
} from '#server/features/checkout/checkout.service.ts';
import { finishInterruptedRefund } from '#server/features/orders/orders.operations.ts';
import { finishApproval, finishDecline } from '#server/features/reviews/reviews.service.ts';
import { finishVisitAuthorization } from '#server/features/visits/visits.submission.ts';
import type { Job } from '#server/lib/jobs.ts';
import {
  claimCall,
  outcomeOf,
  refund,
  release,
  settleCall,
  staleCalls,
  type LedgerRow,
} from './payments.service.ts';

export const RECONCILE_JOB = 'reconcile-payments';
/** Small batches: each call may take a gateway round trip, and requests are served in between. */
const BATCH = 10;
/** How long one reconciler holds a call it took; another instance may take it after that. */
const LEASE_MS = 5 * 60_000;

/**
 * The payment reconciler (decision 012), every RECONCILE_INTERVAL_SECONDS on every instance: it
 * takes gateway calls left `started` longer than the grace period, and checkout claims as old, and
 * finishes or undoes each by what the gateway did, through the same code the request would have
 * run. Claims are conditional updates, so instances never work on the same call at once, and every
 * step is idempotent, so a reconciler that dies mid-way is simply followed by the next.
 */
export function reconcilerJob(ctx: AppContext): Job {
  const graceMs = ctx.env.RECONCILE_GRACE_SECONDS * 1000;
  return {
    name: RECONCILE_JOB,
    intervalMs: ctx.env.RECONCILE_INTERVAL_SECONDS * 1000,
    async run() {
      const calls = await staleCalls(ctx, graceMs, BATCH);
      for (const call of calls) {
        if (await claimCall(ctx, call.id, LEASE_MS))
          await reportFailure(ctx, () => finishCall(ctx, call));
      }
      const claims = await takeStaleCheckoutClaims(ctx, graceMs, BATCH);
      for (const claim of claims)
        await reportFailure(ctx, () => finishCheckoutAttempt(ctx, claim.customerId, claim.key));
      return calls.length === BATCH || claims.length === BATCH;
    },
  };
}

/**
 * One call that cannot be finished now (the gateway is down) must not hold up the rest: it is
 * reported, and taken again once its lease runs out.
 */
async function reportFailure(ctx: AppContext, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    ctx.reporter.report(error, { route: `job:${RECONCILE_JOB}` });
  }
}

/** Finishes one interrupted call the way its purpose is finished. */
async function finishCall(ctx: AppContext, call: LedgerRow): Promise<void> {
  switch (call.purpose) {
    case 'checkout':
      return finishCheckoutCharge(ctx, call);
    case 'renewal':
    case 'retry':
    case 'card_update':
      return finishInterruptedCharge(ctx, call);
    case 'visit':
      return finishVisitAuthorization(ctx, call);
    case 'approval':
      return finishApproval(ctx, call);
    case 'decline':
      return finishDecline(ctx, call);
    case 'refund':
    case 'cancel':
      return finishInterruptedRefund(ctx, call);
    default:
      // Refunds of orphan charges and releases of orphan holds: asking again with the same key is
      // the whole of finishing them.
      return finishPlainCall(ctx, call);
  }
}

async function finishPlainCall(ctx: AppContext, call: LedgerRow): Promise<void> {
  if (call.operation === 'refund') {
    const result = await refund(ctx, {
      purpose: call.purpose,
      idempotencyKey: call.idempotencyKey,
      amountCents: call.amountCents,
      orderId: call.orderId,
      sourceRef: call.sourceRef,
    });
    await settleCall(ctx, call.idempotencyKey, outcomeOf(result));
    return;
  }
  if (call.operation === 'release') {
    const outcome = await release(ctx, {
      purpose: call.purpose,
      idempotencyKey: call.idempotencyKey,
      amountCents: call.amountCents,
      orderId: call.orderId,
      sourceRef: call.sourceRef,
    });
    await settleCall(ctx, call.idempotencyKey, outcome);
  }
}
