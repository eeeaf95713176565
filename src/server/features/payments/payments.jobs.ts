import type { AppContext } from '#server/context.ts';
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
 * How a call left `started` is finished, through the same code the request would have run. Each
 * feature that makes gateway calls names its own by ledger purpose, and the app hands them to the
 * reconciler at start, so payments knows none of the features whose calls it finishes.
 */
export type Finisher = (ctx: AppContext, call: LedgerRow) => Promise<void>;
export type Finishers = Readonly<Record<string, Finisher>>;

/**
 * Other work a crash can leave half done that the reconciler takes on each run (checkout claims on
 * a cart): up to `limit` items taken by this instance alone, each finished on its own.
 */
export type StaleWork = (
  ctx: AppContext,
  graceMs: number,
  limit: number,
) => Promise<(() => Promise<void>)[]>;

/**
 * Refunds of orphan charges and releases of orphan holds: asking again with the same key is the
 * whole of finishing them. Payments' own orphan refunds are finished so; a feature whose plain
 * calls are too names this for their purpose.
 */
export async function finishByAskingAgain(ctx: AppContext, call: LedgerRow): Promise<void> {
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
    return;
  }
  throw new Error(`A ${call.operation} (${call.purpose}) cannot be finished by asking again.`);
}

/** The purposes payments makes calls for itself (`refundOrphanCharge`). */
const ownFinishers: Finishers = { auto_refund: finishByAskingAgain };

/**
 * One registry of every feature's finishers. A purpose named twice is a mistake made at start, so
 * it stops the start rather than letting one feature's finisher silently replace another's.
 */
export function finisherRegistry(groups: Finishers[]): ReadonlyMap<string, Finisher> {
  const registry = new Map<string, Finisher>();
  for (const group of [ownFinishers, ...groups]) {
    for (const [purpose, finisher] of Object.entries(group)) {
      if (registry.has(purpose))
        throw new Error(`Two finishers are registered for the ledger purpose "${purpose}".`);
      registry.set(purpose, finisher);
    }
  }
  return registry;
}

/**
 * The payment reconciler (decision 012), every RECONCILE_INTERVAL_SECONDS on every instance: it
 * takes gateway calls left `started` longer than the grace period, and the other stale work it was
 * given (checkout claims as old), and finishes or undoes each by what the gateway did, through the
 * finisher its purpose registered. Claims are conditional updates, so instances never work on the
 * same call at once, and every step is idempotent, so a reconciler that dies mid-way is simply
 * followed by the next.
 */
export function reconcilerJob(
  ctx: AppContext,
  wiring: { finishers: Finishers[]; staleWork: StaleWork[] },
): Job {
  const graceMs = ctx.env.RECONCILE_GRACE_SECONDS * 1000;
  const finishers = finisherRegistry(wiring.finishers);
  return {
    name: RECONCILE_JOB,
    intervalMs: ctx.env.RECONCILE_INTERVAL_SECONDS * 1000,
    async run() {
      const calls = await staleCalls(ctx, graceMs, BATCH);
      for (const call of calls) {
        if (await claimCall(ctx, call.id, LEASE_MS))
          await reportFailure(ctx, () => finishCall(ctx, finishers, call));
      }
      let more = calls.length === BATCH;
      for (const take of wiring.staleWork) {
        const items = await take(ctx, graceMs, BATCH);
        for (const finish of items) await reportFailure(ctx, finish);
        if (items.length === BATCH) more = true;
      }
      return more;
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
async function finishCall(
  ctx: AppContext,
  finishers: ReadonlyMap<string, Finisher>,
  call: LedgerRow,
): Promise<void> {
  const finisher = finishers.get(call.purpose);
  // Reported on every run and left started: a call nobody can finish is a mistake to see, and
  // dropping it could leave money moved with no order to show for it.
  if (!finisher)
    throw new Error(
      `No finisher is registered for the ledger purpose "${call.purpose}" (call ${call.id}, ${call.operation}); it stays started.`,
    );
  return finisher(ctx, call);
}
