import crypto from 'node:crypto';
import type { AppContext } from '#server/context.ts';
import { cardOnFileToken } from '#server/features/accounts/accounts.service.ts';
import { sessionUser } from '#server/features/auth/auth.service.ts';
import { closeRejectionsOf, openRejections } from '#server/features/pharmacy/pharmacy.service.ts';
import {
  activePrescriptions,
  careTeamWroteAbout,
  sendAsCareTeam,
  visitThread,
  writeDecisionNote,
} from '#server/features/messages/messages.service.ts';
import {
  markCaptured,
  markDeclined,
  selectVisitOrder,
} from '#server/features/orders/orders.visit.queries.ts';
import {
  auditAs,
  auditEntriesOf,
  prescriberOf,
  staffName,
  type StaffSession,
} from '#server/features/staff/staff.service.ts';
import { queueEmail, sendQueuedSoon } from '#server/features/outbox/outbox.service.ts';
import { queueNewRx, sendToPharmacySoon } from '#server/features/pharmacy/pharmacy.service.ts';
import { startRefillPlan } from '#server/features/subscriptions/subscriptions.service.ts';
import {
  capture,
  charge,
  gatewayRecord,
  outcomeOf,
  refundOrphanCharge,
  release,
  settleCall,
  type GatewayCall,
  type LedgerRow,
} from '#server/features/payments/payments.service.ts';
import type { Finishers } from '#server/features/payments/payments.jobs.ts';
import { releaseHold } from '#server/features/visits/visits.holds.ts';
import { publicIdOf } from '#server/features/visits/visits.photo-id.ts';
import { toPreferences } from '#server/features/visits/visits.preferences.ts';
import {
  chartBase,
  decideVisit,
  questionnaireFor,
  recordPrescription,
  reviewQueue,
  visitAnswersOf,
  visitPrescription,
} from '#server/features/visits/visits.review.ts';
import { emailHtml, emailSignature } from '#server/lib/email-layout.ts';
import { faultPoint } from '#server/lib/faults.ts';
import { absoluteLink } from '#server/lib/links.ts';
import { AppError, notFound } from '#server/lib/errors.ts';
import { ageOn, calendarDateOf, usDateFromIso } from '#shared/dates.ts';
import { formatCents } from '#shared/money.ts';
import {
  effectiveAnswers,
  firstDisqualification,
  riskFlags,
  visibleItems,
} from '#shared/questionnaires/engine.ts';
import type {
  Answers,
  AnswerValue,
  Questionnaire,
  QuestionnaireItem,
} from '#shared/questionnaires/format.ts';
import { paths } from '#shared/paths.ts';
import { addDays } from '#shared/subscriptions.ts';
import { stateName } from '#shared/us-states.ts';
import type { Chart, ChartDecision, PharmacyRejectionTask } from '#shared/reviews.ts';
import { medicineName, programs, treatmentWords } from '#shared/visits.ts';
import { approveRenewal, endRenewedPlan, renewalChart } from './reviews.renewal.ts';

/**
 * The provider's side of a visit: a queue of visits waiting in the states they are licensed in
 * (oldest first), the chart (every view audited by the caller), and the decision. Approval charges
 * the held amount once; a decline releases it, so nothing is charged.
 */

function calendarDay(ctx: AppContext): string {
  return ctx.clock.now().toISOString().slice(0, 10);
}

function age(dobIso: string, now: Date): number {
  const [year, month, day] = dobIso.split('-').map(Number);
  return ageOn({ year: year ?? 1970, month: month ?? 1, day: day ?? 1 }, calendarDateOf(now));
}

/**
 * The visit's risk flags for the provider, the answer that closed it first (issue 29): a nitrate
 * or another knock-out is the first thing a provider reads on a review the patient asked for, as
 * a high risk with the question and the answer, not a note beside the decision.
 */
function visitRiskFlags(questionnaire: Questionnaire, answers: Answers): Chart['risk_flags'] {
  const flags = riskFlags(questionnaire, answers);
  const closed = firstDisqualification(questionnaire, answers);
  const effective = effectiveAnswers(questionnaire, answers);
  const item =
    closed &&
    visibleItems(questionnaire, effective).find((entry) => entry.linkId === closed.linkId);
  const value = item ? effective[item.linkId] : undefined;
  if (!closed || !item || value === undefined) return flags;
  return [
    {
      code: 'closed_visit',
      severity: 'high',
      text: `Closed the visit. ${item.text} ${answerText(item, value)}`,
      linkId: closed.linkId,
    },
    ...flags,
  ];
}

