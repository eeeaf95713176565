// What a visit answers itself (issue 29): a questionnaire's known items (the age) are never asked.
// When the visit reaches its questions, their answers are written from what it already knows, and
// are then read like any other answer (knock-outs, enableWhen, flags, the provider's chart).
import type { AppContext } from '#server/context.ts';
import { AppError } from '#server/lib/errors.ts';
import { ageOn, calendarDateOf, parseUsDate, usDateFromIso } from '#shared/dates.ts';
import { knownAnswers } from '#shared/questionnaires/engine.ts';
import type { KnownFact, Questionnaire, QuestionnaireItem } from '#shared/questionnaires/format.ts';
import * as q from './visits.queries.ts';

/** Where the visit knows each fact from, as the patient is told when they try to answer it. */
const knownFrom: Record<KnownFact, string> = {
  age: 'We already know this from the date of birth you gave.',
};

/**
 * Writes the answers to `questionnaire`'s known items: the age in whole years today, from the
 * date of birth ('YYYY-MM-DD') the visit keeps. Written again when the date of birth is given
 * again; nothing when the questionnaire has no known item.
 */
export async function recordKnownAnswers(
  ctx: AppContext,
  visitId: number,
  questionnaire: Questionnaire,
  dob: string | null,
): Promise<void> {
  const birth = dob ? parseUsDate(usDateFromIso(dob)) : null;
  const answers = knownAnswers(
    questionnaire,
    birth ? { age: ageOn(birth, calendarDateOf(ctx.clock.now())) } : {},
  );
  const now = ctx.clock.now().toISOString();
  for (const [linkId, value] of Object.entries(answers))
    await q.upsertAnswer(ctx.db, visitId, linkId, value, now);
}

/** Refuses an answer from the patient to a known item: the visit answers it, not them. */
export function refuseKnownAnswer(item: QuestionnaireItem | undefined): void {
  if (!item?.known) return;
  const message = knownFrom[item.known];
  throw new AppError('VALIDATION', message, { linkId: message });
}
