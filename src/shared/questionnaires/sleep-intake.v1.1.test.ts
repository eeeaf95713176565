import { describe, expect, it } from 'vitest';
import { describeDefinitionRules, questionnaireKit } from '#test/questionnaire-kit.ts';
import {
  firstDisqualification,
  firstUnanswered,
  knownAnswers,
  nextItem,
  previousItem,
  progress,
  riskFlags,
  shownQuestions,
} from './engine.ts';
import type { Answers, QuestionnaireItem } from './format.ts';
import { sleepIntakeV1 } from './sleep-intake.v1.ts';
import { sleepIntakeV1_1 as questionnaire } from './sleep-intake.v1.1.ts';

/**
 * The same healthy patient as 1.0.0's tests, aged 45: the age is the visit's answer, from the date
 * of birth, and every other shown question is the patient's.
 */
const asked: Answers = {
  sex_at_birth: 'male',
  insomnia_duration: '3-12-months',
  nights_per_week: 4,
  sleep_hours: 5.5,
  difficulty_falling_asleep: 'moderate',
  difficulty_staying_asleep: 'moderate',
  waking_too_early: 'mild',
  daytime_impact: 'somewhat',
  breathing_at_night: ['none'],
  restless_legs: false,
  shift_work: 'no',
  drowsy_driving: false,
  little_interest: 'not-at-all',
  feeling_down: 'several-days',
  self_harm_thoughts: false,
  sedating_medicines: ['none'],
  maoi: false,
  eye_bladder: ['none'],
  conditions: ['none'],
  alcohol: '1-7',
  substances: ['none'],
  other_medicines: false,
};
const healthy: Answers = { ...knownAnswers(questionnaire, { age: 45 }), ...asked };

const kit = questionnaireKit(questionnaire, healthy);

describeDefinitionRules(
  questionnaire,
  'Sleep intake 1.1.0',
  { id: 'sleep-intake', version: '1.1.0', category: 'sleep' },
  kit,
);

describe('Sleep intake 1.1.0: 1.0.0 with the age known from the date of birth', () => {
  it('changes only the age item: known, with help text saying where it comes from', () => {
    expect(questionnaire.items.map((i) => i.linkId)).toEqual(
      sleepIntakeV1.items.map((i) => i.linkId),
    );
    for (const [index, item] of questionnaire.items.entries()) {
      const before = sleepIntakeV1.items[index] as QuestionnaireItem;
      if (item.linkId === 'age') {
        const { known, helpText, ...rest } = item;
        expect(known).toBe('age');
        expect(helpText).toMatch(/date of birth you gave us, so we do not ask it again/);
        const { helpText: _, ...restBefore } = before;
        expect(rest).toEqual(restBefore);
      } else expect(item, item.linkId).toEqual(before);
    }
    expect({ ...questionnaire, items: [], version: '1.0.0' }).toEqual({
      ...sleepIntakeV1,
      items: [],
    });
    // 1.0.0 still asks it, as visits answered on it did.
    expect(sleepIntakeV1.items.filter((i) => i.known)).toEqual([]);
  });

  it('knows only the age', () => {
    expect(questionnaire.items.filter((i) => i.known).map((i) => [i.linkId, i.known])).toEqual([
      ['age', 'age'],
    ]);
  });

  it('never asks the age: the first question after the welcome is sex at birth', () => {
    expect(nextItem(questionnaire, {})?.linkId).toBe('intro');
    expect(nextItem(questionnaire, healthy, 'intro')?.linkId).toBe('sex_at_birth');
    expect(previousItem(questionnaire, healthy, 'sex_at_birth')?.linkId).toBe('intro');
    const forward: string[] = [];
    for (
      let i = nextItem(questionnaire, healthy);
      i;
      i = nextItem(questionnaire, healthy, i.linkId)
    )
      forward.push(i.linkId);
    expect(forward).not.toContain('age');
    expect(forward.filter((id) => !id.endsWith('intro'))).toEqual(Object.keys(asked));
    expect(shownQuestions(questionnaire, healthy).map((i) => i.linkId)).toEqual(Object.keys(asked));
  });

  it('counts one question fewer than 1.0.0, the age not among them', () => {
    const total = Object.keys(asked).length;
    expect(total).toBe(22);
    expect(progress(questionnaire, healthy, 'intro')).toEqual({ index: 1, total });
    expect(progress(questionnaire, healthy, 'sex_at_birth')).toEqual({ index: 1, total });
    expect(progress(questionnaire, healthy, 'other_medicines')).toEqual({ index: total, total });
    expect(progress(sleepIntakeV1, healthy, null).total).toBe(total + 1);
  });

  it('completes with the patient’s answers and the known age, with no stop and no flag', () => {
    expect(firstUnanswered(questionnaire, healthy)).toBeNull();
    expect(firstUnanswered(questionnaire, {})?.linkId).toBe('sex_at_birth');
    expect(firstDisqualification(questionnaire, healthy)).toBeNull();
    expect(riskFlags(questionnaire, healthy)).toEqual([]);
  });

  it('asks about falls when the date of birth makes the patient 65 or over, and flags a fall', () => {
    const older = { ...asked, ...knownAnswers(questionnaire, { age: 65 }) };
    expect(firstUnanswered(questionnaire, older)?.linkId).toBe('falls');
    expect(progress(questionnaire, older, 'falls').total).toBe(23);
    expect(
      shownQuestions(questionnaire, { ...asked, ...knownAnswers(questionnaire, { age: 64 }) }).map(
        (i) => i.linkId,
      ),
    ).not.toContain('falls');
    const fell = { ...older, falls: true, last_fall_date: '2026-08-02' };
    expect(firstUnanswered(questionnaire, fell)).toBeNull();
    expect(riskFlags(questionnaire, fell).map((f) => f.code)).toEqual(['falls-older-adult']);
  });

  it('keeps every knock-out of 1.0.0, the age outside 19 to 99 included', () => {
    expect(kit.disqualifyingAnswers()).toEqual(
      questionnaireKit(sleepIntakeV1, {}).disqualifyingAnswers(),
    );
    expect(firstDisqualification(questionnaire, { ...healthy, age: 18 })?.linkId).toBe('age');
  });
});
