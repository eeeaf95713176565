import type { AppContext } from '#server/context.ts';
import { patientIdentity } from '#server/features/accounts/accounts.people.ts';
import { tellPatientAboutVisit } from '#server/features/messages/messages.service.ts';
import {
  followOrdersBehind,
  followPharmacy,
  orderStatusesOf,
  pharmacyShipping,
  pharmacyTimelines,
  recordPharmacyStep,
} from '#server/features/orders/orders.pharmacy.ts';
import { prescriberOf } from '#server/features/staff/staff.service.ts';
import { prescriptionById } from '#server/features/visits/visits.review.ts';
import { medicineName } from '#shared/visits.ts';
import { faultPoint } from '#server/lib/faults.ts';
import { AppError } from '#server/lib/errors.ts';
import { pharmacyStepNames, type PharmacyStep } from '#shared/orders.ts';
import {
  PHARMACY_STUCK_HOURS,
  type CancelRxMessage,
  type NewRxMessage,
  type PharmacyEvent,
  type PharmacyMessage,
  type PharmacyQueueItem,
  type RefillMessage,
} from '#shared/pharmacy.ts';
import * as q from './pharmacy.queries.ts';

/**
 * Issue 29: the pharmacy that fills our prescriptions (decision 022). What we tell it is written
 * in the transaction that decides it (an approval writes its NewRx, a paid refill period its
 * refill, a cancelled plan its CancelRx) and sent afterwards by the pharmacy job under its own key:
 * durable like the outbox, and exactly once at the pharmacy however often a crash makes us send it.
 * What it tells us (received, filled, shipped, delivered, rejected) becomes the order's timeline.
 */

export const PHARMACY_JOB = 'pharmacy';

/** Messages sent per batch. */
const BATCH = 20;
/** Each fill is a month's supply: the refill plan bills and ships monthly. */
const DAYS_SUPPLY = 30;
/** A message the pharmacy could not take is tried again after 1, 2, 4 … minutes, at most hourly. */
const retryDelayMs = (attempts: number) => Math.min(60, 2 ** attempts) * 60_000;
/** A shipped order is the carrier's, which takes days: stuck only after a week. */
const STUCK_SHIPPED_HOURS = 7 * 24;
/** How far back operations' queue looks. */
const QUEUE_DAYS = 60;

const newRxKey = (prescriptionId: number) => `newrx:${prescriptionId}`;

/** The approval's prescription as the pharmacy is to fill it. */
export interface NewRxInput {
  orderId: number;
  prescriptionId: number;
  visitId: number;
  customerId: number;
  prescriberId: number;
  medication: {
    description: string;
    drug: string;
    strength: string;
    quantity: number;
    refills: number;
    directions: string;
    validUntil: string;
  };
}

/**
 * Queues the NewRx of an approval, in its transaction: once per prescription, whoever approves
 * twice. The prescriber's licence is the one in the state the order ships to (where the patient
 * was seen).
 */
export async function queueNewRx(tx: AppContext, rx: NewRxInput): Promise<void> {
  const shipping = await pharmacyShipping(tx, rx.orderId);
  const patient = await patientIdentity(tx, rx.customerId);
  if (!shipping || !patient) throw new Error('a NewRx for an order or patient that is gone');
  const prescriber = await prescriberOf(tx, rx.prescriberId, shipping.address.state);
  const now = tx.clock.now().toISOString();
  const message: NewRxMessage = {
    message_id: newRxKey(rx.prescriptionId),
    type: 'NewRx',
    order_number: shipping.orderNumber,
    prescription_id: rx.prescriptionId,
    written_on: now.slice(0, 10),
    prescriber: {
      name: prescriber?.name ?? '',
      npi: prescriber?.npi ?? null,
      state_licence: prescriber?.licence
        ? { state: prescriber.licence.state, number: prescriber.licence.number }
        : null,
    },
    patient: {
      first_name: patient.first_name,
      last_name: patient.last_name,
      date_of_birth: patient.dob,
      address: shipping.address,
    },
    medication: {
      description: rx.medication.description,
      drug: rx.medication.drug,
      strength: rx.medication.strength,
      quantity: rx.medication.quantity,
      days_supply: DAYS_SUPPLY,
      refills: rx.medication.refills,
      directions: rx.medication.directions,
      substitution: 'allowed',
      valid_until: rx.medication.validUntil,
    },
  };
  await q.insertMessage(tx.db, {
    key: message.message_id,
    kind: 'NewRx',
    orderId: rx.orderId,
    prescriptionId: rx.prescriptionId,
    customerId: rx.customerId,
    visitId: rx.visitId,
    payload: JSON.stringify(message),
    now,
  });
}

