// Starting a program: the states a visit can come from (offered and with a licensed provider), the
// visit opened or resumed for it, the patient's own visit and whether it can still change (every
// later step starts from these), the visits waiting in the member area, and the programs finished.
import type { AppContext } from '#server/context.ts';
import type { ActiveSession } from '#server/features/auth/auth.service.ts';
import { AppError, notFound } from '#server/lib/errors.ts';
import { dobProblem, usDateFromIso } from '#shared/dates.ts';
import { messages } from '#shared/wording.ts';
import { latestQuestionnaire } from '#shared/questionnaires/registry.ts';
import { programs, type PendingOrder, type ProgramCategory } from '#shared/visits.ts';
import { paths } from '#shared/paths.ts';
import { usStates } from '#shared/us-states.ts';
import { activeProviders } from '#server/features/staff/staff.service.ts';
import { selectLeastBusy } from './visits.queries.ts';
import * as q from './visits.queries.ts';

/** A state the service offers (STATES_ALLOWED) and how many active providers are licensed there. */
export interface StateCoverage {
  state: string;
  providers: number;
}

/**
 * Each state the service offers, in STATES_ALLOWED's order, with its number of active licensed
 * providers. A state is covered only with at least one: a visit from anywhere else would wait for
 * a review nobody can give.
 */
export async function stateCoverage(ctx: AppContext): Promise<StateCoverage[]> {
  const providers = await activeProviders(ctx);
  return ctx.env.STATES_ALLOWED.map((state) => ({
    state,
    providers: providers.filter((p) => p.licensedStates.includes(state)).length,
  }));
}

/** The provider a visit from `state` goes to: licensed there today, the least busy. */
export async function providerFor(ctx: AppContext, state: string) {
  const providers = await activeProviders(ctx);
  return selectLeastBusy(
    ctx.db,
    providers.filter((p) => p.licensedStates.includes(state)),
  );
}

/** Spec §7 `/click/statesallowed/`: the states a patient can be seen from, the covered ones. */
export async function statesAllowed(ctx: AppContext): Promise<string[]> {
  const coverage = await stateCoverage(ctx);
  return coverage.filter((s) => s.providers > 0).map((s) => s.state);
}

/**
 * At submission, before anything is stored or held on the card: the visit's state still has a
 * provider to review it (a licence may have been removed since eligibility). The visit stays open,
 * so the patient can submit it once a provider is licensed there again.
 */
export async function requireCovered(ctx: AppContext, state: string): Promise<void> {
  if ((await statesAllowed(ctx)).includes(state)) return;
  const name = usStates.find(([code]) => code === state)?.[1] ?? state;
  throw new AppError(
    'STATE_NOT_COVERED',
    `We can't send your visit for review right now: none of our providers licensed in ${name} is available at the moment. Nothing has been charged or held on your card.`,
  );
}

/** Whether the state and date of birth a visit was closed for would pass eligibility today. */
export function eligibleNow(visit: q.VisitRow, covered: string[], now: Date): boolean {
  if (!visit.state || !covered.includes(visit.state) || !visit.dob) return false;
  return dobProblem(usDateFromIso(visit.dob), now) === null;
}

/**
 * The screen a visit that cannot go on keeps showing, or null when the program may start afresh:
 * an ineligible visit until its state is covered (and the age fits) — answering a different state
 * or age is not a way round it; a not-a-fit visit, one a provider is reviewing at the patient's
 * request, and one a provider declined after that review, for good (a new attempt goes through
 * the provider, not a fresh questionnaire).
 */
export function closedScreen(
  visit: q.VisitRow,
  covered: string[],
  now: Date,
): 'ineligible' | 'not-a-fit' | null {
  if (visit.status === 'INELIGIBLE') return eligibleNow(visit, covered, now) ? null : 'ineligible';
  if (visit.status === 'DISQUALIFIED') return 'not-a-fit';
  if (visit.reviewRequestedAt && (visit.status === 'PENDING_REVIEW' || visit.status === 'DECLINED'))
    return 'not-a-fit';
  return null;
}

/**
 * Where a visit resumes: its step's screen; a visit whose questions are all answered and that has
 * not moved on to a treatment yet resumes at the review of the answers, before preferences.
 */
