import type Stripe from 'stripe';
import type { AppContext } from '#server/context.ts';
import {
  auditAs,
  processorStaffId,
  type StaffActor,
} from '#server/features/staff/staff.service.ts';
import { AppError } from '#server/lib/errors.ts';
import type { StaffOrderDetail } from '#shared/operations.ts';
import { RECONCILE_JOB } from './payments.jobs.ts';
import { ledgerCall } from './payments.service.ts';
import * as q from './payments.webhooks.queries.ts';

/**
 * Stripe's webhooks (issue 28): what Stripe tells us it did, or what a card holder or an issuer did,
 * without being asked. Each event is verified by its signature over the raw body, written down by
 * id and handled once; events may arrive late, twice or out of order, so every handler either reads
 * the object afresh from Stripe or applies a state only when it is newer than the one it has.
 */

/** A refund made in Stripe's Dashboard, for the feature whose order it refunds to record. */
export interface ProcessorRefund {
  orderId: number;
  amountCents: number;
  paymentRef: string;
  refundId: string;
  purpose: string;
  actor: StaffActor;
}

/** What the endpoint needs that the app wires in (the refund of orders, like the finishers). */
export interface StripeWebhookWiring {
  /** The SDK, configured as the gateway's (createStripeClient). */
  stripe: Stripe;
  webhookSecret: string;
  /** Records a refund made in Stripe's Dashboard on its order; false when it was recorded before. */
  recordRefund: (ctx: AppContext, refunded: ProcessorRefund) => Promise<boolean>;
}

/** The ledger purpose of a refund made in Stripe's Dashboard (its key: `stripe-refund:<re_…>`). */
export const DASHBOARD_REFUND = 'dashboard_refund';

const CLOSED_DISPUTE = new Set(['won', 'lost', 'warning_closed']);

const isoOf = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString();
const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

/**
 * Verifies a delivery and handles its event once. A signature that does not verify (missing,
 * forged, for another endpoint's secret, or too old) is refused with 400 and changes nothing.
 * `ip`: where the delivery came from, for the audit entries it writes.
 */
export async function receiveStripeEvent(
  ctx: AppContext,
  wiring: StripeWebhookWiring,
  delivery: { body: Buffer; signature: string | undefined; ip: string },
): Promise<void> {
  let event: Stripe.Event;
  try {
    if (!delivery.signature) throw new Error('no signature');
    event = wiring.stripe.webhooks.constructEvent(
      delivery.body,
      delivery.signature,
      wiring.webhookSecret,
    );
  } catch {
    throw new AppError(
      'BAD_REQUEST',
      "The Stripe-Signature header is missing or does not match this endpoint's signing secret.",
    );
  }
  const now = ctx.clock.now().toISOString();
  const taken = await q.takeEvent(
    ctx.db,
    { id: event.id, type: event.type, created: isoOf(event.created) },
    now,
  );
  // Handled before: Stripe repeats a delivery it did not hear a 2xx for, and may send one twice.
  if (!taken) return;
  const actor = { staffId: await processorStaffId(ctx), ip: delivery.ip };
  switch (event.type) {
    case 'charge.refunded':
      await recordDashboardRefunds(ctx, wiring, event.data.object, actor);
      return handled(ctx, event);
    case 'charge.dispute.created':
    case 'charge.dispute.updated':
    case 'charge.dispute.closed':
      return recordDispute(ctx, wiring, event, event.data.object, actor);
    case 'radar.early_fraud_warning.created':
      return recordFraudWarning(ctx, wiring, event, event.data.object, actor);
    case 'payment_intent.succeeded':
    case 'payment_intent.payment_failed':
    case 'payment_intent.canceled':
      await nudgeReconciler(ctx, event.data.object);
      return handled(ctx, event);
    // Saving a card waits for its SetupIntent's answer in the request that saves it (the gateway's
    // tokenize), so the event brings nothing new; it is acknowledged.
    case 'setup_intent.succeeded':
      return handled(ctx, event);
    // Stripe sends only the types the endpoint subscribes to, but the list may grow: any other is
    // acknowledged, so Stripe does not retry it for days.
    default:
      return handled(ctx, event);
  }
}

/**
 * Marks the event handled and applies what it changes, in one transaction: a second delivery
 * handled at the same moment finds it marked and applies nothing.
 */
async function handled(
  ctx: AppContext,
  event: Stripe.Event,
  apply?: (tx: AppContext) => Promise<void>,
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    if (!(await q.markHandled(trx, event.id, ctx.clock.now().toISOString()))) return;
    if (apply) await apply(tx);
  });
}

/** The order a Stripe object's payment belongs to, or null (reported: operations must know). */
async function orderOfPayment(
  ctx: AppContext,
  wiring: StripeWebhookWiring,
  what: string,
  object: {
    payment_intent?: string | Stripe.PaymentIntent | null;
    charge?: string | Stripe.Charge | null;
  },
): Promise<{ orderId: number; paymentRef: string } | null> {
  let paymentRef = idOf(object.payment_intent);
  const chargeId = idOf(object.charge);
  if (!paymentRef && chargeId)
    paymentRef = idOf((await wiring.stripe.charges.retrieve(chargeId)).payment_intent);
  const orderId = paymentRef ? await q.selectOrderOfPayment(ctx.db, paymentRef) : null;
  if (paymentRef && orderId !== null) return { orderId, paymentRef };
  ctx.reporter.report(
    new Error(
      `A Stripe ${what} names a payment (${paymentRef ?? chargeId ?? 'none'}) no order has.`,
    ),
    { route: 'webhook:stripe' },
  );
  return null;
}

/**
 * `charge.refunded`: the payment's refunds, read afresh from Stripe (a later event may already have
 * told of more), of which those the ledger does not know, by Stripe's refund id or by the key our
 * own refunds carry in their metadata, were made in Stripe's Dashboard. Each is recorded on its
 * order once, keyed by its refund id.
 */
