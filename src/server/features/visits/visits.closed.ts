// Dead-end visits (issue 13): a visit closed as ineligible or not a fit says why and offers what
// the patient can do instead — a supplement, "tell me when my state opens", or a provider's review
// of the answers as given. None of them asks to be finished.
import type { AppContext } from '#server/context.ts';
import type { ActiveSession } from '#server/features/auth/auth.service.ts';
import { AppError } from '#server/lib/errors.ts';
import { paths } from '#shared/paths.ts';
import { stateName } from '#shared/us-states.ts';
import { programs, type ClosedVisit, type ClosedVisitKind } from '#shared/visits.ts';
import {
  eligibleNow,
  ownVisit,
  providerFor,
  requireCovered,
  statesAllowed,
} from './visits.program.ts';
import * as q from './visits.queries.ts';
import { insertWaitlist, selectWaitingStates } from './visits.waitlist.queries.ts';

function kindOf(visit: q.VisitRow): ClosedVisitKind | null {
  if (visit.status === 'INELIGIBLE') return 'ineligible';
  if (visit.status === 'DISQUALIFIED') return 'not-a-fit';
  if (visit.reviewRequestedAt && visit.status === 'PENDING_REVIEW') return 'review-requested';
  // Declined by the provider the patient asked: their reason is the visit's closing reason.
  if (visit.reviewRequestedAt && visit.status === 'DECLINED') return 'not-a-fit';
  return null;
}

function describe(
  visit: q.VisitRow,
  kind: ClosedVisitKind,
  covered: string[],
  waiting: string[],
  now: Date,
): ClosedVisit {
  const ineligible = kind === 'ineligible';
  const stateClosed = ineligible && !!visit.state && !covered.includes(visit.state);
  return {
    visit_id: visit.id,
    category: visit.category,
    kind,
    reason:
      kind === 'review-requested'
        ? 'You asked a provider to review your answers.'
        : (visit.closedReason ?? 'This visit can no longer be changed.'),
    closed_at: visit.reviewRequestedAt ?? visit.updatedAt,
    state: visit.state,
    state_name: visit.state ? stateName(visit.state) : null,
    state_closed: stateClosed,
    state_open: ineligible && eligibleNow(visit, covered, now),
    waitlisted: stateClosed && !!visit.state && waiting.includes(visit.state),
    review_available: visit.status === 'DISQUALIFIED' && !visit.reviewRequestedAt,
    supplement_slug: programs[visit.category].supplementSlug,
  };
}

/** A closed visit of the patient's: why, and what they can do instead. */
export async function closedVisit(
  ctx: AppContext,
  session: ActiveSession,
  visitId: number,
): Promise<ClosedVisit> {
  const visit = await ownVisit(ctx, session, visitId);
  const kind = kindOf(visit);
  if (!kind) throw new AppError('VISIT_STEP', 'This visit is not closed.');
  return describe(
    visit,
    kind,
    await statesAllowed(ctx),
    await selectWaitingStates(ctx.db, session.customerId),
    ctx.clock.now(),
  );
}

/**
 * What Home tells the patient about: the newest visit of each program they started, where it
 * closed as a dead end. A newer visit of the program (started once the state opened) replaces it.
 */
export async function closedVisits(
  ctx: AppContext,
  session: ActiveSession,
): Promise<ClosedVisit[]> {
  const latest = await q.selectLatestVisitsOf(ctx.db, session.customerId);
  const closed = latest.flatMap((visit) => {
    const kind = kindOf(visit);
    return kind ? [{ visit, kind }] : [];
  });
  if (closed.length === 0) return [];
  const covered = await statesAllowed(ctx);
  const waiting = await selectWaitingStates(ctx.db, session.customerId);
  const now = ctx.clock.now();
  return closed.map(({ visit, kind }) => describe(visit, kind, covered, waiting, now));
}

/**
 * "Tell me when {State} opens": puts the session's patient on the waitlist of the state their
 * ineligible visit gave. Asking twice changes nothing; the email goes to the account's address.
 */
export async function joinWaitlist(
  ctx: AppContext,
  session: ActiveSession,
  visitId: number,
): Promise<{ state: string; state_name: string }> {
  const visit = await ownVisit(ctx, session, visitId);
  const covered = await statesAllowed(ctx);
  if (visit.status !== 'INELIGIBLE' || !visit.state)
    throw new AppError('VISIT_STEP', 'This visit was not closed because of where you live.');
  if (covered.includes(visit.state))
    throw new AppError(
      'VISIT_STEP',
      `Online visits are open in ${stateName(visit.state)} now: you can start your visit.`,
    );
  await insertWaitlist(ctx.db, session.customerId, visit.state, ctx.clock.now().toISOString());
  return { state: visit.state, state_name: stateName(visit.state) };
}

/**
 * "Ask a provider to review": a visit closed by a knock-out answer the patient confirmed goes, as
 * answered, to a provider licensed in their state — marked as the patient's request in the queue,
 * with nothing held on the card. The provider writes to them in Messages or declines with a reason.
 * Asking again answers the same.
 */
export async function requestReview(
  ctx: AppContext,
  session: ActiveSession,
  visitId: number,
): Promise<{ destination: string }> {
  const visit = await ownVisit(ctx, session, visitId);
  const destination = paths.visitScreen(visit.category, 'not-a-fit');
  if (visit.reviewRequestedAt && visit.status === 'PENDING_REVIEW') return { destination };
  if (visit.status !== 'DISQUALIFIED' || visit.reviewRequestedAt || !visit.state)
    throw new AppError('VISIT_STEP', 'This visit cannot be sent for a review.');
  await requireCovered(ctx, visit.state);
  const provider = await providerFor(ctx, visit.state);
  await q.markReviewRequested(
    ctx.db,
    visit.id,
    provider?.id ?? null,
    ctx.clock.now().toISOString(),
  );
  return { destination };
}