function answerText(item: QuestionnaireItem, value: AnswerValue): string {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value))
    return value
      .map((code) => item.options?.find((o) => o.code === code)?.display ?? code)
      .join('; ');
  if (typeof value === 'string' && item.options)
    return item.options.find((o) => o.code === value)?.display ?? value;
  // Dates read as the provider writes them: MM/DD/YYYY.
  if (item.type === 'date' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value))
    return usDateFromIso(value);
  return `${value}${item.unit ? ` ${item.unit}` : ''}`;
}

export async function providerQueue(ctx: AppContext, staff: StaffSession) {
  const rows = await reviewQueue(ctx, staff.staff.licensed_states);
  const now = ctx.clock.now();
  const items = [];
  for (const row of rows) {
    const chart = await chartBase(ctx, row.visitId);
    const questionnaire =
      chart && questionnaireFor(chart.questionnaire_id, chart.questionnaire_version);
    const answers = questionnaire ? await visitAnswersOf(ctx, row.visitId) : {};
    const preferences = toPreferences(
      chart ? (JSON.parse(chart.preferences) as Record<string, unknown>) : {},
    );
    const treatment = treatmentWords(row.category, preferences);
    items.push({
      visit_id: row.visitId,
      patient: `${row.firstName} ${row.lastName.slice(0, 1)}.`,
      age: age(row.dob, now),
      state: row.state,
      category: row.category,
      submitted_at: row.submittedAt,
      review_requested: row.reviewRequested,
      risk_flags: questionnaire ? visitRiskFlags(questionnaire, answers).length : 0,
      treatment:
        row.kind === 'renewal'
          ? 'Renewal'
          : treatment.drug
            ? [treatment.drug, treatment.dosage].filter(Boolean).join(', ')
            : 'Not chosen',
      kind: row.kind === 'renewal' ? ('renewal' as const) : ('visit' as const),
    });
  }
  return items;
}

/**
 * The fills the pharmacy rejected in the provider's states, oldest first (issue 29): each a task
 * until a provider writes to the patient about it in the visit's conversation.
 */
export async function pharmacyRejectionTasks(
  ctx: AppContext,
  staff: StaffSession,
): Promise<PharmacyRejectionTask[]> {
  const tasks: PharmacyRejectionTask[] = [];
  for (const rejection of await openRejections(ctx)) {
    const base = await chartBase(ctx, rejection.visitId);
    if (!base?.state || !staff.staff.licensed_states.includes(base.state)) continue;
    tasks.push({
      visit_id: rejection.visitId,
      order_number: rejection.orderNumber,
      patient: `${base.first_name} ${base.last_name.slice(0, 1)}.`,
      state: base.state,
      category: base.category,
      reason: rejection.reason,
      rejected_at: rejection.rejectedAt,
    });
  }
  return tasks;
}

/** The chart, for a provider licensed in the patient's state; anyone else finds nothing. */
export async function chart(ctx: AppContext, staff: StaffSession, visitId: number): Promise<Chart> {
  const base = await chartBase(ctx, visitId);
  if (
    !base ||
    !base.state ||
    !staff.staff.licensed_states.includes(base.state) ||
    base.status === 'IN_PROGRESS'
  ) {
    throw notFound('We could not find that visit.');
  }
  const questionnaire = questionnaireFor(base.questionnaire_id, base.questionnaire_version);
  if (!questionnaire)
    throw new Error(
      `Questionnaire ${base.questionnaire_id} ${base.questionnaire_version} is missing`,
    );
  const answers = effectiveAnswers(questionnaire, await visitAnswersOf(ctx, visitId));
  const order = base.order_id ? await selectVisitOrder(ctx.db, base.order_id) : undefined;
  return {
    visit_id: base.id,
    kind: base.kind === 'renewal' ? 'renewal' : 'visit',
    status: base.status,
    category: base.category,
    patient: {
      name: `${base.first_name} ${base.last_name}`,
      dob: base.dob ?? '',
      age: age(base.dob ?? '1970-01-01', ctx.clock.now()),
      state: base.state,
      customer_id: base.customer_id,
    },
    questionnaire: { id: questionnaire.id, version: questionnaire.version },
    answers: visibleItems(questionnaire, answers)
      .filter((item) => item.type !== 'display' && answers[item.linkId] !== undefined)
      .map((item) => ({
        linkId: item.linkId,
        question: item.text,
        answer: answerText(item, answers[item.linkId] as AnswerValue),
      })),
    risk_flags: visitRiskFlags(questionnaire, answers),
    preferences: toPreferences(JSON.parse(base.preferences) as Record<string, unknown>),
    photo_uploaded: base.photo_upload_id !== null,
    review_requested: base.review_requested_at !== null,
    photo_upload_key:
      base.photo_upload_id !== null && base.status === 'PENDING_REVIEW'
        ? await publicIdOf(ctx, base.photo_upload_id)
        : null,
    order: order
      ? {
          order_number: order.orderNumber,
          total_cents: order.totalCents,
          payment_status: order.paymentStatus,
        }
      : null,
    decision:
      base.status === 'APPROVED' || base.status === 'DECLINED'
        ? await decisionOf(ctx, { ...base, status: base.status })
        : null,
    renewal: await renewalChart(ctx, base, questionnaire, answers, answerText),
    pharmacy_rejections: (await openRejections(ctx, base.id)).map((rejection) => ({
      order_number: rejection.orderNumber,
      reason: rejection.reason,
      rejected_at: rejection.rejectedAt,
    })),
  };
}

