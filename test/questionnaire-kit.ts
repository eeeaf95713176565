import { describe, expect, it } from 'vitest';
import { effectiveAnswers, visibleItems } from '#shared/questionnaires/engine.ts';
import type {
  AnswerValue,
  Answers,
  EnableWhen,
  Questionnaire,
  QuestionnaireItem,
} from '#shared/questionnaires/format.ts';

/**
 * What every questionnaire's tests share: helpers that read the definition itself (an answer that
 * opens a question, every disqualifying answer) and the rules every definition must keep.
 */
export function questionnaireKit(questionnaire: Questionnaire, healthy: Answers) {
  function item(linkId: string): QuestionnaireItem {
    const found = questionnaire.items.find((i) => i.linkId === linkId);
    if (!found) throw new Error(`no item ${linkId}`);
    return found;
  }

  /** An acceptable answer that neither disqualifies nor opens anything by itself. */
  function plainAnswer(target: QuestionnaireItem): AnswerValue {
    switch (target.type) {
      case 'boolean':
        return target.disqualifyWhen?.answer === false ? true : false;
      case 'choice':
        return target.options?.find((o) => !o.disqualify)?.code ?? '';
      case 'multi-choice':
        return [target.options?.find((o) => o.exclusive)?.code ?? ''];
      case 'integer':
      case 'decimal':
        return target.disqualifyOutside?.min ?? target.min ?? 0;
      case 'date':
        return '2026-01-15';
      default:
        return 'Some details.';
    }
  }

  /** A value for `condition.question` that meets the condition (undefined: leave it unanswered). */
  function satisfying(
    condition: EnableWhen,
    current: AnswerValue | undefined,
  ): AnswerValue | undefined {
    const { answer } = condition;
    switch (condition.operator) {
      case '=':
        return answer;
      case 'includes':
        return [String(answer)];
      case '>':
        return Number(answer) + 1;
      case '<':
        return Number(answer) - 1;
      case '>=':
      case '<=':
        return Number(answer);
      case '!=': {
        const parent = item(condition.question);
        if (parent.type === 'boolean') return !answer;
        return parent.options?.find((o) => o.code !== answer && !o.disqualify)?.code;
      }
      case 'exists':
        return answer ? (current ?? plainAnswer(item(condition.question))) : undefined;
    }
  }

  /** `base` changed as little as possible so that `linkId` is shown (opening its parents first). */
  function opening(linkId: string, base: Answers = healthy): Answers {
    const target = item(linkId);
    const conditions =
      target.enableBehavior === 'any' ? (target.enableWhen ?? []).slice(0, 1) : target.enableWhen;
    let answers = { ...base };
    for (const condition of conditions ?? []) {
      answers = opening(condition.question, answers);
      const value = satisfying(condition, answers[condition.question]);
      if (value === undefined) delete answers[condition.question];
      else answers[condition.question] = value;
    }
    return answers;
  }

  /** Every disqualifying answer in the data, read from the definition itself. */
  function disqualifyingAnswers(): { linkId: string; value: AnswerValue; reason: string }[] {
    const found: { linkId: string; value: AnswerValue; reason: string }[] = [];
    for (const i of questionnaire.items) {
      if (i.disqualifyWhen)
        found.push({
          linkId: i.linkId,
          value: i.disqualifyWhen.answer,
          reason: i.disqualifyWhen.reason,
        });
      for (const o of i.options ?? [])
        if (o.disqualify)
          found.push({
            linkId: i.linkId,
            value: i.type === 'multi-choice' ? [o.code] : o.code,
            reason: o.disqualify,
          });
      if (i.disqualifyOutside) {
        const { min, max, reason } = i.disqualifyOutside;
        if (min !== undefined) found.push({ linkId: i.linkId, value: min - 1, reason });
        if (max !== undefined) found.push({ linkId: i.linkId, value: max + 1, reason });
      }
    }
    return found;
  }

  const shownIds = (answers: Answers) =>
    visibleItems(questionnaire, effectiveAnswers(questionnaire, answers)).map((i) => i.linkId);

  return { item, plainAnswer, opening, disqualifyingAnswers, shownIds };
}

