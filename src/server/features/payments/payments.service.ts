import type {
  AuthorizeResult,
  ChargeResult,
  GatewayRecord,
  RefundResult,
} from '#server/adapters/payments.ts';
import type { AppContext } from '#server/context.ts';
import { faultPoint } from '#server/lib/faults.ts';
import type { PaymentLine, PaymentLineKind } from '#shared/orders.ts';
import * as q from './payments.queries.ts';

/**
 * The payment ledger (decision 012). Every call the app makes to the gateway goes through here: it
 * is written down with its idempotency key before it is made (`started`), and the caller records the
 * answer (`settleCall`) in the same transaction as the change the answer causes, so a crash leaves
 * either a started call (the reconciler asks the gateway and finishes or undoes it) or a finished
 * one, never money moved with nothing to show for it.
 */

export type { LedgerRow } from './payments.queries.ts';

export interface GatewayCall {
  /** Why: checkout, renewal, retry, card_update, visit, approval, decline, refund, cancel, auto_refund. */
  purpose: string;
  idempotencyKey: string;
  amountCents: number;
  orderId?: number | null;
  visitId?: number | null;
  subscriptionId?: number | null;
  billingPeriod?: string | null;
  /** The authorisation to capture or release, the charge to refund. */
  sourceRef?: string | null;
  /** Who asked (staff), for the audit entry written with the outcome. */
  staffId?: number | null;
  staffIp?: string | null;
  /** What finishing the call needs besides money; stored as JSON. */
  details?: unknown;
}

export type CallOutcome = { ok: true; ref: string } | { ok: false; failure: string };

/** Writes the call down as started (or starts a failed one again); works inside a transaction. */
export function recordCall(
  ctx: AppContext,
  operation: q.LedgerOperation,
  call: GatewayCall,
): Promise<q.LedgerRow> {
  // Asking again with the same key is safe for everything but a refund, whose reservation a failed
  // answer has already given back: a refund's key is used for one attempt only.
  return q.insertOrRestart(
    ctx.db,
    {
      operation,
      purpose: call.purpose,
      idempotencyKey: call.idempotencyKey,
      orderId: call.orderId ?? null,
      visitId: call.visitId ?? null,
      subscriptionId: call.subscriptionId ?? null,
      billingPeriod: call.billingPeriod ?? null,
      amountCents: call.amountCents,
      sourceRef: call.sourceRef ?? null,
      staffId: call.staffId ?? null,
      staffIp: call.staffIp ?? null,
      details: call.details === undefined ? null : JSON.stringify(call.details),
    },
    ctx.clock.now().toISOString(),
    operation !== 'refund',
  );
}

/**
 * Records the gateway's answer; call it in the transaction that applies the answer. True when this
 * call settled it (refunds: only from started, so their reservation moves once).
 */
export function settleCall(ctx: AppContext, idempotencyKey: string, outcome: CallOutcome) {
  return q.settle(ctx.db, idempotencyKey, outcome, ctx.clock.now().toISOString());
}

export function ledgerCall(ctx: AppContext, idempotencyKey: string) {
  return q.selectByKey(ctx.db, idempotencyKey);
}

/** When the gateway granted this hold (the authorisation's answer); null when we made no such hold. */
export async function holdGrantedAt(
  ctx: AppContext,
  authorizationId: string,
): Promise<Date | null> {
  const call = await q.selectHold(ctx.db, authorizationId);
  return call ? new Date(call.updatedAt) : null;
}

export function ledgerForOrder(ctx: AppContext, orderId: number) {
  return q.selectForOrder(ctx.db, orderId);
}

/** How a settled call reads on its order; null for one that moved no money the customer sees. */
function lineKind(call: q.SettledCallRow): PaymentLineKind | null {
  if (call.status === 'failed') return 'declined';
  switch (call.operation) {
    case 'charge':
    case 'capture':
      return 'paid';
    case 'authorize':
      return 'hold';
    case 'release':
      return 'released';
    case 'refund':
      return call.amountCents > 0 ? 'refunded' : null;
  }
}

/**
 * Issue 26: every charge, hold, release and refund of these orders, oldest first, by order id: what
 * the ledger says happened, so the order shows the money that moved and not only its total.
 */