type ChartBase = NonNullable<Awaited<ReturnType<typeof chartBase>>>;

/**
 * The decision as the chart keeps it. Who and when come from the audit entry written in the
 * decision's transaction; a decision finished by the payment reconciler after a crash is still
 * written as its provider's, and only a decision from before the audit log would fall back to the
 * visit's own provider and its last change.
 */
async function decisionOf(
  ctx: AppContext,
  base: ChartBase & { status: 'APPROVED' | 'DECLINED' },
): Promise<ChartDecision> {
  const action = base.status === 'APPROVED' ? 'approve' : 'decline';
  const [entry] = await auditEntriesOf(ctx, {
    type: 'visit',
    id: String(base.id),
    actions: [action],
  });
  const decidedAt = entry?.at ?? base.updated_at;
  const provider =
    entry?.name ??
    (base.provider_id !== null ? await staffName(ctx, base.provider_id) : undefined) ??
    'Unknown provider';
  const photo = base.photo_upload_id !== null ? await publicIdOf(ctx, base.photo_upload_id) : null;
  const views = photo
    ? await auditEntriesOf(ctx, { type: 'upload', id: photo, actions: ['view'] })
    : [];
  const viewed = views.find((view) => view.at <= decidedAt);
  const prescription = base.status === 'APPROVED' ? await visitPrescription(ctx, base.id) : null;
  return {
    outcome: base.status === 'APPROVED' ? 'approved' : 'declined',
    provider,
    decided_at: decidedAt,
    photo_id_viewed_at: viewed?.at ?? null,
    prescription: prescription
      ? {
          drug: prescription.drug,
          dosage: prescription.dosage,
          medicine: medicineName(base.category, prescription.drug, prescription.dosage),
          quantity: prescription.quantity,
          refills: prescription.refills,
          directions: prescription.directions,
          valid_until: prescription.valid_until,
        }
      : null,
    reason: base.status === 'DECLINED' ? base.closed_reason : null,
  };
}

/**
 * Issue 29: a provider whose licence in the patient's state has expired prescribes nothing there,
 * and is told why (not just that the visit is gone): their session counts only licences valid
 * today, so the chart would otherwise answer as not found.
 */
async function refuseExpiredLicence(
  ctx: AppContext,
  staff: StaffSession,
  visitId: number,
): Promise<void> {
  const base = await chartBase(ctx, visitId);
  if (!base?.state || staff.staff.licensed_states.includes(base.state)) return;
  const licence = (await prescriberOf(ctx, staff.staff.id, base.state))?.licence;
  if (!licence || licence.expiresOn >= calendarDay(ctx)) return;
  throw new AppError(
    'LICENCE_EXPIRED',
    `Your ${stateName(base.state)} licence (${licence.number}) expired on ${usDateFromIso(licence.expiresOn)}, so you cannot prescribe there. Ask operations to record your renewed licence; until then another provider licensed in ${stateName(base.state)} will review this visit.`,
  );
}

