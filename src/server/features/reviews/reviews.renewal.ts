// A provider's side of a renewal (issue 29, decision 023): the chart compares the renewal's
// answers with the last visit's and lists the patient's prescriptions and fills; an approval
// writes the new prescription and continues the same refill plan (no charge now: the plan bills
// each fill on its dates); a decline ends the plan after the supply already paid for.
import type { AppContext } from '#server/context.ts';
import { sessionUser } from '#server/features/auth/auth.service.ts';
import { writeDecisionNote } from '#server/features/messages/messages.service.ts';
import { selectFills, selectVisitOrder } from '#server/features/orders/orders.visit.queries.ts';
import { queueEmail, sendQueuedSoon } from '#server/features/outbox/outbox.service.ts';
import { sendToPharmacySoon } from '#server/features/pharmacy/pharmacy.service.ts';
import type { StaffSession } from '#server/features/staff/staff.service.ts';
import {
  continueRefillPlan,
  endRefillPlan,
  refillPlansOf,
} from '#server/features/subscriptions/subscriptions.service.ts';
import {
  chartBase,
  decideVisit,
  prescriptionById,
  questionnaireFor,
  recordPrescription,
  visitAnswersOf,
} from '#server/features/visits/visits.review.ts';
import { chartPrescription, prescriptionsOf } from '#server/features/visits/visits.renewal.ts';
import { chartScalpPhotos } from '#server/features/visits/visits.scalp-photos.ts';
import { emailHtml, emailSignature } from '#server/lib/email-layout.ts';
import { AppError } from '#server/lib/errors.ts';
import { faultPoint } from '#server/lib/faults.ts';
import { absoluteLink } from '#server/lib/links.ts';
import { usDateFromIso } from '#shared/dates.ts';
import { paths } from '#shared/paths.ts';
import { effectiveAnswers, visibleItems } from '#shared/questionnaires/engine.ts';
import type { AnswerValue, Answers, Questionnaire } from '#shared/questionnaires/format.ts';
import type { RenewalChart } from '#shared/reviews.ts';
import { medicineName, programs } from '#shared/visits.ts';

type ChartBase = NonNullable<Awaited<ReturnType<typeof chartBase>>>;

/** What the provider prescribes (as for a first visit). */
export interface RenewedPrescription {
  drug: string;
  dosage: string;
  quantity: number;
  refills: number;
  valid_until: string;
  directions: string;
}

/**
 * The renewal's part of the chart: each answer beside the last visit's answer to the same
 * question, the prescription it renews and the others of the program, the plan's fills, and a
 * Hair renewal's scalp photos.
 */
export async function renewalChart(
  ctx: AppContext,
  base: ChartBase,
  questionnaire: Questionnaire,
  answers: Answers,
  answerText: (item: Questionnaire['items'][number], value: AnswerValue) => string,
): Promise<RenewalChart | null> {
  if (base.kind !== 'renewal' || base.renews_prescription_id === null) return null;
  const renewed = await prescriptionById(ctx, base.renews_prescription_id);
  if (!renewed) return null;
  const previousBase = await chartBase(ctx, renewed.visitId);
  const previousQuestionnaire =
    previousBase &&
    questionnaireFor(previousBase.questionnaire_id, previousBase.questionnaire_version);
  const previousAnswers = previousQuestionnaire
    ? effectiveAnswers(previousQuestionnaire, await visitAnswersOf(ctx, renewed.visitId))
    : {};
  const previousItems = new Map(
    previousQuestionnaire
      ? visibleItems(previousQuestionnaire, previousAnswers).map((item) => [item.linkId, item])
      : [],
  );
  const comparison = visibleItems(questionnaire, answers)
    .filter((item) => item.type !== 'display' && answers[item.linkId] !== undefined)
    .map((item) => {
      const answer = answerText(item, answers[item.linkId] as AnswerValue);
      const before = previousItems.get(item.linkId);
      const value = previousAnswers[item.linkId];
      const previous = before && value !== undefined ? answerText(before, value) : null;
      return {
        linkId: item.linkId,
        question: item.text,
        answer,
        previous,
        changed: previous !== null && previous !== answer,
      };
    });
  const program = (await prescriptionsOf(ctx, base.customer_id)).filter(
    (p) => p.category === base.category,
  );
  const plans = await refillPlansOf(
    ctx,
    program.map((p) => p.id),
  );
  const visitOrders: number[] = [];
  for (const p of program) {
    const visit = await chartBase(ctx, p.visitId);
    if (visit?.order_id) visitOrders.push(visit.order_id);
  }
  const fills = await selectFills(ctx.db, base.customer_id, {
    orderIds: visitOrders,
    subscriptionIds: [...plans.values()].map((plan) => plan.subscriptionId),
  });
  return {
    renews: chartPrescription(renewed),
    previous_visit: {
      visit_id: renewed.visitId,
      submitted_at: previousBase?.submitted_at ?? null,
    },
    comparison,
    prescriptions: program.map(chartPrescription),
    fills: fills.map((f) => ({
      order_number: f.orderNumber,
      placed_at: f.placedAt,
      status: f.status,
    })),
    scalp_photos: await chartScalpPhotos(ctx, base),
  };
}