/** The rules every questionnaire definition keeps, whatever its content. */
export function describeDefinitionRules(
  questionnaire: Questionnaire,
  title: string,
  expected: { id: string; version: string; category: string },
  kit: ReturnType<typeof questionnaireKit>,
) {
  const { opening, plainAnswer, shownIds } = kit;
  describe(`${title}: the definition`, () => {
    it('is a draft that a clinician must approve, with 15 to 30 items', () => {
      expect(questionnaire).toMatchObject(expected);
      expect(questionnaire.clinicalReview).toEqual({
        status: 'draft-requires-clinical-review',
        note: 'Written from public clinical guidance for software development. A licensed clinician must review and approve this content before production use.',
      });
      expect(questionnaire.items.length).toBeGreaterThanOrEqual(15);
      expect(questionnaire.items.length).toBeLessThanOrEqual(30);
      const types = new Set(questionnaire.items.map((i) => i.type));
      for (const type of [
        'display',
        'boolean',
        'choice',
        'multi-choice',
        'integer',
        'text',
        'date',
      ])
        expect(types, type).toContain(type);
    });

    it('has unique linkIds, and unique option codes within each item', () => {
      const ids = questionnaire.items.map((i) => i.linkId);
      expect(new Set(ids).size).toBe(ids.length);
      for (const i of questionnaire.items) {
        const codes = (i.options ?? []).map((o) => o.code);
        expect(new Set(codes).size, i.linkId).toBe(codes.length);
      }
    });

    it('points every enableWhen at an earlier item and at an answer that item can have', () => {
      questionnaire.items.forEach((i, index) => {
        for (const condition of i.enableWhen ?? []) {
          const parentIndex = questionnaire.items.findIndex((p) => p.linkId === condition.question);
          expect(parentIndex, `${i.linkId} -> ${condition.question}`).toBeGreaterThanOrEqual(0);
          expect(parentIndex, `${i.linkId} -> ${condition.question}`).toBeLessThan(index);
          const parent = questionnaire.items[parentIndex] as QuestionnaireItem;
          expect(parent.type, `${i.linkId} -> ${condition.question}`).not.toBe('display');
          if (condition.operator === 'exists') expect(typeof condition.answer).toBe('boolean');
          else if (parent.type === 'boolean') {
            expect(['=', '!=']).toContain(condition.operator);
            expect(typeof condition.answer).toBe('boolean');
          } else if (parent.type === 'choice') {
            expect(['=', '!=']).toContain(condition.operator);
            expect(parent.options?.map((o) => o.code)).toContain(condition.answer);
          } else if (parent.type === 'multi-choice') {
            expect(condition.operator).toBe('includes');
            expect(parent.options?.map((o) => o.code)).toContain(condition.answer);
          } else if (parent.type === 'integer' || parent.type === 'decimal') {
            expect(typeof condition.answer).toBe('number');
          }
        }
      });
    });

    it('gives every multi-choice exactly one exclusive "None" option, and the right fields to each type', () => {
      for (const i of questionnaire.items) {
        if (i.type === 'choice' || i.type === 'multi-choice')
          expect(i.options?.length ?? 0, i.linkId).toBeGreaterThanOrEqual(2);
        else expect(i.options, i.linkId).toBeUndefined();
        if (i.type === 'multi-choice') {
          const exclusive = i.options?.filter((o) => o.exclusive) ?? [];
          expect(exclusive.length, i.linkId).toBe(1);
          expect(exclusive[0]?.display, i.linkId).toMatch(/^None/);
          expect(exclusive[0]?.disqualify, i.linkId).toBeUndefined();
        }
        if (i.type === 'integer' || i.type === 'decimal') {
          expect(i.unit, i.linkId).toBeTruthy();
          expect(i.min, i.linkId).toBeTypeOf('number');
          expect(i.max, i.linkId).toBeTypeOf('number');
        }
        if (i.type === 'text') expect(i.maxLength, i.linkId).toBeTypeOf('number');
        if (i.disqualifyWhen || i.flagWhen) expect(i.type, i.linkId).toBe('boolean');
      }
    });

    it('shows no conditional question before its opening answer is given', () => {
      const unconditional = questionnaire.items.filter((i) => !i.enableWhen).map((i) => i.linkId);
      expect(shownIds({})).toEqual(unconditional);
    });

    it.each(questionnaire.items.filter((i) => i.enableWhen).map((i) => [i.linkId, i] as const))(
      '%s is shown once opened, and its answer is dropped when the opening answer goes',
      (_, i) => {
        const opened = opening(i.linkId);
        expect(shownIds(opened)).toContain(i.linkId);
        const answered = { ...opened, [i.linkId]: plainAnswer(i) };
        expect(effectiveAnswers(questionnaire, answered)).toHaveProperty(i.linkId);
        const withdrawn = { ...answered };
        for (const condition of i.enableWhen ?? []) delete withdrawn[condition.question];
        expect(effectiveAnswers(questionnaire, withdrawn)).not.toHaveProperty(i.linkId);
      },
    );
  });
}