/** A prescription is valid from tomorrow for at most a year, as most states allow. */
const MAX_PRESCRIPTION_DAYS = 365;

/**
 * Approves with a prescription: the held amount is charged once, the order moves to fulfilment and,
 * when the prescription has refills, a monthly refill plan starts (see `startRefillPlan`). `ip` is
 * the provider's, for the audit entry written with the approval.
 */
export async function approveVisit(
  ctx: AppContext,
  staff: StaffSession,
  visitId: number,
  prescription: Prescription,
  ip: string,
): Promise<Chart> {
  await refuseExpiredLicence(ctx, staff, visitId);
  const current = await chart(ctx, staff, visitId);
  if (current.status !== 'PENDING_REVIEW')
    throw new AppError('VISIT_DECIDED', 'This visit has already been decided.');
  const base = await chartBase(ctx, visitId);
  // A first visit the patient sent after a knock-out answer holds nothing to charge; a renewal
  // holds nothing either way (its refill plan bills the fills: decision 023), so one sent after a
  // knock-out answer is the provider's to approve too.
  if (current.review_requested && base?.kind !== 'renewal')
    throw new AppError(
      'NO_AUTHORIZATION',
      'The patient asked for this review after a knock-out answer, so nothing is held on their card and it cannot be approved here. Write to them in Messages, or decline it with a reason they will read.',
    );
  const today = calendarDay(ctx);
  const validity =
    prescription.valid_until <= today
      ? 'Choose a date after today.'
      : prescription.valid_until > addDays(today, MAX_PRESCRIPTION_DAYS)
        ? 'A prescription is valid for at most a year.'
        : null;
  if (validity)
    throw new AppError('VALIDATION', validity, { 'prescription.valid_until': validity });
  if (base?.kind === 'renewal') {
    await approveRenewal(ctx, staff, base, prescription, (tx, action) =>
      auditDecision(
        tx,
        action,
        { staffId: staff.staff.id, staffIp: ip, visitId },
        base.customer_id,
      ),
    );
    return chart(ctx, staff, visitId);
  }
  const order = current.order
    ? await selectVisitOrder(ctx.db, (await chartBase(ctx, visitId))?.order_id ?? 0)
    : undefined;
  if (!order?.chargeId)
    throw new AppError('NO_AUTHORIZATION', 'This visit has no payment to charge.');
  // Nothing is charged or prescribed for an order that would ship out of the visit's state (one
  // placed before checkout checked it): the prescription is valid only where the patient was seen.
  if (order.shipState !== current.patient.state)
    throw new AppError(
      'SHIP_STATE_MISMATCH',
      `This order ships to ${stateName(order.shipState)}, but the visit is for ${stateName(current.patient.state)}: a prescription can ship only there. Decline the visit, or ask the patient for an address in ${stateName(current.patient.state)}.`,
    );
  const call: GatewayCall = {
    purpose: 'approval',
    idempotencyKey: `capture:${order.id}`,
    amountCents: order.totalCents,
    orderId: order.id,
    visitId,
    sourceRef: order.chargeId,
    staffId: staff.staff.id,
    staffIp: ip,
    // What the reconciler needs to finish the approval as the provider made it after a crash.
    details: { prescription } satisfies ApprovalDetails,
  };
  const charged = await capture(ctx, call);
  if (!charged.ok) {
    await settleCall(ctx, call.idempotencyKey, outcomeOf(charged));
    if (charged.code !== 'capture_failed') throw new AppError('CAPTURE_FAILED', charged.message);
    // The hold lapsed (its renewal failed, or came too late): the card on file is charged instead.
    await approveWithCardOnFile(ctx, call, order);
  } else if (!(await completeApproval(ctx, call, charged.chargeId))) {
    throw new AppError('VISIT_DECIDED', 'This visit has already been decided.');
  }
  return chart(ctx, staff, visitId);
}

/**
 * An approval whose hold is gone: the lapsed hold is released (so the order says so), and the
 * amount the patient agreed to at checkout is charged to their card on file, as a payment made
 * while they are away. A card that refuses it leaves the visit waiting: the provider is told why,
 * and the patient, once per card, to update it; approving again charges the new card. The key
 * names the card, so a new card is a new charge and the same card is asked once.
 */
