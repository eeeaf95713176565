// The health questions, one at a time: saved as they are answered, a disqualifying answer closes the
// visit (once the patient confirms it), the last one moves it on to the review of the answers and
// then treatment preferences. From the review, any answer can be changed.
import type { AppContext } from '#server/context.ts';
import type { ActiveSession } from '#server/features/auth/auth.service.ts';
import { AppError } from '#server/lib/errors.ts';
import {
  answerProblem,
  askedItems,
  effectiveAnswers,
  firstDisqualification,
  firstUnanswered,
  nextItem,
  nextToAsk,
  previousItem,
  progress,
  shownQuestions,
  visibleItems,
} from '#shared/questionnaires/engine.ts';
import type {
  AnswerValue,
  Answers,
  Questionnaire,
  QuestionnaireItem,
} from '#shared/questionnaires/format.ts';
import { questionnaireVersion } from '#shared/questionnaires/registry.ts';
import type { AnswersReview, Knockout, PatientItem, QuestionState } from '#shared/visits.ts';
import { paths } from '#shared/paths.ts';
import { refuseKnownAnswer } from './visits.known-answers.ts';
import { ownVisit, requireOpen, screenAfterQuestions } from './visits.program.ts';
import { prefillOf } from './visits.renewal.ts';
import * as q from './visits.queries.ts';

export function questionnaireOf(visit: q.VisitRow): Questionnaire {
  const found = questionnaireVersion(visit.questionnaireId, visit.questionnaireVersion);
  if (!found)
    throw new Error(
      `Questionnaire ${visit.questionnaireId} ${visit.questionnaireVersion} is missing from the registry`,
    );
  return found;
}

/** What the patient sees of an item: no disqualification rules, no provider flags. */
export function patientItem(item: QuestionnaireItem): PatientItem {
  return {
    linkId: item.linkId,
    type: item.type,
    text: item.text,
    ...(item.helpText ? { helpText: item.helpText } : {}),
    required: item.type !== 'display' && item.required !== false,
    ...(item.options
      ? {
          options: item.options.map((o) => ({
            code: o.code,
            display: o.display,
            ...(o.exclusive ? { exclusive: true } : {}),
          })),
        }
      : {}),
    ...(item.min !== undefined ? { min: item.min } : {}),
    ...(item.max !== undefined ? { max: item.max } : {}),
    ...(item.unit ? { unit: item.unit } : {}),
    ...(item.maxLength !== undefined ? { maxLength: item.maxLength } : {}),
  };
}

function requireQuestionsStep(visit: q.VisitRow): void {
  requireOpen(visit);
  if (visit.step === 'eligibility')
    throw new AppError('VISIT_STEP', 'Please confirm where you live and your date of birth first.');
}

/** An answer in the patient's words: the option's display, 'Yes' / 'No', the number and unit. */
function answerWords(item: QuestionnaireItem, value: AnswerValue): string {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (item.type === 'date' && typeof value === 'string') return usDateWords(value);
  if (Array.isArray(value))
    return value
      .map((code) => item.options?.find((o) => o.code === code)?.display ?? code)
      .join('; ');
  if (typeof value === 'string' && item.options)
    return item.options.find((o) => o.code === value)?.display ?? value;
  return `${value}${item.unit ? ` ${item.unit}` : ''}`;
}

/**
 * The answer given that would end the visit, not confirmed yet: the first one in the questionnaire
 * (a mis-tap is not final; only "Yes, that's right" closes the visit), with the item it answers.
 */
function pendingKnockout(
  questionnaire: Questionnaire,
  answers: Answers,
): { item: QuestionnaireItem; knockout: Knockout } | null {
  const found = firstDisqualification(questionnaire, answers);
  if (!found) return null;
  const effective = effectiveAnswers(questionnaire, answers);
  const item = visibleItems(questionnaire, effective).find((i) => i.linkId === found.linkId);
  const value = effective[found.linkId];
  if (!item || value === undefined) return null;
  return {
    item,
    knockout: {
      linkId: item.linkId,
      question: item.text,
      answer: answerWords(item, value),
      reason: found.reason,
    },
  };
}

