// Requests between visits (issue 29, decision 024): a patient on a refill plan asks for an early
// refill, a change of dose, or reports a side effect, about that plan's prescription. Each opens
// its own clinical conversation (the patient's details are its first message), waits in the review
// queue of the providers who may answer it, and ends in one decision with a message: the plan's
// next refill brought forward, a new prescription the plan continues under, a decline, or advice.
import type { AppContext } from '#server/context.ts';
import {
  openRequestThread,
  providerThreadOf,
  writeDecisionInThread,
} from '#server/features/messages/messages.service.ts';
import { sendQueuedSoon } from '#server/features/outbox/outbox.service.ts';
import { sendToPharmacySoon } from '#server/features/pharmacy/pharmacy.service.ts';
import {
  activeProviders,
  auditAs,
  staffName,
  type StaffSession,
} from '#server/features/staff/staff.service.ts';
import {
  bringRefillForward,
  continueRefillPlan,
  subscriptionById,
} from '#server/features/subscriptions/subscriptions.service.ts';
import { chartPrescription } from '#server/features/visits/visits.renewal.ts';
import { prescriptionById, recordPrescription } from '#server/features/visits/visits.review.ts';
import { AppError, notFound } from '#server/lib/errors.ts';
import { longDateFromIso } from '#shared/dates.ts';
import type { DecideRequest, ProviderRequest, RequestTask } from '#shared/reviews.ts';
import { addDays } from '#shared/subscriptions.ts';
import {
  outcomesFor,
  reasonLabel,
  requestKindNames,
  type TreatmentRequest,
} from '#shared/treatment-requests.ts';
import { stateName } from '#shared/us-states.ts';
import { medicineName, programs } from '#shared/visits.ts';
import * as q from './treatment-requests.queries.ts';

/** The requests the treatment cards show: a patient's newest, enough for every plan's history. */
const PATIENT_REQUESTS = 50;
/** The open requests a provider's queue reads, oldest first. */
const QUEUE_REQUESTS = 200;
/** A prescription is valid from tomorrow for at most a year, as for a visit's. */
const MAX_PRESCRIPTION_DAYS = 365;

const today = (ctx: AppContext) => ctx.clock.now().toISOString().slice(0, 10);

/** What a decision did, as the patient reads it on the treatment card. */
async function outcomeWords(ctx: AppContext, row: q.RequestRow): Promise<string | null> {
  switch (row.outcome) {
    case null:
      return null;
    case 'refill_date':
      return `Approved: your next refill is sent on ${longDateFromIso(row.refillDate ?? '')}, and charged that day.`;
    case 'new_prescription': {
      const written =
        row.newPrescriptionId === null
          ? undefined
          : await prescriptionById(ctx, row.newPrescriptionId);
      return written
        ? `Approved: your provider prescribed ${medicineName(written.category, written.drug, written.dosage)}. It comes with your next refill, at the same price.`
        : 'Approved: your provider wrote a new prescription.';
    }
    case 'decline':
      return 'Declined: your provider explains why in Messages.';
    case 'answer':
      return 'Your provider answered in Messages.';
  }
}

async function toPatientRequest(ctx: AppContext, row: q.RequestRow): Promise<TreatmentRequest> {
  return {
    id: row.id,
    subscription_id: row.subscriptionId,
    kind: row.kind,
    reason: reasonLabel(row.kind, row.reason),
    status: row.status,
    created_at: row.createdAt,
    decided_at: row.decidedAt,
    outcome: await outcomeWords(ctx, row),
    thread_id: row.threadId,
  };
}

/** The patient's requests, newest first. */
export async function requestsOf(ctx: AppContext, customerId: number): Promise<TreatmentRequest[]> {
  const rows = await q.selectRequestsOf(ctx.db, customerId, PATIENT_REQUESTS);
  return Promise.all(rows.map((row) => toPatientRequest(ctx, row)));
}

const alreadyAsked = () =>
  new AppError(
    'REQUEST_OPEN',
    'You already asked for this, and your provider has not replied yet. You can add to it in Messages.',
  );

/**
 * The patient asks, about one of their own refill plans that is still running. The conversation
 * and the request are written together; a second request of the same kind while one is open is
 * refused (the database's partial unique index decides between two at once).
 */