/**
 * Queues the refill a paid period of a refill plan ships, in the transaction that records the
 * payment. False when the prescription was never sent to the pharmacy (written before it was
 * wired): operations ship that one by hand, as before.
 */
export async function queueRefill(
  tx: AppContext,
  refill: { orderId: number; prescriptionId: number },
): Promise<boolean> {
  const rx = await q.selectNewRxOf(tx.db, refill.prescriptionId);
  const shipping = await pharmacyShipping(tx, refill.orderId);
  if (!shipping) return false;
  // A renewed prescription reaches the pharmacy with its first fill: the plan's next paid period.
  if (!rx) return queueFirstFill(tx, refill);
  const message: RefillMessage = {
    message_id: `refill:${refill.orderId}`,
    type: 'Refill',
    order_number: shipping.orderNumber,
    prescription_id: refill.prescriptionId,
    new_rx_message_id: rx.message_key,
    ship_to: shipping.address,
  };
  return q.insertMessage(tx.db, {
    key: message.message_id,
    kind: 'Refill',
    orderId: refill.orderId,
    prescriptionId: refill.prescriptionId,
    customerId: rx.customer_id,
    visitId: rx.visit_id,
    payload: JSON.stringify(message),
    now: tx.clock.now().toISOString(),
  });
}

/**
 * The NewRx of a prescription a renewal wrote (issue 29), sent with the first order that fills it:
 * the approval had no order, and the refill plan bills every fill of a renewed prescription.
 */
async function queueFirstFill(
  tx: AppContext,
  fill: { orderId: number; prescriptionId: number },
): Promise<boolean> {
  const prescription = await prescriptionById(tx, fill.prescriptionId);
  if (!prescription) return false;
  await queueNewRx(tx, {
    orderId: fill.orderId,
    prescriptionId: prescription.id,
    visitId: prescription.visitId,
    customerId: prescription.customerId,
    prescriberId: prescription.providerId,
    medication: {
      description: medicineName(prescription.category, prescription.drug, prescription.dosage),
      drug: prescription.drug,
      strength: prescription.dosage,
      quantity: prescription.quantity,
      refills: prescription.refills,
      directions: prescription.directions ?? '',
      validUntil: prescription.validUntil,
    },
  });
  return true;
}

/** Queues a CancelRx for a prescription the pharmacy has: no more fills of it. */
export async function queueCancelRx(
  tx: AppContext,
  cancel: { prescriptionId: number; reason: string },
): Promise<void> {
  const rx = await q.selectNewRxOf(tx.db, cancel.prescriptionId);
  if (!rx) return;
  const message: CancelRxMessage = {
    message_id: `cancelrx:${cancel.prescriptionId}`,
    type: 'CancelRx',
    prescription_id: cancel.prescriptionId,
    new_rx_message_id: rx.message_key,
    reason: cancel.reason,
  };
  await q.insertMessage(tx.db, {
    key: message.message_id,
    kind: 'CancelRx',
    orderId: null,
    prescriptionId: cancel.prescriptionId,
    customerId: rx.customer_id,
    visitId: rx.visit_id,
    payload: JSON.stringify(message),
    now: tx.clock.now().toISOString(),
  });
}

/** Asks the pharmacy job to send what was just queued (after the queuing transaction commits). */
export function sendToPharmacySoon(ctx: AppContext): void {
  ctx.jobs.kick(PHARMACY_JOB);
}

/**
 * Sends a batch of due messages, each claimed first so one instance sends it. A message the
 * pharmacy accepted is marked sent, with the order's "sent" step, in one transaction; a crash
 * before that leaves the claim to lapse and the message to be sent again under the same key,
 * which the pharmacy answers as the same message. True when more may be due.
 */
