import type {
  AnswerValue,
  Answers,
  EnableWhen,
  KnownFact,
  Questionnaire,
  QuestionnaireItem,
  RiskFlag,
} from './format.ts';

/**
 * The questionnaire engine: pure functions over a questionnaire and the answers so far. The server
 * and the browser use the same ones, so "which question is next" never disagrees.
 */

function conditionHolds(condition: EnableWhen, answers: Answers): boolean {
  const value = answers[condition.question];
  switch (condition.operator) {
    case 'exists':
      return hasAnswer(value) === Boolean(condition.answer);
    case '=':
      return value === condition.answer;
    case '!=':
      return value !== undefined && value !== condition.answer;
    case 'includes':
      return Array.isArray(value) && value.includes(String(condition.answer));
    case '>':
    case '<':
    case '>=':
    case '<=': {
      if (typeof value !== 'number' || typeof condition.answer !== 'number') return false;
      if (condition.operator === '>') return value > condition.answer;
      if (condition.operator === '<') return value < condition.answer;
      if (condition.operator === '>=') return value >= condition.answer;
      return value <= condition.answer;
    }
  }
}

/** An empty string or an empty selection is no answer, here as in `answerProblem`. */
function hasAnswer(value: AnswerValue | undefined): boolean {
  return !(
    value === undefined ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}

/** A real calendar day 'YYYY-MM-DD' (2026-02-31 is not one). */
function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** Whether an item is shown, given the answers so far (FHIR enableWhen / enableBehavior). */
export function isEnabled(item: QuestionnaireItem, answers: Answers): boolean {
  if (!item.enableWhen || item.enableWhen.length === 0) return true;
  const results = item.enableWhen.map((c) => conditionHolds(c, answers));
  return item.enableBehavior === 'any' ? results.some(Boolean) : results.every(Boolean);
}

/** The items the patient sees, in order, given the answers so far. */
export function visibleItems(questionnaire: Questionnaire, answers: Answers): QuestionnaireItem[] {
  return questionnaire.items.filter((item) => isEnabled(item, answers));
}

/** Whether the visit answers `item` itself from what it knows (the age): it is never asked. */
export function isKnown(item: QuestionnaireItem): boolean {
  return item.known !== undefined;
}

/**
 * The items the patient is asked, in order, given the answers so far: those shown, less the ones
 * the visit already knows. Walking the questions, their progress and the review use these.
 */
export function askedItems(questionnaire: Questionnaire, answers: Answers): QuestionnaireItem[] {
  return visibleItems(questionnaire, effectiveAnswers(questionnaire, answers)).filter(
    (item) => !isKnown(item),
  );
}

/**
 * The answers the visit gives its known items, from the facts it has (a fact it lacks answers
 * nothing). Stored like the patient's own answers, so every rule reads them the same way.
 */
export function knownAnswers(
  questionnaire: Questionnaire,
  facts: Partial<Record<KnownFact, AnswerValue>>,
): Answers {
  const answers: Answers = {};
  for (const item of questionnaire.items) {
    if (!item.known) continue;
    const value = facts[item.known];
    if (value !== undefined) answers[item.linkId] = value;
  }
  return answers;
}

/** Only the answers to items still shown (an answer to a question that no longer applies is dropped). */
export function effectiveAnswers(questionnaire: Questionnaire, answers: Answers): Answers {
  const effective: Answers = {};
  for (const item of questionnaire.items) {
    const value = answers[item.linkId];
    if (value !== undefined && isEnabled(item, effective)) effective[item.linkId] = value;
  }
  return effective;
}

/** Why an answer is not acceptable for its item, or null. */
export function answerProblem(
  item: QuestionnaireItem,
  value: AnswerValue | undefined,
): string | null {
  if (value === undefined || !hasAnswer(value)) {
    return item.required === false || item.type === 'display'
      ? null
      : 'Please answer this question.';
  }
  switch (item.type) {
    case 'display':
      return null;
    case 'boolean':
      return typeof value === 'boolean' ? null : 'Please choose yes or no.';
    case 'choice':
      return typeof value === 'string' && item.options?.some((o) => o.code === value)
        ? null
        : 'Please choose one of the options.';
    case 'multi-choice': {
      if (!Array.isArray(value) || !value.every((v) => item.options?.some((o) => o.code === v)))
        return 'Please choose from the options.';
      const exclusive = item.options?.filter((o) => o.exclusive).map((o) => o.code) ?? [];
      if (value.length > 1 && value.some((v) => exclusive.includes(v)))
        return 'That option cannot be combined with others.';
      return new Set(value).size === value.length ? null : 'Please choose each option once.';
    }
    case 'text':
      return typeof value === 'string' &&
        value.trim().length > 0 &&
        value.length <= (item.maxLength ?? 1000)
        ? null
        : `Please answer in ${item.maxLength ?? 1000} characters or fewer.`;
    case 'integer':
    case 'decimal': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'Please enter a number.';
      if (item.type === 'integer' && !Number.isInteger(value))
        return 'Please enter a whole number.';
      if (item.min !== undefined && value < item.min) return `Please enter ${item.min} or more.`;
      if (item.max !== undefined && value > item.max) return `Please enter ${item.max} or less.`;
      return null;
    }
    case 'date':
      return typeof value === 'string' && isCalendarDay(value) ? null : 'Please enter a real date.';
  }
}