async function approveWithCardOnFile(
  ctx: AppContext,
  capture: GatewayCall,
  order: { id: number; customerId: number; totalCents: number; chargeId: string | null },
): Promise<void> {
  if (order.chargeId) await releaseHold(ctx, order.id, order.chargeId, order.totalCents);
  const token = await cardOnFileToken(ctx, order.customerId);
  if (!token)
    throw new AppError(
      'CAPTURE_FAILED',
      "The hold on the patient's card has lapsed and they have no card on file. Ask them in Messages to add one, then approve again.",
    );
  const cardKey = crypto.createHash('sha256').update(token).digest('hex').slice(0, 16);
  const call: GatewayCall = {
    ...capture,
    purpose: 'approval_charge',
    idempotencyKey: `approval-charge:${order.id}:${cardKey}`,
    sourceRef: null,
  };
  const charged = await charge(ctx, call, token);
  if (!charged.ok) {
    const user = await sessionUser(ctx, order.customerId);
    const asked = await ctx.db.transaction().execute(async (trx) => {
      const tx = { ...ctx, db: trx };
      const settled = await settleCall(tx, call.idempotencyKey, outcomeOf(charged));
      if (settled) await sendCardRefused(tx, user);
      return settled;
    });
    if (asked) sendQueuedSoon(ctx);
    throw new AppError(
      'CAPTURE_FAILED',
      `The hold on the patient's card had lapsed, and their card on file was refused: ${charged.message} They have been asked to update their card; approve again once they have.`,
    );
  }
  if (!(await completeApproval(ctx, call, charged.chargeId)))
    throw new AppError('VISIT_DECIDED', 'This visit has already been decided.');
}

/**
 * No program, medicine or decision in it: the visit cannot be completed until the card is updated.
 * The bank's reason stays out of email.
 */
async function sendCardRefused(
  ctx: AppContext,
  user: { first_name: string; email: string },
): Promise<void> {
  const link = absoluteLink(ctx.env, paths.editPaymentMethod);
  const lines = [
    `Hello ${user.first_name},`,
    'Your provider has reviewed your online visit, but we could not charge your card for it: the hold we placed has expired, and your card on file did not accept the payment.',
    'Please check your card, or add another, in your account. Your provider will complete your visit once it is updated.',
  ];
  await queueEmail(ctx, {
    to: user.email,
    subject: 'Please update your card to complete your online visit',
    text: [...lines, '', `Update your card: ${link}`, '', ...emailSignature].join('\n'),
    html: emailHtml(
      lines,
      { href: link, label: 'Update your card' },
      'Questions? Write to us any time from your account.',
    ),
  });
}

/** What the provider prescribes: `directions` is the sig the patient reads on their order. */
interface Prescription {
  drug: string;
  dosage: string;
  quantity: number;
  refills: number;
  valid_until: string;
  directions: string;
}

interface ApprovalDetails {
  /** An approval a crash interrupted before directions were asked for has none. */
  prescription: Omit<Prescription, 'directions'> & { directions?: string };
}

/**
 * Makes a captured visit order an approved visit, in one transaction with the ledger's record of the
 * capture: the order moves to fulfilment, the visit is approved, audited and the patient told, the
 * prescription and its refill plan start. The request and the reconciler both finish an approval
 * through here. False when the visit was decided otherwise meanwhile; the captured amount is then
 * refunded, so nobody pays for a visit that was not approved.
 */
