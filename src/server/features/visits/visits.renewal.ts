// The visit side of a renewal (issue 29, decision 023): the patient's prescriptions, the renewal
// visit opened at its short questionnaire (the state and date of birth are the renewed visit's),
// the last visit's lasting answers offered again, and the renewal sent to a provider — no order,
// nothing held on the card: the refill plan pays for every fill. Whether a prescription is due,
// and what its refill plan does, are the renewals feature's (above visits and subscriptions).
import type { AppContext } from '#server/context.ts';
import { sessionUser, type ActiveSession } from '#server/features/auth/auth.service.ts';
import { queueEmail, sendQueuedSoon } from '#server/features/outbox/outbox.service.ts';
import { emailHtml, emailSignature } from '#server/lib/email-layout.ts';
import { AppError, notFound } from '#server/lib/errors.ts';
import { absoluteLink } from '#server/lib/links.ts';
import { answerProblem } from '#shared/questionnaires/engine.ts';
import type { Answers, Questionnaire } from '#shared/questionnaires/format.ts';
import {
  latestRenewalQuestionnaire,
  questionnaireVersion,
} from '#shared/questionnaires/registry.ts';
import { paths } from '#shared/paths.ts';
import type { ChartPrescription } from '#shared/reviews.ts';
import { medicineName } from '#shared/visits.ts';
import { recordKnownAnswers } from './visits.known-answers.ts';
import { ownVisit, providerFor, requireCovered, requireOpen } from './visits.program.ts';
import * as q from './visits.queries.ts';

export type { PrescriptionRow } from './visits.queries.ts';

/** A prescription as a provider's chart lists it (the renewal's, a request's). */
export function chartPrescription(p: q.PrescriptionRow): ChartPrescription {
  return {
    medicine: medicineName(p.category, p.drug, p.dosage),
    drug: p.drug,
    dosage: p.dosage,
    quantity: p.quantity,
    refills: p.refills,
    directions: p.directions,
    valid_until: p.validUntil,
    written_on: p.createdAt.slice(0, 10),
  };
}

/** The customer's prescriptions, newest first, with the program and state each was written for. */
export function prescriptionsOf(ctx: AppContext, customerId: number) {
  return q.selectPrescriptionsOf(ctx.db, customerId);
}

/** The renewal visits of these prescriptions, newest first. */
export function renewalVisitsOf(ctx: AppContext, prescriptionIds: number[]) {
  return q.selectRenewalVisitsOf(ctx.db, prescriptionIds);
}

/** For the reminder job: prescriptions not reminded yet, valid until `from` or later. */
export function prescriptionsToRemind(
  ctx: AppContext,
  from: string,
  limit: number,
  afterId: number,
) {
  return q.selectPrescriptionsToRemind(ctx.db, from, limit, afterId);
}

/** Marks a prescription's renewal reminder as sent, once (in the transaction that queues it). */
export function markRenewalReminded(ctx: AppContext, prescriptionId: number): Promise<boolean> {
  return q.markRenewalReminded(ctx.db, prescriptionId, ctx.clock.now().toISOString());
}

/**
 * Opens the renewal of `prescription` on the program's newest renewal questionnaire, or resumes
 * the one in progress. A first visit of the program still in progress comes first: the patient
 * is told to finish (or leave) it.
 */
export async function openRenewalVisit(
  ctx: AppContext,
  session: ActiveSession,
  prescription: q.PrescriptionRow,
): Promise<{ visitId: number; destination: string }> {
  const questionnaire = latestRenewalQuestionnaire(prescription.category);
  await q.insertRenewalVisit(ctx.db, {
    customerId: session.customerId,
    category: prescription.category,
    questionnaireId: questionnaire.id,
    questionnaireVersion: questionnaire.version,
    prescriptionId: prescription.id,
    state: prescription.state,
    dob: prescription.dob,
    now: ctx.clock.now().toISOString(),
  });
  const visit = await q.selectOpenVisit(ctx.db, session.customerId, prescription.category);
  if (!visit) throw new AppError('VISIT_BUSY', 'Your renewal is opening. Please try again.');
  if (visit.kind !== 'renewal' || visit.renewsPrescriptionId !== prescription.id)
    throw new AppError(
      'VISIT_BUSY',
      'You have an online visit for this program in progress. Finish it (or ask us to close it) before you renew your prescription.',
    );
  // A renewal starts at its questions: what it knows (the renewed visit's date of birth) is not asked.
  const answeredOn = questionnaireVersion(visit.questionnaireId, visit.questionnaireVersion);
  if (answeredOn) await recordKnownAnswers(ctx, visit.id, answeredOn, visit.dob);
  return {
    visitId: visit.id,
    destination: paths.visitScreen(visit.category, visit.step === 'consent' ? 'send' : 'questions'),
  };
}