export function destinationOf(visit: q.VisitRow): string {
  if (visit.kind === 'renewal') return screenAfterQuestions(visit, visit.step);
  return paths.visitScreen(visit.category, visit.step === 'preferences' ? 'answers' : visit.step);
}

/**
 * The screen of a visit's step once its questions are answered: a first visit's own screen; a
 * renewal has one more, "Send to my provider" (its step is `consent`).
 */
export function screenAfterQuestions(visit: q.VisitRow, step: q.VisitRow['step']): string {
  if (visit.kind === 'renewal')
    return paths.visitScreen(visit.category, step === 'consent' ? 'send' : 'questions');
  return paths.visitScreen(visit.category, step);
}

/**
 * Spec §7 "Finish pending order" / `/visit/:category`: resumes the patient's visit in progress for the
 * program, or opens one on the newest questionnaire version. Answers the destination to go to.
 */
export async function startProgram(
  ctx: AppContext,
  session: ActiveSession,
  category: ProgramCategory,
): Promise<{ visit: q.VisitRow; destination: string }> {
  // A closed dead end is not started over silently: opening the program shows why it closed.
  const latest = (await q.selectLatestVisitsOf(ctx.db, session.customerId)).find(
    (v) => v.category === category,
  );
  if (latest && latest.status !== 'IN_PROGRESS') {
    const covered = await statesAllowed(ctx);
    const screen = closedScreen(latest, covered, ctx.clock.now());
    if (screen) return { visit: latest, destination: paths.visitScreen(category, screen) };
  }
  const questionnaire = latestQuestionnaire(category);
  await q.insertVisit(ctx.db, {
    customerId: session.customerId,
    category,
    questionnaireId: questionnaire.id,
    questionnaireVersion: questionnaire.version,
    now: ctx.clock.now().toISOString(),
  });
  const visit = await q.selectOpenVisit(ctx.db, session.customerId, category);
  if (!visit) throw new AppError('VISIT_BUSY', messages.consultationFailed);
  return { visit, destination: destinationOf(visit) };
}

/** What a started, unfinished visit is called on Home and in its flag. */
export function pendingVisitName(
  category: ProgramCategory,
  kind: q.VisitRow['kind'] = 'intake',
): string {
  return `${programs[category].headline} — ${kind === 'renewal' ? 'renewal' : 'online visit'}`;
}

/** Spec §3 "Pending order": the visits the patient started and has not finished. */
export async function pendingOrders(ctx: AppContext, customerId: number): Promise<PendingOrder[]> {
  const visits = await q.selectOpenVisitsOf(ctx.db, customerId);
  return visits.map((visit) => ({
    product: pendingVisitName(visit.category, visit.kind),
    product_category: visit.category,
    visit_id: visit.id,
    started_at: visit.createdAt,
    step: visit.step,
  }));
}

/**
 * The programs the patient finished a visit of (a provider decided it), for the partners feature's
 * visit invitations: only the programs, never a visit's id, status or answers.
 */
export function finishedProgramsOf(
  ctx: AppContext,
  customerId: number,
): Promise<ProgramCategory[]> {
  return q.selectFinishedPrograms(ctx.db, customerId);
}

/** The patient's own visit, or "not found" (another patient's visit is never revealed). */
export async function ownVisit(
  ctx: AppContext,
  session: ActiveSession,
  visitId: number,
): Promise<q.VisitRow> {
  const visit = await q.selectVisit(ctx.db, visitId);
  if (!visit || visit.customerId !== session.customerId)
    throw notFound('We could not find that visit.');
  return visit;
}

export function requireOpen(visit: q.VisitRow): void {
  if (visit.status !== 'IN_PROGRESS') {
    throw new AppError(
      'VISIT_CLOSED',
      visit.closedReason ?? 'This visit can no longer be changed.',
    );
  }
}

/**
 * The steps only a first visit has (eligibility, treatment, photo ID, consent and checkout): a
 * renewal keeps the renewed visit's answers to them and goes to its provider from its own last
 * screen.
 */
export function requireIntake(visit: q.VisitRow): void {
  if (visit.kind === 'renewal')
    throw new AppError(
      'VISIT_STEP',
      'A renewal has no such step: send your answers to your provider from its last screen.',
    );
}