async function completeApproval(
  ctx: AppContext,
  call: GatewayCall,
  chargeId: string,
): Promise<boolean> {
  const orderId = call.orderId ?? 0;
  const visitId = call.visitId ?? 0;
  const { prescription } = call.details as ApprovalDetails;
  const base = await chartBase(ctx, visitId);
  const order = await selectVisitOrder(ctx.db, orderId);
  if (!base || !order) return false;
  const user = await sessionUser(ctx, order.customerId);
  const wrote = await careTeamWroteAbout(ctx, { id: visitId, customerId: order.customerId });
  const approved = await ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    await settleCall(tx, call.idempotencyKey, { ok: true, ref: chargeId });
    if (!(await markCaptured(tx.db, orderId, chargeId, tx.clock.now().toISOString()))) return false;
    if (!(await decideVisit(tx, visitId, 'APPROVED', null))) return false;
    await auditDecision(tx, 'approve', call, order.customerId);
    await sendApproved(tx, user, {
      orderNumber: order.orderNumber,
      chargedCents: order.totalCents,
      message: wrote,
    });
    const prescriptionId = await recordPrescription(tx, {
      visitId,
      customerId: order.customerId,
      providerId: call.staffId ?? 0,
      drug: prescription.drug,
      dosage: prescription.dosage,
      quantity: prescription.quantity,
      refills: prescription.refills,
      validUntil: prescription.valid_until,
      directions: prescription.directions ?? null,
    });
    const medicine = medicineName(base.category, prescription.drug, prescription.dosage);
    await startRefillPlan(tx, {
      customerId: order.customerId,
      prescriptionId,
      refills: prescription.refills,
      validUntil: prescription.valid_until,
      name: medicine,
      image: programs[base.category].illustration,
      category: base.category,
      unitPriceCents: order.totalCents,
      orderId,
    });
    // The pharmacy is told in the same transaction: approved and on its way to be filled, or none.
    await queueNewRx(tx, {
      orderId,
      prescriptionId,
      visitId,
      customerId: order.customerId,
      prescriberId: call.staffId ?? 0,
      medication: {
        description: medicine,
        drug: prescription.drug,
        strength: prescription.dosage,
        quantity: prescription.quantity,
        refills: prescription.refills,
        directions: prescription.directions ?? '',
        validUntil: prescription.valid_until,
      },
    });
    return true;
  });
  if (approved) {
    faultPoint(ctx.env, 'approval:after-commit');
    sendQueuedSoon(ctx);
    sendToPharmacySoon(ctx);
    return true;
  }
  const now = await selectVisitOrder(ctx.db, orderId);
  if (now?.chargeId === chargeId && now.paymentStatus !== 'authorized') return true;
  await refundOrphanCharge(ctx, { chargeId, amountCents: order.totalCents, orderId });
  return false;
}

/**
 * For the payment reconciler: finishes an approval a crash interrupted around its capture. The
 * gateway captures an authorisation once, so asking again answers the capture it made (or makes it,
 * as the provider asked); a hold that is gone leaves the visit waiting for review.
 */
/**
 * For the payment reconciler: an approval's charge to the card on file a crash interrupted. The
 * gateway says whether it was made (then the approval completes) or not (then it failed).
 */
async function finishApprovalCharge(ctx: AppContext, row: LedgerRow): Promise<void> {
  const call = callOf(row);
  const record = await gatewayRecord(ctx, { idempotencyKey: row.idempotencyKey });
  if (record?.status === 'succeeded') {
    await completeApproval(ctx, call, record.id);
    return;
  }
  await settleCall(ctx, row.idempotencyKey, {
    ok: false,
    failure: record?.failureMessage ?? 'The charge never reached the gateway.',
  });
}

export async function finishApproval(ctx: AppContext, row: LedgerRow): Promise<void> {
  const call = callOf(row);
  const charged = await capture(ctx, call);
  if (!charged.ok) {
    await settleCall(ctx, call.idempotencyKey, outcomeOf(charged));
    return;
  }
  await completeApproval(ctx, call, charged.chargeId);
}

function callOf(row: LedgerRow): GatewayCall {
  return {
    purpose: row.purpose,
    idempotencyKey: row.idempotencyKey,
    amountCents: row.amountCents,
    orderId: row.orderId,
    visitId: row.visitId,
    sourceRef: row.sourceRef,
    staffId: row.staffId,
    staffIp: row.staffIp,
    details: row.details === null ? undefined : (JSON.parse(row.details) as unknown),
  };
}

/**
 * Declines with a reason the patient sees; the hold on their card is released. `ip` is the
 * provider's, for the audit entry written with the decline.
 */
export async function declineVisit(
  ctx: AppContext,
  staff: StaffSession,
  visitId: number,
  reason: string,
  ip: string,
): Promise<Chart> {
  const current = await chart(ctx, staff, visitId);
  if (current.status !== 'PENDING_REVIEW')
    throw new AppError('VISIT_DECIDED', 'This visit has already been decided.');
  const orderId = (await chartBase(ctx, visitId))?.order_id;
  const order = orderId ? await selectVisitOrder(ctx.db, orderId) : undefined;
  const call: GatewayCall = {
    purpose: 'decline',
    idempotencyKey: `decline:${order?.id ?? `visit-${visitId}`}`,
    amountCents: order?.totalCents ?? 0,
    orderId: order?.id ?? null,
    visitId,
    sourceRef: order?.chargeId ?? null,
    staffId: staff.staff.id,
    staffIp: ip,
    details: { reason } satisfies DeclineDetails,
  };
  let released = false;
  if (order?.chargeId) {
    const outcome = await release(ctx, call);
    released = outcome.ok;
    if (!outcome.ok) {
      await settleCall(ctx, call.idempotencyKey, outcome);
      // A hold already taken is an approved visit; one that lapsed or was never made declines.
      if (order.paymentStatus === 'paid')
        throw new AppError('VISIT_DECIDED', 'This visit has already been decided.');
    }
  }
  if (!(await completeDecline(ctx, call, released)))
    throw new AppError('VISIT_DECIDED', 'This visit has already been decided.');
  return chart(ctx, staff, visitId);
}

