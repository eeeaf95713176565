// Before any health question: where the patient lives and their age decide whether the visit goes on.
import type { AppContext } from '#server/context.ts';
import { enforceAddressLimit, type ActiveSession } from '#server/features/auth/auth.service.ts';
import { AppError } from '#server/lib/errors.ts';
import { dobProblem, isoDate, parseUsDate } from '#shared/dates.ts';
import { messages } from '#shared/wording.ts';
import { nextItem } from '#shared/questionnaires/engine.ts';
import { programs, type ProgramCategory } from '#shared/visits.ts';
import { isUsState, usStates } from '#shared/us-states.ts';
import { paths } from '#shared/paths.ts';
import { recordKnownAnswers } from './visits.known-answers.ts';
import { ownVisit, requireIntake, requireOpen, stateCoverage } from './visits.program.ts';
import { questionnaireOf } from './visits.questionnaire.ts';
import * as q from './visits.queries.ts';

export interface EligibilityOutcome {
  eligible: boolean;
  reason: string | null;
  supplement_slug: string | null;
  destination: string;
}

/** The verdict on a state and a date of birth: why not (in words for the patient), or null. */
interface Verdict {
  reason: string | null;
  /** Not eligible because online visits do not reach the state (yet): its waitlist may help. */
  stateClosed: boolean;
  /** The date of birth as 'YYYY-MM-DD'. */
  dob: string;
}

/**
 * The one rule, for a visitor's check and for a visit alike: the state the patient lives in must be
 * one the service offers and has an active licensed provider in, and their age 19 to 99. A state
 * that is not one, or a date that is not a date, is bad input (400), not a verdict.
 */
async function judgeEligibility(ctx: AppContext, state: string, dob: string): Promise<Verdict> {
  if (!isUsState(state))
    throw new AppError('VALIDATION', 'Choose the state you live in', {
      state: 'Choose the state you live in',
    });
  const problem = dobProblem(dob, ctx.clock.now());
  const parsed = parseUsDate(dob);
  const ageProblem = problem === messages.dobMinAge || problem === messages.dobMaxAge;
  if ((problem && !ageProblem) || !parsed) {
    throw new AppError('VALIDATION', problem ?? messages.dobInvalid, {
      dob: problem ?? messages.dobInvalid,
    });
  }
  const stateName = usStates.find(([code]) => code === state)?.[1] ?? state;
  const coverage = (await stateCoverage(ctx)).find((s) => s.state === state);
  let reason: string | null = null;
  if (!coverage) {
    reason = `We're not yet able to offer online visits to people living in ${stateName}. Our providers must be licensed where you live, and we're working to reach more states.`;
  } else if (coverage.providers === 0) {
    // Offered, but nobody could review the visit: say so, and promise no provider.
    reason = `We're not able to offer online visits to people living in ${stateName} right now. Our providers must be licensed where you live, and none is available there at the moment.`;
  } else if (ageProblem) {
    reason = `${problem}. Online visits are for adults aged 19 to 99.`;
  }
  return { reason, stateClosed: !coverage || coverage.providers === 0, dob: isoDate(parsed) };
}

/** Each client address may ask this many times an hour (scaled by ADDRESS_LIMIT_FACTOR). */
const CHECKS_PER_ADDRESS_HOUR = 60;

/**
 * A visitor's first screen of a visit, before any account: the same verdict as `checkEligibility`,
 * stored nowhere. Limited per client address, like the other calls open to anyone.
 */
export async function previewEligibility(
  ctx: AppContext,
  input: { category: ProgramCategory; state: string; dob: string; ip: string },
): Promise<Omit<EligibilityOutcome, 'destination'> & { state_closed: boolean }> {
  await enforceAddressLimit(
    ctx,
    `eligibility:ip:${input.ip}`,
    CHECKS_PER_ADDRESS_HOUR,
    60 * 60_000,
  );
  const { reason, stateClosed } = await judgeEligibility(ctx, input.state, input.dob);
  return {
    eligible: reason === null,
    reason,
    supplement_slug: reason === null ? null : programs[input.category].supplementSlug,
    state_closed: stateClosed,
  };
}

/**
 * Before any health question (issue: eligibility first): the patient's state and age decide
 * (`judgeEligibility`). An ineligible visit closes with a reason the patient is shown, and, where
 * one fits, a supplement to consider instead.
 */
export async function checkEligibility(
  ctx: AppContext,
  session: ActiveSession,
  visitId: number,
  state: string,
  dob: string,
): Promise<EligibilityOutcome> {
  const visit = await ownVisit(ctx, session, visitId);
  requireOpen(visit);
  requireIntake(visit);
  const verdict = await judgeEligibility(ctx, state, dob);
  const now = ctx.clock.now().toISOString();
  const { reason } = verdict;
  const supplement = programs[visit.category].supplementSlug;
  if (reason) {
    await q.updateVisit(ctx.db, visit.id, {
      status: 'INELIGIBLE',
      closedReason: reason,
      state,
      dob: verdict.dob,
      now,
    });
    return {
      eligible: false,
      reason,
      supplement_slug: supplement,
      destination: paths.visitScreen(visit.category, 'ineligible'),
    };
  }
  const questionnaire = questionnaireOf(visit);
  // What the first screen told us is not asked again: the age comes from this date of birth.
  await recordKnownAnswers(ctx, visit.id, questionnaire, verdict.dob);
  const first = nextItem(questionnaire, {});
  await q.updateVisit(ctx.db, visit.id, {
    step: 'questions',
    state,
    dob: verdict.dob,
    currentLinkId: first?.linkId ?? null,
    now,
  });
  return {
    eligible: true,
    reason: null,
    supplement_slug: null,
    destination: paths.visitScreen(visit.category, 'questions'),
  };
}