async function recordDashboardRefunds(
  ctx: AppContext,
  wiring: StripeWebhookWiring,
  charge: Stripe.Charge,
  actor: StaffActor,
): Promise<void> {
  const paid = await orderOfPayment(ctx, wiring, 'refund', charge);
  if (!paid) return;
  for await (const refund of wiring.stripe.refunds.list({
    payment_intent: paid.paymentRef,
    limit: 100,
  })) {
    // A failed or canceled refund gave nothing back; a pending one has (Stripe counts it refunded).
    if (refund.status !== 'succeeded' && refund.status !== 'pending') continue;
    const idempotencyKey = refund.metadata?.idempotency_key ?? null;
    if (await q.knowsRefund(ctx.db, { id: refund.id, idempotencyKey })) continue;
    await wiring.recordRefund(ctx, {
      orderId: paid.orderId,
      amountCents: refund.amount,
      paymentRef: paid.paymentRef,
      refundId: refund.id,
      purpose: DASHBOARD_REFUND,
      actor,
    });
  }
}

/**
 * `charge.dispute.*`: the dispute's state on its order, with an audit entry for each event. The
 * event's object is applied only when it is newer than the state recorded (by the event's
 * `created`), and a closed dispute is never reopened, so a `created` arriving after `closed`
 * changes nothing. (Reading the dispute afresh would do as well; the fake Stripe the tests run
 * against does not serve dispute reads, so the ordering rule is what is tested.)
 */
async function recordDispute(
  ctx: AppContext,
  wiring: StripeWebhookWiring,
  event: Stripe.Event,
  dispute: Stripe.Dispute,
  actor: StaffActor,
): Promise<void> {
  const paid = await orderOfPayment(ctx, wiring, 'dispute', dispute);
  const eventAt = isoOf(event.created);
  await handled(ctx, event, async (tx) => {
    if (!paid) return;
    await q.upsertDispute(tx.db, {
      id: dispute.id,
      orderId: paid.orderId,
      paymentRef: paid.paymentRef,
      amountCents: dispute.amount,
      reason: dispute.reason,
      status: dispute.status,
      evidenceDueBy: dispute.evidence_details.due_by
        ? isoOf(dispute.evidence_details.due_by)
        : null,
      openedAt: isoOf(dispute.created),
      closedAt: CLOSED_DISPUTE.has(dispute.status) ? eventAt : null,
      eventCreated: eventAt,
    });
    await auditOrder(
      tx,
      actor,
      `dispute_${event.type.split('.').pop() ?? 'updated'}`,
      paid.orderId,
    );
  });
}

/** `radar.early_fraud_warning.created`: a flag on the order operations see, and an audit entry. */
async function recordFraudWarning(
  ctx: AppContext,
  wiring: StripeWebhookWiring,
  event: Stripe.Event,
  warning: Stripe.Radar.EarlyFraudWarning,
  actor: StaffActor,
): Promise<void> {
  const paid = await orderOfPayment(ctx, wiring, 'early fraud warning', warning);
  await handled(ctx, event, async (tx) => {
    if (!paid) return;
    const added = await q.insertFraudWarning(tx.db, {
      id: warning.id,
      orderId: paid.orderId,
      paymentRef: paid.paymentRef,
      fraudType: warning.fraud_type,
      actionable: warning.actionable,
      warnedAt: isoOf(warning.created),
    });
    if (added) await auditOrder(tx, actor, 'early_fraud_warning', paid.orderId);
  });
}

async function auditOrder(
  ctx: AppContext,
  actor: StaffActor,
  action: string,
  orderId: number,
): Promise<void> {
  const customerId = await q.selectOrderCustomer(ctx.db, orderId);
  await auditAs(ctx, actor.staffId, {
    action,
    subjectType: 'order',
    subjectId: String(orderId),
    customerId: customerId ?? undefined,
    ip: actor.ip,
  });
}

/**
 * `payment_intent.*`: the outcome of a PaymentIntent we made. The request that made it settles it
 * as a rule; if its ledger call (found by the key every PaymentIntent carries) is still started,
 * the request may have died, so the reconciler is asked to look now rather than at its next round.
 * It still leaves the call alone until the grace period has passed (the request may yet answer),
 * and asks Stripe itself what happened: the event is a hint, never the record.
 */
async function nudgeReconciler(ctx: AppContext, paymentIntent: Stripe.PaymentIntent) {
  const key = paymentIntent.metadata?.idempotency_key;
  if (!key) return;
  const call = await ledgerCall(ctx, key);
  if (call?.status === 'started') ctx.jobs.kick(RECONCILE_JOB);
}

/** What operations see of an order's payment at Stripe: its disputes and early fraud warnings. */
export async function processorViewForStaff(
  ctx: AppContext,
  orderId: number,
): Promise<Pick<StaffOrderDetail, 'disputes' | 'fraud_warnings'>> {
  const [disputes, warnings] = await Promise.all([
    q.selectDisputes(ctx.db, orderId),
    q.selectFraudWarnings(ctx.db, orderId),
  ]);
  return {
    disputes: disputes.map((d) => ({
      dispute_id: d.id,
      payment_ref: d.paymentRef,
      amount_cents: d.amountCents,
      reason: d.reason,
      status: d.status,
      evidence_due_by: d.evidenceDueBy,
      opened_at: d.openedAt,
      closed_at: d.closedAt,
    })),
    fraud_warnings: warnings.map((w) => ({
      warning_id: w.id,
      payment_ref: w.paymentRef,
      fraud_type: w.fraudType,
      actionable: w.actionable,
      warned_at: w.warnedAt,
    })),
  };
}