/**
 * The answers the renewal offers again: the renewed visit's answers to the questions marked
 * `prefill` (lasting facts: medicines, allergies), where the answer still fits the question.
 * Nothing for a first visit.
 */
export async function prefillOf(
  ctx: AppContext,
  visit: q.VisitRow,
  questionnaire: Questionnaire,
): Promise<Answers> {
  if (visit.kind !== 'renewal' || visit.renewsPrescriptionId === null) return {};
  const renewed = await q.selectPrescription(ctx.db, visit.renewsPrescriptionId);
  if (!renewed) return {};
  const last = await q.selectAnswers(ctx.db, renewed.visitId);
  const offered: Answers = {};
  for (const item of questionnaire.items) {
    const value = last[item.linkId];
    if (item.prefill && value !== undefined && answerProblem(item, value) === null)
      offered[item.linkId] = value;
  }
  return offered;
}

/** The questionnaire a renewal was answered on (for the provider's comparison). */
export function renewalQuestionnaireOf(visit: q.VisitRow): Questionnaire | undefined {
  return questionnaireVersion(visit.questionnaireId, visit.questionnaireVersion);
}

/**
 * "Send to my provider": every question answered (the renewal is at its last step), the state
 * still covered; the renewal waits for a provider licensed there — its prescriber's colleague or
 * its prescriber, whoever is least busy — and the patient gets one e-mail saying so. Sending again
 * answers the same.
 */
export async function sendRenewal(
  ctx: AppContext,
  session: ActiveSession,
  visitId: number,
): Promise<{ destination: string }> {
  const visit = await ownVisit(ctx, session, visitId);
  if (visit.kind !== 'renewal') throw notFound('We could not find that renewal.');
  const submitted = { destination: paths.visitScreen(visit.category, 'submitted') };
  if (visit.status === 'PENDING_REVIEW') return submitted;
  requireOpen(visit);
  if (visit.step !== 'consent')
    throw new AppError('VISIT_STEP', 'Please answer all the questions first.');
  await requireCovered(ctx, visit.state ?? '');
  const provider = await providerFor(ctx, visit.state ?? '');
  const user = await sessionUser(ctx, visit.customerId);
  const sent = await ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    const now = tx.clock.now().toISOString();
    if (!(await q.markRenewalSubmitted(trx, visit.id, provider?.id ?? null, now))) return false;
    await sendRenewalReceived(tx, user);
    return true;
  });
  if (sent) sendQueuedSoon(ctx);
  return submitted;
}

/** No program, answer, medicine or "prescription" in it (docs/emails.md): answers wait for review, nothing charged. */
async function sendRenewalReceived(
  ctx: AppContext,
  user: { first_name: string; email: string },
): Promise<void> {
  const link = absoluteLink(ctx.env, paths.messages);
  const lines = [
    `Hello ${user.first_name},`,
    'Thank you. We received your answers, and a licensed provider will review them, usually within one business day.',
    'Nothing has been charged for this. If your provider approves, your refills continue on the same plan and at the same price, on their usual dates; you can cancel them any time on the Subscriptions page of your account.',
    'Your provider may write to you in Messages if they have a question.',
  ];
  await queueEmail(ctx, {
    to: user.email,
    subject: 'We received your answers',
    text: [...lines, '', `Open Messages: ${link}`, '', ...emailSignature].join('\n'),
    html: emailHtml(
      lines,
      { href: link, label: 'Open Messages' },
      'Questions? Write to us any time from your account.',
    ),
  });
}