export async function paymentLines(
  ctx: AppContext,
  orderIds: number[],
): Promise<Map<number, PaymentLine[]>> {
  const lines = new Map<number, PaymentLine[]>();
  for (const call of await q.selectSettledCalls(ctx.db, orderIds)) {
    const kind = lineKind(call);
    if (!kind) continue;
    const line = { kind, amount_cents: call.amountCents, date: call.settledAt };
    const list = lines.get(call.orderId);
    if (list) list.push(line);
    else lines.set(call.orderId, [line]);
  }
  return lines;
}

/**
 * Records the call (unless the caller already did, in the transaction that decided to make it),
 * then makes it; the caller settles it with the answer.
 */
async function make<T>(
  ctx: AppContext,
  operation: q.LedgerOperation,
  call: GatewayCall,
  invoke: () => Promise<T>,
  recorded = false,
): Promise<T> {
  if (!recorded) await recordCall(ctx, operation, call);
  faultPoint(ctx.env, `${call.purpose}:before-${operation}`);
  const result = await invoke();
  faultPoint(ctx.env, `${call.purpose}:after-${operation}`);
  return result;
}

/**
 * How a payment is asked for. `recorded`: the caller wrote the call down itself (`recordCall`) in
 * the claim before it. `customerPresent`: the customer is at the page (a checkout), so their bank
 * may ask them to confirm it (3-D Secure) instead of refusing it; renewals, retries and approvals
 * are made while they are away.
 */
interface PaymentOptions {
  recorded?: boolean;
  customerPresent?: boolean;
}

export function charge(
  ctx: AppContext,
  call: GatewayCall,
  token: string,
  options: PaymentOptions = {},
): Promise<ChargeResult> {
  return make(
    ctx,
    'charge',
    call,
    () =>
      ctx.payments.charge(
        {
          token,
          amountCents: call.amountCents,
          idempotencyKey: call.idempotencyKey,
          offSession: !options.customerPresent,
        },
        ctx.clock.now(),
      ),
    options.recorded,
  );
}

export function authorize(
  ctx: AppContext,
  call: GatewayCall,
  token: string,
  options: PaymentOptions = {},
): Promise<AuthorizeResult> {
  return make(ctx, 'authorize', call, () =>
    ctx.payments.authorize(
      {
        token,
        amountCents: call.amountCents,
        idempotencyKey: call.idempotencyKey,
        offSession: !options.customerPresent,
      },
      ctx.clock.now(),
    ),
  );
}

/**
 * How long a customer has to confirm a payment with their bank (3-D Secure) before the reconciler
 * cancels it and undoes its attempt. Stripe's own challenge pages time out well within it.
 */
export const CUSTOMER_CONFIRMATION_MS = 15 * 60 * 1000;

/**
 * The bank asked the customer at the page to confirm this started payment: it stays started, the
 * customer's request sent again finishes it, and the reconciler leaves it for
 * CUSTOMER_CONFIRMATION_MS.
 */
export async function awaitCustomer(ctx: AppContext, idempotencyKey: string): Promise<void> {
  const until = new Date(ctx.clock.now().getTime() + CUSTOMER_CONFIRMATION_MS).toISOString();
  await q.markAwaitingCustomer(ctx.db, idempotencyKey, until);
}

/** Whether the customer is still confirming this payment with their bank. */
export function awaitingCustomer(ctx: AppContext, call: q.LedgerRow | undefined): boolean {
  return (
    call?.status === 'started' &&
    call.awaitingCustomerUntil !== null &&
    call.awaitingCustomerUntil > ctx.clock.now().toISOString()
  );
}

/**
 * Asks again, the customer now present, for the payment `call.sourceRef` their bank refused while
 * they were away for want of authentication; it may ask them for 3-D Secure (`action`).
 */
export function confirmWithCustomer(ctx: AppContext, call: GatewayCall): Promise<ChargeResult> {
  return make(ctx, 'charge', call, () =>
    ctx.payments.confirmWithCustomer({ intentId: call.sourceRef ?? '' }, ctx.clock.now()),
  );
}

/** Takes the held amount of `call.sourceRef` (an authorisation); the gateway captures it once. */
export function capture(ctx: AppContext, call: GatewayCall): Promise<ChargeResult> {
  return make(ctx, 'capture', call, () =>
    ctx.payments.capture({ authorizationId: call.sourceRef ?? '' }, ctx.clock.now()),
  );
}