/** '2024-03-05' as 'March 5, 2024' (the calendar day as given, not moved by a time zone). */
function usDateWords(iso: string): string {
  const date = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat('en-US', {
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(date);
}

/**
 * The step a visit is on once every question is answered: preferences (a renewal's last step,
 * "Send to my provider", is `consent`), or where it had got to.
 */
function stepAfterQuestions(visit: q.VisitRow): q.VisitRow['step'] {
  if (visit.step !== 'eligibility' && visit.step !== 'questions') return visit.step;
  return visit.kind === 'renewal' ? 'consent' : 'preferences';
}

/** Every question shown is answered (the optional ones may be skipped) and one at least is. */
function isComplete(questionnaire: Questionnaire, answers: Answers): boolean {
  return (
    firstUnanswered(questionnaire, answers) === null &&
    Object.keys(effectiveAnswers(questionnaire, answers)).length > 0
  );
}

function state(
  visit: q.VisitRow,
  questionnaire: Questionnaire,
  answers: Answers,
  item: QuestionnaireItem | null,
  offered: Answers,
  disqualified: string | null = null,
  knockout: Knockout | null = null,
): QuestionState {
  const done =
    !disqualified && !knockout && firstUnanswered(questionnaire, answers) === null && item === null;
  return {
    item: item ? patientItem(item) : null,
    // A renewal offers the last visit's answer to a lasting question until one is given.
    answer: item
      ? (effectiveAnswers(questionnaire, answers)[item.linkId] ?? offered[item.linkId] ?? null)
      : null,
    progress: progress(questionnaire, answers, item?.linkId ?? null),
    done,
    disqualified,
    knockout,
    destination: disqualified
      ? paths.visitScreen(visit.category, 'not-a-fit')
      : done
        ? paths.visitScreen(visit.category, 'answers')
        : paths.visitScreen(visit.category, 'questions'),
  };
}

/** `/questionnaire/get_questions/`: the questionnaire as answered so far, and where the patient is. */
export async function getQuestions(ctx: AppContext, session: ActiveSession, visitId: number) {
  const visit = await ownVisit(ctx, session, visitId);
  requireQuestionsStep(visit);
  const questionnaire = questionnaireOf(visit);
  const answers = effectiveAnswers(questionnaire, await q.selectAnswers(ctx.db, visit.id));
  const current = visit.currentLinkId ?? firstUnanswered(questionnaire, answers)?.linkId ?? null;
  return {
    questionnaire: {
      id: questionnaire.id,
      version: questionnaire.version,
      title: questionnaire.title,
    },
    items: askedItems(questionnaire, answers).map(patientItem),
    answers,
    current,
    progress: progress(questionnaire, answers, current),
  };
}

/** The question after `linkId` (or where the patient left off), with the answer already given. */
export async function nextQuestion(
  ctx: AppContext,
  session: ActiveSession,
  visitId: number,
  linkId?: string,
): Promise<QuestionState> {
  const visit = await ownVisit(ctx, session, visitId);
  requireQuestionsStep(visit);
  const questionnaire = questionnaireOf(visit);
  const answers = await q.selectAnswers(ctx.db, visit.id);
  // An answer that would end the visit waits for the patient to change or confirm it.
  const pending = pendingKnockout(questionnaire, answers);
  if (pending) {
    await q.updateVisit(ctx.db, visit.id, {
      currentLinkId: pending.item.linkId,
      now: ctx.clock.now().toISOString(),
    });
    return state(visit, questionnaire, answers, pending.item, {}, null, pending.knockout);
  }
  let item: QuestionnaireItem | null;
  if (linkId) item = nextItem(questionnaire, answers, linkId);
  else if (visit.currentLinkId)
    item =
      askedItems(questionnaire, answers).find((i) => i.linkId === visit.currentLinkId) ??
      firstUnanswered(questionnaire, answers);
  // Every question answered and none open: the patient is at the review of their answers.
  else if (isComplete(questionnaire, answers)) item = null;
  else item = nextItem(questionnaire, answers);
  const step = !item && isComplete(questionnaire, answers) ? stepAfterQuestions(visit) : visit.step;
  await q.updateVisit(ctx.db, visit.id, {
    currentLinkId: item?.linkId ?? null,
    ...(step !== visit.step ? { step } : {}),
    now: ctx.clock.now().toISOString(),
  });
  return state(
    { ...visit, step },
    questionnaire,
    answers,
    item,
    await prefillOf(ctx, visit, questionnaire),
  );
}

export async function previousQuestion(
  ctx: AppContext,
  session: ActiveSession,
  visitId: number,
  linkId: string,
): Promise<QuestionState> {
  const visit = await ownVisit(ctx, session, visitId);
  requireQuestionsStep(visit);
  const questionnaire = questionnaireOf(visit);
  const answers = await q.selectAnswers(ctx.db, visit.id);
  const item = previousItem(questionnaire, answers, linkId) ?? nextItem(questionnaire, answers);
  await q.updateVisit(ctx.db, visit.id, {
    currentLinkId: item?.linkId ?? null,
    ...(visit.step !== 'questions' ? { step: 'questions' as const } : {}),
    now: ctx.clock.now().toISOString(),
  });
  return state(visit, questionnaire, answers, item, await prefillOf(ctx, visit, questionnaire));
}

/**
 * Saves one answer as it is given. An answer that would end the visit is kept, and the patient is
 * asked to change or confirm it (`confirmKnockout` closes the visit); the last answer moves the
 * visit on to treatment preferences. Answers the next question.
 */
export async function saveAnswer(
  ctx: AppContext,
  session: ActiveSession,
  visitId: number,
  linkId: string,
  value: AnswerValue,
): Promise<QuestionState> {
  const visit = await ownVisit(ctx, session, visitId);
  requireQuestionsStep(visit);
  const questionnaire = questionnaireOf(visit);
  refuseKnownAnswer(questionnaire.items.find((i) => i.linkId === linkId));
  const answers = await q.selectAnswers(ctx.db, visit.id);
  const shown = visibleItems(questionnaire, effectiveAnswers(questionnaire, answers));
  const item = shown.find((i) => i.linkId === linkId);
  if (!item || item.type === 'display')
    throw new AppError('VALIDATION', 'That question is not part of this visit.', {
      linkId: 'That question is not part of this visit.',
    });
  const problem = answerProblem(item, value);
  if (problem) throw new AppError('VALIDATION', problem, { value: problem });
  const now = ctx.clock.now().toISOString();
  await q.upsertAnswer(ctx.db, visit.id, linkId, value, now);
  const updated = { ...answers, [linkId]: value };
  const pending = pendingKnockout(questionnaire, updated);
  if (pending) {
    await q.updateVisit(ctx.db, visit.id, {
      currentLinkId: pending.item.linkId,
      step: 'questions',
      now,
    });
    return state(visit, questionnaire, updated, pending.item, {}, null, pending.knockout);
  }
  const complete = isComplete(questionnaire, updated);
  // Once every question is answered (the last one, or a change from the review), only a question
  // still without an answer is asked — one the change newly shows — and then the review again.
  const target = complete
    ? nextToAsk(questionnaire, updated, linkId)
    : (nextItem(questionnaire, updated, linkId) ?? firstUnanswered(questionnaire, updated));
  const step = complete && !target ? stepAfterQuestions(visit) : 'questions';
  await q.updateVisit(ctx.db, visit.id, { currentLinkId: target?.linkId ?? null, step, now });
  return state(
    { ...visit, step },
    questionnaire,
    updated,
    target,
    await prefillOf(ctx, visit, questionnaire),
  );
}

/**
 * "Yes, that's right": the answer that ends the visit stands. The visit closes with the reason the
 * patient was shown; with no such answer left (changed in another tab), the questions go on.
 */
export async function confirmKnockout(
  ctx: AppContext,
  session: ActiveSession,
  visitId: number,
): Promise<QuestionState> {
  const visit = await ownVisit(ctx, session, visitId);
  requireQuestionsStep(visit);
  const questionnaire = questionnaireOf(visit);
  const answers = await q.selectAnswers(ctx.db, visit.id);
  const pending = pendingKnockout(questionnaire, answers);
  if (!pending) return nextQuestion(ctx, session, visitId);
  await q.updateVisit(ctx.db, visit.id, {
    status: 'DISQUALIFIED',
    closedReason: pending.knockout.reason,
    currentLinkId: pending.item.linkId,
    now: ctx.clock.now().toISOString(),
  });
  return state(visit, questionnaire, answers, null, {}, pending.knockout.reason);
}

/** Refuses the review while a question is open: unanswered, or a knock-out not yet confirmed. */
function requireAllAnswered(questionnaire: Questionnaire, answers: Answers): void {
  if (pendingKnockout(questionnaire, answers))
    throw new AppError('VISIT_STEP', 'Please check your answer to the health questions first.');
  if (!isComplete(questionnaire, answers))
    throw new AppError('VISIT_STEP', 'Please answer all the health questions first.');
}

/**
 * "Review your answers": every question the patient was shown, in order, with the answer in their
 * words (answers to questions a change has hidden are neither shown nor used), and where
 * "Continue" goes: treatment preferences, or the step the visit had already reached.
 */
export async function reviewAnswers(
  ctx: AppContext,
  session: ActiveSession,
  visitId: number,
): Promise<AnswersReview> {
  const visit = await ownVisit(ctx, session, visitId);
  requireQuestionsStep(visit);
  const questionnaire = questionnaireOf(visit);
  const answers = effectiveAnswers(questionnaire, await q.selectAnswers(ctx.db, visit.id));
  requireAllAnswered(questionnaire, answers);
  const step = stepAfterQuestions(visit);
  if (step !== visit.step || visit.currentLinkId !== null)
    await q.updateVisit(ctx.db, visit.id, {
      currentLinkId: null,
      step,
      now: ctx.clock.now().toISOString(),
    });
  return {
    answers: shownQuestions(questionnaire, answers).map((item) => {
      const value = answers[item.linkId];
      return {
        linkId: item.linkId,
        question: item.text,
        answer: value === undefined ? 'Not answered' : answerWords(item, value),
      };
    }),
    destination: screenAfterQuestions(visit, step),
  };
}

/**
 * "Change" on the review: the question (one the patient is shown) opens again with its answer.
 * Saving it returns to the review, by way of any question the new answer shows; a new answer that
 * would end the visit asks to be confirmed, as on the first pass.
 */
export async function changeAnswer(
  ctx: AppContext,
  session: ActiveSession,
  visitId: number,
  linkId: string,
): Promise<QuestionState> {
  const visit = await ownVisit(ctx, session, visitId);
  requireQuestionsStep(visit);
  const questionnaire = questionnaireOf(visit);
  refuseKnownAnswer(questionnaire.items.find((i) => i.linkId === linkId));
  const answers = await q.selectAnswers(ctx.db, visit.id);
  const item = shownQuestions(questionnaire, answers).find((i) => i.linkId === linkId);
  if (!item)
    throw new AppError('VALIDATION', 'That question is not part of this visit.', {
      linkId: 'That question is not part of this visit.',
    });
  // An answer that would end the visit is changed or confirmed first, as on the first pass.
  const pending = pendingKnockout(questionnaire, answers);
  if (pending)
    return state(visit, questionnaire, answers, pending.item, {}, null, pending.knockout);
  requireAllAnswered(questionnaire, answers);
  await q.updateVisit(ctx.db, visit.id, {
    currentLinkId: item.linkId,
    now: ctx.clock.now().toISOString(),
  });
  return state(visit, questionnaire, answers, item, await prefillOf(ctx, visit, questionnaire));
}