export async function createRequest(
  ctx: AppContext,
  customerId: number,
  input: {
    subscription_id: number;
    kind: q.RequestKind;
    reason: string;
    details: string;
  },
): Promise<TreatmentRequest> {
  const plan = await subscriptionById(ctx, input.subscription_id);
  if (!plan || plan.customerId !== customerId || !plan.refill)
    throw notFound('We could not find that refill plan.');
  if (plan.status === 'CANCELLED' || plan.status === 'COMPLETED')
    throw new AppError(
      'SUBSCRIPTION_REFUSED',
      'This refill plan has ended. Renew your prescription from Home to go on with your treatment.',
    );
  if (input.kind === 'early_refill' && plan.refill.remaining <= 0)
    throw new AppError(
      'SUBSCRIPTION_REFUSED',
      'This prescription has no refills left to send early. Renew it from Home.',
    );
  if (await q.selectOpenRequestOf(ctx.db, plan.id, input.kind)) throw alreadyAsked();
  const prescriptionId = plan.refill.prescriptionId;
  const id = await ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    const threadId = await openRequestThread(
      tx,
      customerId,
      requestKindNames[input.kind],
      `${reasonLabel(input.kind, input.reason)}.\n\n${input.details}`,
    );
    const inserted = await q.insertRequest(trx, {
      customerId,
      subscriptionId: plan.id,
      prescriptionId,
      threadId,
      kind: input.kind,
      reason: input.reason,
      now: ctx.clock.now().toISOString(),
    });
    // Another request of this kind was written meanwhile: its conversation stays, this one goes.
    if (inserted === null) throw alreadyAsked();
    return inserted;
  });
  const row = await q.selectRequest(ctx.db, id);
  if (!row) throw new Error('request missing after insert');
  return toPatientRequest(ctx, row);
}

// --- The provider's side ------------------------------------------------------------------------

/**
 * The open requests this provider may decide, oldest first: those in conversations assigned to
 * them, and those open to every provider licensed in the patient's state (nobody assigned, or a
 * provider no longer active), as for any clinical question.
 */
export async function openRequestTasks(
  ctx: AppContext,
  staff: StaffSession,
): Promise<RequestTask[]> {
  const rows = await q.selectOpenRequests(ctx.db, QUEUE_REQUESTS);
  if (rows.length === 0) return [];
  const active = new Set((await activeProviders(ctx)).map((p) => p.id));
  return rows
    .filter((row) =>
      row.providerId !== null && active.has(row.providerId)
        ? row.providerId === staff.staff.id
        : row.state !== null && staff.staff.licensed_states.includes(row.state),
    )
    .map((row) => ({
      request_id: row.id,
      thread_id: row.threadId,
      kind: row.kind,
      reason: reasonLabel(row.kind, row.reason),
      patient: `${row.firstName} ${row.lastName.slice(0, 1)}.`,
      state: row.state ?? '',
      category: row.category,
      medicine: medicineName(row.category, row.drug, row.dosage),
      created_at: row.createdAt,
    }));
}

async function toProviderRequest(
  ctx: AppContext,
  row: q.RequestRow,
): Promise<ProviderRequest | null> {
  const prescription = await prescriptionById(ctx, row.prescriptionId);
  if (!prescription) return null;
  const plan = await subscriptionById(ctx, row.subscriptionId);
  const written =
    row.newPrescriptionId === null ? undefined : await prescriptionById(ctx, row.newPrescriptionId);
  return {
    id: row.id,
    kind: row.kind,
    reason: reasonLabel(row.kind, row.reason),
    status: row.status,
    created_at: row.createdAt,
    category: prescription.category,
    prescription: chartPrescription(prescription),
    visit_id: prescription.visitId,
    plan: plan
      ? {
          status: plan.status,
          next_billing_date: plan.nextBillingDate,
          refills_remaining: plan.refill?.remaining ?? 0,
        }
      : null,
    outcomes: row.status === 'OPEN' ? [...outcomesFor[row.kind]] : [],
    decision:
      row.outcome === null || row.decidedAt === null
        ? null
        : {
            outcome: row.outcome,
            provider:
              (row.decidedBy !== null && (await staffName(ctx, row.decidedBy))) || 'A provider',
            decided_at: row.decidedAt,
            refill_date: row.refillDate,
            prescription: written ? chartPrescription(written) : null,
          },
  };
}

/**
 * The request a clinical conversation was opened with, for the provider reading it (the caller
 * has checked they may open the conversation); null for a conversation that is not a request's.
 */
export async function requestOfThread(
  ctx: AppContext,
  threadId: number,
): Promise<ProviderRequest | null> {
  const row = await q.selectRequestOfThread(ctx.db, threadId);
  return row ? toProviderRequest(ctx, row) : null;
}

const statusOf = {
  refill_date: 'APPROVED',
  new_prescription: 'APPROVED',
  decline: 'DECLINED',
  answer: 'ANSWERED',
} as const;

const decidedAlready = () =>
  new AppError('REQUEST_DECIDED', 'This request has already been decided. Its answer is below.');

/**
 * A provider decides, in one transaction: the request is claimed (a second decision finds it
 * decided), what was decided is done (the plan's next refill moved; or the new prescription written
 * and the plan continued under it, the old one cancelled at the pharmacy), the provider's message
 * written in the request's conversation with its e-mail queued, and the decision audited. Anything
 * refused leaves nothing of it. Only a provider licensed today in the state the patient was seen in
 * may move a refill or prescribe.
 */
