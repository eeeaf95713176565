import type { AppContext } from '#server/context.ts';
import { sessionUser } from '#server/features/auth/auth.service.ts';
import { sendAsCareTeam, visitThread } from '#server/features/messaging/messaging.service.ts';
import { markCaptured, markDeclined, visitOrder } from '#server/features/orders/orders.service.ts';
import type { StaffSession } from '#server/features/staff/staff.service.ts';
import { startRefillPlan } from '#server/features/subscriptions/subscriptions.service.ts';
import {
  chartBase,
  decideVisit,
  questionnaireFor,
  recordPrescription,
  reviewQueue,
  toPreferences,
  visitAnswersOf,
} from '#server/features/visits/visits.service.ts';
import { emailHtml, emailSignature } from '#server/lib/email-layout.ts';
import { AppError, notFound } from '#server/plugins/errors.ts';
import { ageOn, calendarDateOf } from '#shared/dates.ts';
import { effectiveAnswers, riskFlags, visibleItems } from '#shared/questionnaires/engine.ts';
import type { AnswerValue, QuestionnaireItem } from '#shared/questionnaires/format.ts';
import { addDays } from '#shared/subscriptions.ts';
import { programs, treatmentWords, type Chart, type ProgramCategory } from '#shared/telehealth.ts';

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

function answerText(item: QuestionnaireItem, value: AnswerValue): string {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value))
    return value
      .map((code) => item.options?.find((o) => o.code === code)?.display ?? code)
      .join('; ');
  if (typeof value === 'string' && item.options)
    return item.options.find((o) => o.code === value)?.display ?? value;
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
      risk_flags: questionnaire ? riskFlags(questionnaire, answers).length : 0,
      treatment: treatment.drug
        ? [treatment.drug, treatment.dosage].filter(Boolean).join(', ')
        : 'Not chosen',
    });
  }
  return items;
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
  const order = base.order_id ? await visitOrder(ctx, base.order_id) : undefined;
  return {
    visit_id: base.id,
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
    risk_flags: riskFlags(questionnaire, answers),
    preferences: toPreferences(JSON.parse(base.preferences) as Record<string, unknown>),
    photo_upload_id: base.photo_upload_id,
    order: order
      ? {
          order_number: order.orderNumber,
          total_cents: order.totalCents,
          payment_status: order.paymentStatus,
        }
      : null,
  };
}

/** A prescription is valid from tomorrow for at most a year, as most states allow. */
const MAX_PRESCRIPTION_DAYS = 365;

/** The name a refill goes by on orders: the treatment and dose as the patient knows them. */
function refillName(category: ProgramCategory, drug: string, dosage: string): string {
  const words = treatmentWords(category, { drug, dosage });
  return `${words.drug ?? drug} ${words.dosage ?? dosage}`;
}

/**
 * Approves with a prescription: the held amount is charged once, the order moves to fulfilment and,
 * when the prescription has refills, a monthly refill plan starts (see `startRefillPlan`).
 */