/**
 * Approves a renewal, in one transaction: the visit is decided and audited, the new prescription
 * written, the refill plan continued under it (`continueRefillPlan`: the same plan, so each period
 * is still charged once, and the pharmacy gets the new prescription with its first fill), and the
 * patient told in Messages and by an e-mail that names nothing. Nothing is charged now. A second
 * approval finds the visit decided.
 */
export async function approveRenewal(
  ctx: AppContext,
  staff: StaffSession,
  base: ChartBase,
  prescription: RenewedPrescription,
  audit: (tx: AppContext, action: 'approve' | 'decline') => Promise<void>,
): Promise<void> {
  const renewed =
    base.renews_prescription_id === null
      ? undefined
      : await prescriptionById(ctx, base.renews_prescription_id);
  if (!renewed) throw new AppError('VISIT_DECIDED', 'This renewal has nothing left to renew.');
  const plan = (await refillPlansOf(ctx, [renewed.id])).get(renewed.id);
  const firstVisit = await chartBase(ctx, renewed.visitId);
  const firstOrder = firstVisit?.order_id
    ? await selectVisitOrder(ctx.db, firstVisit.order_id)
    : undefined;
  const user = await sessionUser(ctx, base.customer_id);
  const medicine = medicineName(base.category, prescription.drug, prescription.dosage);
  const approved = await ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    if (!(await decideVisit(tx, base.id, 'APPROVED', null))) return false;
    await audit(tx, 'approve');
    const prescriptionId = await recordPrescription(tx, {
      visitId: base.id,
      customerId: base.customer_id,
      providerId: staff.staff.id,
      drug: prescription.drug,
      dosage: prescription.dosage,
      quantity: prescription.quantity,
      refills: prescription.refills,
      validUntil: prescription.valid_until,
      directions: prescription.directions,
    });
    const continued = await continueRefillPlan(tx, {
      customerId: base.customer_id,
      fromPrescriptionId: renewed.id,
      toPrescriptionId: prescriptionId,
      // A renewal has no order of its own: the plan bills its first fill as well as its refills.
      fills: prescription.refills + 1,
      validUntil: prescription.valid_until,
      name: medicine,
      image: programs[base.category].illustration,
      category: base.category,
      unitPriceCents: plan?.unitPriceCents ?? firstOrder?.totalCents ?? 0,
      orderId: firstOrder?.id ?? 0,
    });
    await writeDecisionNote(
      tx,
      staff.staff.id,
      { id: base.id, customerId: base.customer_id },
      continued
        ? `Your prescription is renewed: ${medicine}, valid until ${usDateFromIso(prescription.valid_until)}. Your refills continue on the same plan and at the same price, on their usual dates; you can change or cancel them on the Subscriptions page.`
        : `Your prescription is renewed: ${medicine}, valid until ${usDateFromIso(prescription.valid_until)}. Your refills were cancelled, so nothing will be sent or charged; write to us here if you would like them to start again.`,
    );
    await sendRenewed(tx, user);
    return true;
  });
  if (!approved) throw new AppError('VISIT_DECIDED', 'This visit has already been decided.');
  // Named apart from billing's `renewal:after-commit` (a plan's period charged).
  faultPoint(ctx.env, 'renewal-approval:after-commit');
  sendQueuedSoon(ctx);
  sendToPharmacySoon(ctx);
}

/**
 * A declined renewal, in the decline's transaction: the refill plan of the prescription it would
 * have renewed ends (nothing charged after; a period already paid for still ships).
 */
export async function endRenewedPlan(tx: AppContext, base: ChartBase): Promise<void> {
  if (base.kind !== 'renewal' || base.renews_prescription_id === null) return;
  await endRefillPlan(
    tx,
    base.renews_prescription_id,
    'Your provider did not renew this prescription.',
  );
}

/**
 * The approval's notice: no medicine, program, dose or "prescription" in it (docs/emails.md); what
 * was renewed, and the provider's words, are in Messages.
 */
async function sendRenewed(
  tx: AppContext,
  user: { first_name: string; email: string },
): Promise<void> {
  const link = absoluteLink(tx.env, paths.messages);
  const lines = [
    `Hello ${user.first_name},`,
    'Good news: your provider has approved your check-in. Your refills continue on the same plan and at the same price, on their usual dates. Nothing has been charged today.',
    'Sign in to read the details in Messages.',
  ];
  await queueEmail(tx, {
    to: user.email,
    subject: 'Your provider has replied',
    text: [...lines, '', `Read their message: ${link}`, '', ...emailSignature].join('\n'),
    html: emailHtml(
      lines,
      { href: link, label: 'Read their message' },
      'For your privacy, we never put health details in email.',
    ),
  });
}