interface DeclineDetails {
  reason: string;
}

/**
 * Records a decline with the ledger's record of the released hold, in one transaction: the order is
 * declined, the visit decided and audited, and the patient told. False when someone else decided
 * first.
 */
async function completeDecline(
  ctx: AppContext,
  call: GatewayCall,
  released: boolean,
): Promise<boolean> {
  const { reason } = call.details as DeclineDetails;
  const base = await chartBase(ctx, call.visitId ?? 0);
  if (!base) return false;
  const user = await sessionUser(ctx, base.customer_id);
  const order = call.orderId ? await selectVisitOrder(ctx.db, call.orderId) : undefined;
  const declined = await ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    if (released && call.sourceRef)
      await settleCall(tx, call.idempotencyKey, { ok: true, ref: call.sourceRef });
    if (call.orderId !== null && call.orderId !== undefined)
      await markDeclined(tx.db, call.orderId, reason, tx.clock.now().toISOString());
    if (!(await decideVisit(tx, base.id, 'DECLINED', reason))) return false;
    await auditDecision(tx, 'decline', call, base.customer_id);
    // The reason is the provider's word to the patient: it waits in Messages, where they can reply.
    await writeDecisionNote(
      tx,
      call.staffId ?? null,
      { id: base.id, customerId: base.customer_id },
      reason,
    );
    // A renewal declined: its refill plan ends after the supply already paid for.
    await endRenewedPlan(tx, base);
    await sendDeclined(tx, user, order?.orderNumber, base.kind === 'renewal');
    return true;
  });
  if (declined) {
    faultPoint(ctx.env, 'decline:after-commit');
    sendQueuedSoon(ctx);
    if (base.kind === 'renewal') sendToPharmacySoon(ctx);
  }
  return declined;
}

/**
 * The provider's audit entry of a decision, in the decision's transaction: also when the payment
 * reconciler finishes it, from what the ledger kept of the request (as a refund's, orders.operations.ts).
 */
async function auditDecision(
  tx: AppContext,
  action: 'approve' | 'decline',
  call: Pick<GatewayCall, 'staffId' | 'staffIp' | 'visitId'>,
  customerId: number,
): Promise<void> {
  if (call.staffId === null || call.staffId === undefined) return;
  await auditAs(tx, call.staffId, {
    action,
    subjectType: 'visit',
    subjectId: String(call.visitId ?? 0),
    customerId,
    ip: call.staffIp ?? '',
  });
}

/** For the payment reconciler: finishes a decline a crash interrupted around its release. */
export async function finishDecline(ctx: AppContext, row: LedgerRow): Promise<void> {
  const call = callOf(row);
  const released = await release(ctx, call);
  if (!released.ok) {
    await settleCall(ctx, call.idempotencyKey, released);
    return;
  }
  await completeDecline(ctx, call, true);
}

/** What the payment reconciler runs for a provider's decisions (registered at start, app.ts). */
export const reviewsFinishers: Finishers = {
  approval: finishApproval,
  approval_charge: finishApprovalCharge,
  decline: finishDecline,
};

/**
 * The approval's notice, queued in the approval's transaction: approved and told, or neither. No
 * medicine, dose or words of the provider's in it (docs/emails.md): it says the plan is approved
 * and the held amount charged, and links to the order on Orders, where the prescription and its
 * directions are; and to Messages when the provider wrote there too.
 */