export async function approveVisit(
  ctx: AppContext,
  staff: StaffSession,
  visitId: number,
  prescription: {
    drug: string;
    dosage: string;
    quantity: number;
    refills: number;
    valid_until: string;
  },
): Promise<Chart> {
  const current = await chart(ctx, staff, visitId);
  if (current.status !== 'PENDING_REVIEW')
    throw new AppError(409, 'VISIT_DECIDED', 'This visit has already been decided.');
  const today = calendarDay(ctx);
  const validity =
    prescription.valid_until <= today
      ? 'Choose a date after today.'
      : prescription.valid_until > addDays(today, MAX_PRESCRIPTION_DAYS)
        ? 'A prescription is valid for at most a year.'
        : null;
  if (validity)
    throw new AppError(400, 'VALIDATION', validity, { 'prescription.valid_until': validity });
  const order = current.order
    ? await visitOrder(ctx, (await chartBase(ctx, visitId))?.order_id ?? 0)
    : undefined;
  if (!order?.chargeId)
    throw new AppError(409, 'NO_AUTHORIZATION', 'This visit has no payment to charge.');
  const charged = await ctx.payments.capture({ authorizationId: order.chargeId }, ctx.clock.now());
  if (!charged.ok) throw new AppError(402, 'CAPTURE_FAILED', charged.message);
  await markCaptured(ctx, order.id, charged.chargeId);
  if (!(await decideVisit(ctx, visitId, 'APPROVED', null)))
    throw new AppError(409, 'VISIT_DECIDED', 'This visit has already been decided.');
  const prescriptionId = await recordPrescription(ctx, {
    visitId,
    customerId: current.patient.customer_id,
    providerId: staff.staff.id,
    drug: prescription.drug,
    dosage: prescription.dosage,
    quantity: prescription.quantity,
    refills: prescription.refills,
    validUntil: prescription.valid_until,
  });
  await startRefillPlan(ctx, {
    customerId: current.patient.customer_id,
    prescriptionId,
    refills: prescription.refills,
    validUntil: prescription.valid_until,
    name: refillName(current.category, prescription.drug, prescription.dosage),
    image: programs[current.category].illustration,
    category: current.category,
    unitPriceCents: order.totalCents,
    orderId: order.id,
  });
  await sendDecision(ctx, current.patient.customer_id);
  return chart(ctx, staff, visitId);
}

/** Declines with a reason the patient sees; the hold on their card is released. */
export async function declineVisit(
  ctx: AppContext,
  staff: StaffSession,
  visitId: number,
  reason: string,
): Promise<Chart> {
  const current = await chart(ctx, staff, visitId);
  if (current.status !== 'PENDING_REVIEW')
    throw new AppError(409, 'VISIT_DECIDED', 'This visit has already been decided.');
  const orderId = (await chartBase(ctx, visitId))?.order_id;
  const order = orderId ? await visitOrder(ctx, orderId) : undefined;
  if (order?.chargeId)
    await ctx.payments.release({ authorizationId: order.chargeId }, ctx.clock.now());
  if (order) await markDeclined(ctx, order.id, reason);
  if (!(await decideVisit(ctx, visitId, 'DECLINED', reason)))
    throw new AppError(409, 'VISIT_DECIDED', 'This visit has already been decided.');
  await sendDecision(ctx, current.patient.customer_id);
  return chart(ctx, staff, visitId);
}

/** No diagnosis or medicine in the e-mail: only that the provider has replied. */
async function sendDecision(ctx: AppContext, customerId: number): Promise<void> {
  const user = await sessionUser(ctx, customerId);
  const lines = [
    `Hello ${user.first_name},`,
    'Your provider has reviewed your online visit. Log in to your account to read their reply on the Orders page.',
  ];
  await ctx.mailer.send({
    to: user.email,
    subject: 'Your provider has replied',
    text: [...lines, '', ...emailSignature].join('\n'),
    html: emailHtml(lines, null, 'For your privacy, we never put health details in e-mail.'),
  });
}

/** The visit's conversation, for a provider who may open the chart. */
export async function visitMessages(ctx: AppContext, staff: StaffSession, visitId: number) {
  const current = await chart(ctx, staff, visitId);
  return {
    thread: await visitThread(ctx, visitId, current.patient.customer_id),
    customerId: current.patient.customer_id,
  };
}

/** The provider writes to the patient about the visit. */
export async function replyToPatient(
  ctx: AppContext,
  staff: StaffSession,
  visitId: number,
  body: string,
) {
  const current = await chart(ctx, staff, visitId);
  const message = await sendAsCareTeam(
    ctx,
    staff.staff.id,
    { id: visitId, customerId: current.patient.customer_id },
    body,
  );
  return { message, customerId: current.patient.customer_id };
}

/** Spec §7 `/risk/assessment/`: the flags the answers raise, for the provider reviewing the visit. */
export async function riskAssessment(ctx: AppContext, staff: StaffSession, visitId: number) {
  const current = await chart(ctx, staff, visitId);
  return { flags: current.risk_flags, customerId: current.patient.customer_id };
}