export async function sendDue(ctx: AppContext): Promise<boolean> {
  const now = ctx.clock.now();
  const due = await q.selectDue(ctx.db, now.toISOString(), BATCH);
  for (const message of due) {
    // A sender's claim lasts as long as a gateway call may (RECONCILE_GRACE_SECONDS, a minute by
    // default, well past the partner's 15 s timeout): then another sender may finish it.
    const until = new Date(now.getTime() + ctx.env.RECONCILE_GRACE_SECONDS * 1000).toISOString();
    if (!(await q.claim(ctx.db, message.id, now.toISOString(), until))) continue;
    const result = await ctx.pharmacy.send(JSON.parse(message.payload) as PharmacyMessage);
    faultPoint(ctx.env, 'pharmacy:after-send');
    const at = ctx.clock.now().toISOString();
    if (result.ok) {
      await ctx.db.transaction().execute(async (trx) => {
        const tx = { ...ctx, db: trx };
        if (!(await q.markSent(trx, message.id, { ref: result.ref, now: at }))) return;
        if (message.order_id !== null)
          await recordPharmacyStep(tx, {
            orderId: message.order_id,
            step: 'sent',
            at,
            detail: null,
          });
      });
    } else {
      const retryAt = result.retry
        ? new Date(ctx.clock.now().getTime() + retryDelayMs(message.attempts)).toISOString()
        : null;
      await q.markNotSent(ctx.db, message.id, { error: result.error, retryAt });
    }
  }
  return due.length === BATCH;
}

/**
 * Applies one of the pharmacy's callbacks (verified by the caller): written down by its id, so a
 * repeated one changes nothing; its step kept on the order whatever order steps arrive in; the
 * order moved as far as its steps say. A rejection is told to the patient in their visit's
 * conversation. Unknown messages are refused (the pharmacy names only what we sent it).
 */
export async function receivePharmacyEvent(ctx: AppContext, event: PharmacyEvent): Promise<void> {
  const message = await q.selectMessage(ctx.db, event.message_id);
  const orderId = message?.order_id ?? null;
  if (!message || orderId === null)
    throw new AppError('NOT_FOUND', 'We sent no prescription or refill with that message id.');
  const step: PharmacyStep = event.type;
  const detail =
    step === 'shipped'
      ? (event.tracking_number ?? null)
      : step === 'rejected'
        ? (event.reason ?? 'The pharmacy gave no reason.')
        : null;
  const applied = await ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    const now = ctx.clock.now().toISOString();
    const fresh = await q.insertEvent(trx, {
      id: event.id,
      messageKey: message.message_key,
      type: event.type,
      occurredAt: event.occurred_at,
      now,
    });
    if (!fresh) return false;
    const kept = await recordPharmacyStep(tx, { orderId, step, at: event.occurred_at, detail });
    if (kept && step === 'rejected') {
      // A provider's task until one writes to the patient about it (openRejections).
      await q.markRejected(trx, message.id, event.occurred_at);
      await tellPatientAboutVisit(
        tx,
        { id: message.visit_id, customerId: message.customer_id },
        `Our pharmacy could not fill your prescription for this order: ${detail} Your provider will write to you here about what happens next.`,
      );
    }
    return true;
  });
  if (applied && (step === 'shipped' || step === 'delivered')) await followPharmacy(ctx, orderId);
}

/** The built-in pharmacy's callbacks that are due, applied as a partner's would be. */
export async function applySimulated(ctx: AppContext): Promise<boolean> {
  const simulated = ctx.pharmacy.simulated;
  if (!simulated) return false;
  const batches = await simulated.due(ctx.clock.now(), BATCH);
  for (const batch of batches) {
    for (const event of batch.events) {
      try {
        await receivePharmacyEvent(ctx, event);
      } catch (error) {
        // A message the simulator has and we do not (a database reset under it): nothing to move.
        if (!(error instanceof AppError && error.code === 'NOT_FOUND')) throw error;
      }
    }
    await batch.done();
  }
  return batches.length === BATCH;
}

/** One run of the pharmacy job: send, apply the simulator's callbacks, follow orders behind. */
export async function runPharmacy(ctx: AppContext): Promise<boolean> {
  const sent = await sendDue(ctx);
  const simulated = await applySimulated(ctx);
  const followed = await followOrdersBehind(ctx, BATCH);
  return sent || simulated || followed;
}