export async function decideRequest(
  ctx: AppContext,
  staff: StaffSession,
  input: DecideRequest,
  ip: string,
): Promise<ProviderRequest> {
  const row = await q.selectRequest(ctx.db, input.request_id);
  const missing = () => notFound('We could not find that request.');
  if (!row) throw missing();
  await providerThreadOf(ctx, staff, row.threadId);
  if (row.status !== 'OPEN') throw decidedAlready();
  const allowed = outcomesFor[row.kind];
  if (!allowed.includes(input.outcome))
    throw new AppError(
      'VALIDATION',
      `A ${requestKindNames[row.kind].toLowerCase()} is decided with ${allowed.map((o) => outcomeNames[o]).join(', or ')}.`,
    );
  const prescription = await prescriptionById(ctx, row.prescriptionId);
  if (!prescription) throw missing();
  const prescribes = input.outcome === 'refill_date' || input.outcome === 'new_prescription';
  if (
    prescribes &&
    (prescription.state === null || !staff.staff.licensed_states.includes(prescription.state))
  )
    throw new AppError(
      'LICENCE_EXPIRED',
      `You hold no licence valid today in ${prescription.state ? stateName(prescription.state) : 'the patient’s state'}, so you cannot prescribe there. Answer with a message, or leave the request to a provider licensed there.`,
    );
  if (input.outcome === 'new_prescription') {
    const day = today(ctx);
    const validity =
      input.prescription.valid_until <= day
        ? 'Choose a date after today.'
        : input.prescription.valid_until > addDays(day, MAX_PRESCRIPTION_DAYS)
          ? 'A prescription is valid for at most a year.'
          : null;
    if (validity)
      throw new AppError('VALIDATION', validity, { 'prescription.valid_until': validity });
  }
  await ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    const decided = await q.decideRequest(trx, row.id, {
      status: statusOf[input.outcome],
      outcome: input.outcome,
      staffId: staff.staff.id,
      refillDate: input.outcome === 'refill_date' ? input.date : null,
      now: ctx.clock.now().toISOString(),
    });
    if (!decided) throw decidedAlready();
    if (input.outcome === 'refill_date')
      await bringRefillForward(tx, row.subscriptionId, input.date);
    if (input.outcome === 'new_prescription')
      await prescribeAnew(tx, staff, row, prescription, input.prescription);
    await writeDecisionInThread(tx, staff, row.threadId, input.message, ip);
    await auditAs(tx, staff.staff.id, {
      action: `request_${input.outcome}`,
      subjectType: 'treatment_request',
      subjectId: String(row.id),
      customerId: row.customerId,
      ip,
    });
  });
  sendQueuedSoon(ctx);
  if (input.outcome === 'new_prescription') sendToPharmacySoon(ctx);
  const fresh = await q.selectRequest(ctx.db, row.id);
  const decided = fresh && (await toProviderRequest(ctx, fresh));
  if (!decided) throw missing();
  return decided;
}

const outcomeNames = {
  refill_date: 'a date for the next refill',
  new_prescription: 'a new prescription',
  decline: 'a decline',
  answer: 'a message',
} as const;

/**
 * A dose change (or a change after a side effect): the new prescription, on the chart of the visit
 * that began the care, and the refill plan continued under it as a renewal continues it — the same
 * plan, price and dates, its next fill the new prescription's first (decision 023).
 */
async function prescribeAnew(
  tx: AppContext,
  staff: StaffSession,
  row: q.RequestRow,
  asked: NonNullable<Awaited<ReturnType<typeof prescriptionById>>>,
  prescription: Extract<DecideRequest, { outcome: 'new_prescription' }>['prescription'],
): Promise<void> {
  const plan = await subscriptionById(tx, row.subscriptionId);
  if (!plan?.refill || plan.status === 'CANCELLED')
    throw new AppError(
      'SUBSCRIPTION_REFUSED',
      'The patient cancelled this refill plan, so a new prescription would not be filled. Write to them instead.',
    );
  const prescriptionId = await recordPrescription(tx, {
    visitId: asked.visitId,
    customerId: row.customerId,
    providerId: staff.staff.id,
    drug: prescription.drug,
    dosage: prescription.dosage,
    quantity: prescription.quantity,
    refills: prescription.refills,
    validUntil: prescription.valid_until,
    directions: prescription.directions,
    requestId: row.id,
  });
  const continued = await continueRefillPlan(tx, {
    customerId: row.customerId,
    fromPrescriptionId: plan.refill.prescriptionId,
    toPrescriptionId: prescriptionId,
    fills: prescription.refills + 1,
    validUntil: prescription.valid_until,
    name: medicineName(asked.category, prescription.drug, prescription.dosage),
    image: programs[asked.category].illustration,
    category: asked.category,
    unitPriceCents: plan.unitPriceCents,
    orderId: 0,
  });
  if (!continued)
    throw new AppError(
      'SUBSCRIPTION_REFUSED',
      'This refill plan just ended, so a new prescription would not be filled. Write to the patient instead.',
    );
  await q.setNewPrescription(tx.db, row.id, prescriptionId);
}