/** The reason an answer disqualifies, or null. */
export function disqualification(
  item: QuestionnaireItem,
  value: AnswerValue | undefined,
): string | null {
  if (value === undefined) return null;
  if (item.type === 'boolean' && item.disqualifyWhen && value === item.disqualifyWhen.answer)
    return item.disqualifyWhen.reason;
  if (item.type === 'choice' && typeof value === 'string')
    return item.options?.find((o) => o.code === value)?.disqualify ?? null;
  if (item.type === 'multi-choice' && Array.isArray(value)) {
    for (const code of value) {
      const reason = item.options?.find((o) => o.code === code)?.disqualify;
      if (reason) return reason;
    }
  }
  if (
    (item.type === 'integer' || item.type === 'decimal') &&
    typeof value === 'number' &&
    item.disqualifyOutside
  ) {
    const { min, max, reason } = item.disqualifyOutside;
    if ((min !== undefined && value < min) || (max !== undefined && value > max)) return reason;
  }
  return null;
}

/** The first disqualifying answer among the items still shown: {linkId, reason}, or null. */
export function firstDisqualification(
  questionnaire: Questionnaire,
  answers: Answers,
): { linkId: string; reason: string } | null {
  const effective = effectiveAnswers(questionnaire, answers);
  for (const item of visibleItems(questionnaire, effective)) {
    const reason = disqualification(item, effective[item.linkId]);
    if (reason) return { linkId: item.linkId, reason };
  }
  return null;
}

/** Risk flags for the provider, from the answers to items still shown. */
export function riskFlags(
  questionnaire: Questionnaire,
  answers: Answers,
): (RiskFlag & { linkId: string })[] {
  const effective = effectiveAnswers(questionnaire, answers);
  const flags: (RiskFlag & { linkId: string })[] = [];
  for (const item of visibleItems(questionnaire, effective)) {
    const value = effective[item.linkId];
    if (value === undefined) continue;
    if (item.type === 'boolean' && item.flagWhen && value === item.flagWhen.answer)
      flags.push({ ...item.flagWhen.flag, linkId: item.linkId });
    const codes = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
    for (const code of codes) {
      const flag = item.options?.find((o) => o.code === code)?.flag;
      if (flag) flags.push({ ...flag, linkId: item.linkId });
    }
  }
  return flags;
}

/**
 * The first item asked without an acceptable answer, or null when the questionnaire is complete
 * (a known item is the visit's to answer, not the patient's).
 */
export function firstUnanswered(
  questionnaire: Questionnaire,
  answers: Answers,
): QuestionnaireItem | null {
  const effective = effectiveAnswers(questionnaire, answers);
  for (const item of askedItems(questionnaire, effective)) {
    if (item.type === 'display') continue;
    if (
      answerProblem(item, effective[item.linkId]) !== null ||
      (item.required !== false && effective[item.linkId] === undefined)
    )
      return item;
  }
  return null;
}

/** The item asked after `linkId` (or the first), skipping nothing the patient must see. */
export function nextItem(
  questionnaire: Questionnaire,
  answers: Answers,
  linkId?: string,
): QuestionnaireItem | null {
  const items = askedItems(questionnaire, answers);
  if (!linkId) return items[0] ?? null;
  const index = items.findIndex((i) => i.linkId === linkId);
  return index === -1
    ? (firstUnanswered(questionnaire, answers) ?? null)
    : (items[index + 1] ?? null);
}

/** The item asked before `linkId`, or null at the start. */
export function previousItem(
  questionnaire: Questionnaire,
  answers: Answers,
  linkId: string,
): QuestionnaireItem | null {
  const items = askedItems(questionnaire, answers);
  const index = items.findIndex((i) => i.linkId === linkId);
  return index > 0 ? (items[index - 1] ?? null) : null;
}

/** How far along: position of `linkId` among the items asked now, as {index (1-based), total}. */
export function progress(
  questionnaire: Questionnaire,
  answers: Answers,
  linkId: string | null,
): { index: number; total: number } {
  const shown = askedItems(questionnaire, answers);
  const questions = shown.filter((i) => i.type !== 'display');
  const total = questions.length;
  if (!linkId) return { index: total, total };
  // An introduction counts as the question that follows it, so the total stays put.
  const position = shown.findIndex((i) => i.linkId === linkId);
  if (position === -1) return { index: total, total };
  const upcoming = shown.slice(position).find((i) => i.type !== 'display');
  return { index: upcoming ? questions.indexOf(upcoming) + 1 : total, total };
}

/**
 * The questions the patient is shown, in order (no display items, no known items), given the
 * answers so far.
 */
export function shownQuestions(
  questionnaire: Questionnaire,
  answers: Answers,
): QuestionnaireItem[] {
  return askedItems(questionnaire, answers).filter((i) => i.type !== 'display');
}

/**
 * After an answer once every question is answered (the patient is changing one from the review of
 * answers): the first question after `linkId` still without an answer — one the change newly
 * shows, or an optional one not answered yet — or null when the patient goes back to the review.
 */
export function nextToAsk(
  questionnaire: Questionnaire,
  answers: Answers,
  linkId: string,
): QuestionnaireItem | null {
  const effective = effectiveAnswers(questionnaire, answers);
  const shown = shownQuestions(questionnaire, answers);
  const index = shown.findIndex((i) => i.linkId === linkId);
  return shown.slice(index + 1).find((i) => effective[i.linkId] === undefined) ?? null;
}