/** Releases the hold `call.sourceRef`; the gateway's answer is the authorisation's new state. */
export async function release(ctx: AppContext, call: GatewayCall): Promise<CallOutcome> {
  const authorizationId = call.sourceRef ?? '';
  return make(ctx, 'release', call, async () => {
    await ctx.payments.release({ authorizationId }, ctx.clock.now());
    const record = await ctx.payments.find({ id: authorizationId });
    return record?.status === 'released'
      ? { ok: true as const, ref: authorizationId }
      : {
          ok: false as const,
          failure:
            record?.status === 'succeeded'
              ? 'The payment was already taken.'
              : 'There is no hold to release.',
        };
  });
}

/**
 * Refunds `call.amountCents` of the charge `call.sourceRef` with the refund's own key. A refund
 * already answered is not asked again: its recorded answer is returned.
 */
export async function refund(ctx: AppContext, call: GatewayCall): Promise<RefundResult> {
  const recorded = await recordCall(ctx, 'refund', call);
  if (recorded.status === 'succeeded') return { ok: true, refundId: recorded.gatewayRef ?? '' };
  if (recorded.status === 'failed')
    return { ok: false, message: recorded.failure ?? 'The refund failed.' };
  return make(ctx, 'refund', call, () =>
    ctx.payments.refund(
      {
        chargeId: call.sourceRef ?? '',
        amountCents: call.amountCents,
        idempotencyKey: call.idempotencyKey,
      },
      ctx.clock.now(),
    ),
  );
}

/**
 * What the gateway itself did (the reconciler asks it, never our tables). A payment still waiting
 * for the customer's 3-D Secure is cancelled first: the reconciler asks only once the customer's
 * time is up, and what it settles as failed must never move money later. The answer after that
 * is the payment's own (succeeded, if they confirmed it a moment before).
 */
export async function gatewayRecord(
  ctx: AppContext,
  query: { idempotencyKey: string } | { id: string },
): Promise<GatewayRecord | null> {
  const record = await ctx.payments.find(query);
  if (record?.status !== 'failed' || !record.action) return record;
  await ctx.payments.release({ authorizationId: record.id }, ctx.clock.now());
  return ctx.payments.find({ id: record.id });
}

/**
 * Gives a charge back in full when it can become nothing (its order was undone, or the order was
 * paid by another charge). Keyed by the charge, so however often it is asked, it refunds once.
 */
export async function refundOrphanCharge(
  ctx: AppContext,
  charged: { chargeId: string; amountCents: number; orderId: number | null },
): Promise<boolean> {
  const call: GatewayCall = {
    purpose: 'auto_refund',
    idempotencyKey: `auto-refund:${charged.chargeId}`,
    amountCents: charged.amountCents,
    orderId: charged.orderId,
    sourceRef: charged.chargeId,
  };
  const result = await refund(ctx, call);
  await settleCall(
    ctx,
    call.idempotencyKey,
    result.ok ? { ok: true, ref: result.refundId } : { ok: false, failure: result.message },
  );
  return result.ok;
}

/** Turns a gateway answer into a ledger outcome. */
export function outcomeOf(
  result:
    | { ok: true; chargeId: string }
    | { ok: true; authorizationId: string }
    | { ok: true; refundId: string }
    | { ok: false; message: string },
): CallOutcome {
  if (!result.ok) return { ok: false, failure: result.message };
  if ('chargeId' in result) return { ok: true, ref: result.chargeId };
  if ('authorizationId' in result) return { ok: true, ref: result.authorizationId };
  return { ok: true, ref: result.refundId };
}

// --- For the reconciler ---------------------------------------------------------------------------

export function staleCalls(ctx: AppContext, graceMs: number, limit: number) {
  const now = ctx.clock.now();
  return q.selectStale(
    ctx.db,
    new Date(now.getTime() - graceMs).toISOString(),
    now.toISOString(),
    limit,
  );
}

export function claimCall(ctx: AppContext, id: number, leaseMs: number) {
  const now = ctx.clock.now();
  return q.claim(ctx.db, id, now.toISOString(), new Date(now.getTime() + leaseMs).toISOString());
}