async function sendApproved(
  tx: AppContext,
  user: { first_name: string; email: string },
  approval: { orderNumber: string; chargedCents: number; message: boolean },
): Promise<void> {
  const link = absoluteLink(tx.env, paths.order(approval.orderNumber));
  const messagesLink = absoluteLink(tx.env, paths.messages);
  const lines = [
    `Hello ${user.first_name},`,
    `Good news: your provider approved your treatment plan. Sign in to see the details on your order ${approval.orderNumber}, on the Orders page.`,
    `The ${formatCents(approval.chargedCents)} held on your card has now been charged. We will email you again when your order ships.`,
    ...(approval.message
      ? ['Your provider also wrote to you: sign in to read their message in Messages.']
      : []),
  ];
  await queueEmail(tx, {
    to: user.email,
    subject: 'Your provider approved your treatment plan',
    text: [
      ...lines,
      '',
      `See your order: ${link}`,
      ...(approval.message ? [`Read your message: ${messagesLink}`] : []),
      '',
      ...emailSignature,
    ].join('\n'),
    html: emailHtml(
      lines,
      { href: link, label: 'See your order' },
      'For your privacy, we never put health details in email.',
      { more: approval.message ? [{ href: messagesLink, label: 'Read your message' }] : [] },
    ),
  });
}

/**
 * The decline's notice, queued in the decline's transaction. The provider's reason is in Messages
 * (where the patient can reply), so that is where the link goes; never the reason itself.
 */
async function sendDeclined(
  tx: AppContext,
  user: { first_name: string; email: string },
  orderNumber: string | undefined,
  renewal = false,
): Promise<void> {
  const link = absoluteLink(tx.env, paths.messages);
  const orderLink = orderNumber ? absoluteLink(tx.env, paths.order(orderNumber)) : null;
  const lines = [
    `Hello ${user.first_name},`,
    renewal
      ? 'Your provider has reviewed your check-in and decided not to continue your refills right now, so they have stopped: nothing more will be charged, and anything already paid for will still be delivered. For your privacy we do not include their reason here: sign in to read it in Messages, where you can reply with any questions.'
      : 'Your provider has reviewed your online visit and decided that this treatment is not the right fit for you right now. For your privacy we do not include their reason here: sign in to read it in Messages, where you can reply with any questions.',
    // A review the patient asked for after a knock-out answer held nothing on their card.
    ...(orderNumber ? ['The hold on your card has been released: you have not been charged.'] : []),
  ];
  await queueEmail(tx, {
    to: user.email,
    subject: 'Your provider has replied',
    text: [
      ...lines,
      '',
      `Read their reply: ${link}`,
      ...(orderLink ? [`See your order: ${orderLink}`] : []),
      '',
      ...emailSignature,
    ].join('\n'),
    html: emailHtml(
      lines,
      { href: link, label: 'Read their reply' },
      'For your privacy, we never put health details in email.',
      { more: orderLink ? [{ href: orderLink, label: 'See your order' }] : [] },
    ),
  });
}

/** The visit's conversation, for a provider who may open the chart. */
export async function visitMessages(
  ctx: AppContext,
  staff: StaffSession,
  visitId: number,
  cursor?: string,
) {
  const current = await chart(ctx, staff, visitId);
  const customerId = current.patient.customer_id;
  return {
    thread: await visitThread(ctx, visitId, customerId, cursor),
    prescriptions: await activePrescriptions(ctx, customerId),
  };
}

/** The provider writes to the patient about the visit (audited with the message, from `ip`). */
export async function replyToPatient(
  ctx: AppContext,
  staff: StaffSession,
  visitId: number,
  body: string,
  ip: string,
) {
  const current = await chart(ctx, staff, visitId);
  const sent = await sendAsCareTeam(
    ctx,
    { staffId: staff.staff.id, ip },
    { id: visitId, customerId: current.patient.customer_id },
    body,
  );
  // The patient has been written to: a fill the pharmacy rejected is no longer a task.
  if (current.pharmacy_rejections.length > 0) await closeRejectionsOf(ctx, visitId, staff.staff.id);
  return sent;
}

/** Spec §7 `/risk/assessment/`: the flags the answers raise, for the provider reviewing the visit. */
export async function riskAssessment(ctx: AppContext, staff: StaffSession, visitId: number) {
  return (await chart(ctx, staff, visitId)).risk_flags;
}

/**
 * The patient a visit belongs to, for the audit entry of a call whose answer does not name them
 * (its access was checked by the call itself).
 */
export async function patientOfVisit(
  ctx: AppContext,
  visitId: number,
): Promise<number | undefined> {
  return (await chartBase(ctx, visitId))?.customer_id;
}