/**
 * Operations' Pharmacy queue: every fill of the last 60 days whose order is not delivered (or
 * refunded, or cancelled), at its last step and since when, stuck ones first. Stuck: waiting more
 * than PHARMACY_STUCK_HOURS to be sent or at a pharmacy step, or a week in the carrier's hands; a
 * message the pharmacy refused, or a rejected fill, always needs someone.
 */
export async function pharmacyQueue(ctx: AppContext): Promise<PharmacyQueueItem[]> {
  const now = ctx.clock.now().getTime();
  const since = new Date(now - QUEUE_DAYS * 86_400_000).toISOString();
  const fills = await q.selectFillsSince(ctx.db, since);
  const ids = fills.map((f) => f.order_id);
  const [timelines, statuses] = await Promise.all([
    pharmacyTimelines(ctx, ids),
    orderStatusesOf(ctx, ids),
  ]);
  const hours = (iso: string) => (now - Date.parse(iso)) / 3_600_000;
  const items: PharmacyQueueItem[] = [];
  for (const fill of fills) {
    const status = statuses.get(fill.order_id);
    const steps = timelines.get(fill.order_id)?.steps ?? [];
    if (!status || ['DELIVERED', 'REFUNDED', 'CANCELLED'].includes(status)) continue;
    if (steps.some((s) => s.step === 'delivered')) continue;
    const last = steps.reduce<(typeof steps)[number] | null>(
      (a, s) =>
        a === null || pharmacyStepNames.indexOf(s.step) > pharmacyStepNames.indexOf(a.step) ? s : a,
      null,
    );
    const at = last?.at ?? fill.created_at;
    const stuck =
      fill.status === 'failed' ||
      last?.step === 'rejected' ||
      hours(at) > (last?.step === 'shipped' ? STUCK_SHIPPED_HOURS : PHARMACY_STUCK_HOURS);
    items.push({
      order_id: fill.order_id,
      order_number: fill.order_number,
      kind: fill.kind,
      step: last?.step ?? null,
      since: at,
      stuck,
      message_status: fill.status,
      attempts: fill.attempts,
      last_error: fill.last_error,
      rejected_reason: timelines.get(fill.order_id)?.rejected_reason ?? null,
    });
  }
  return items.sort((a, b) => Number(b.stuck) - Number(a.stuck) || a.since.localeCompare(b.since));
}

/** A fill the pharmacy rejected that no provider has written to the patient about yet. */
export interface OpenRejection {
  orderId: number;
  orderNumber: string;
  visitId: number;
  customerId: number;
  rejectedAt: string;
  reason: string;
}

/** The most open rejections the providers' queue lists at once (they are rare; oldest first). */
const OPEN_REJECTIONS_LISTED = 200;

/**
 * The providers' tasks from the pharmacy (issue 29): each fill it rejected, with its reason, until
 * a provider writes to the patient about it in the visit's conversation (closeRejectionsOf); only
 * the visit's, when one is named.
 */
export async function openRejections(ctx: AppContext, visitId?: number): Promise<OpenRejection[]> {
  const rows = await q.selectOpenRejections(ctx.db, OPEN_REJECTIONS_LISTED, visitId);
  const timelines = await pharmacyTimelines(
    ctx,
    rows.map((row) => row.order_id),
  );
  return rows.map((row) => ({
    orderId: row.order_id,
    orderNumber: row.order_number,
    visitId: row.visit_id,
    customerId: row.customer_id,
    rejectedAt: row.rejected_at,
    reason: timelines.get(row.order_id)?.rejected_reason ?? 'The pharmacy gave no reason.',
  }));
}

/** A provider wrote to the patient about the visit: its rejected fills leave the queue. */
export async function closeRejectionsOf(
  ctx: AppContext,
  visitId: number,
  staffId: number,
): Promise<void> {
  await q.closeRejections(ctx.db, visitId, { staffId, now: ctx.clock.now().toISOString() });
}

/** The prescription an order's medicine was filled under (null before it was sent). */
export function prescriptionOfOrder(ctx: AppContext, orderId: number): Promise<number | null> {
  return q.selectPrescriptionOfOrder(ctx.db, orderId);
}
