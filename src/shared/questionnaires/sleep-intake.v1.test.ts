import { describe, expect, it } from 'vitest';
import { describeDefinitionRules, questionnaireKit } from '#test/questionnaire-kit.ts';
import {
  answerProblem,
  effectiveAnswers,
  firstDisqualification,
  firstUnanswered,
  nextItem,
  previousItem,
  progress,
  riskFlags,
  visibleItems,
} from './engine.ts';
import type { Answers, QuestionnaireItem } from './format.ts';
import { sleepIntakeV1 as questionnaire } from './sleep-intake.v1.ts';

/** A patient with no contraindications and nothing to flag: every shown question answered. */
const healthy: Answers = {
  age: 45,
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

/** The same patient assigned female at birth, not pregnant or breastfeeding. */
const healthyFemale: Answers = { ...healthy, sex_at_birth: 'female', pregnancy: ['none'] };

const kit = questionnaireKit(questionnaire, healthy);
const { item, opening, disqualifyingAnswers, shownIds } = kit;

describeDefinitionRules(
  questionnaire,
  'Sleep intake 1.0.0',
  { id: 'sleep-intake', version: '1.0.0', category: 'sleep' },
  kit,
);

describe('Sleep intake 1.0.0: disqualifying answers', () => {
  const all = disqualifyingAnswers();

  it('has the disqualifying answers a reviewer expects', () => {
    expect(all.map((d) => `${d.linkId}=${JSON.stringify(d.value)}`)).toEqual([
      'age=18',
      'age=100',
      'pregnancy=["pregnant"]',
      'pregnancy=["may-be-pregnant"]',
      'pregnancy=["breastfeeding"]',
      'sleep_apnea_checked="untreated"',
      'sleep_apnea_checked="not-checked"',
      'self_harm_thoughts=true',
      'sedating_medicines=["opioids"]',
      'sedating_medicines=["benzodiazepines"]',
      'sedating_medicines=["sleep-medicines"]',
      'sedating_medicines=["other-sedatives"]',
      'maoi=true',
      'eye_bladder=["narrow-angle-glaucoma"]',
      'eye_bladder=["urinary-retention"]',
    ]);
  });

  it.each(all.map((d) => [`${d.linkId} = ${JSON.stringify(d.value)}`, d] as const))(
    '%s ends the visit with its reason',
    (_, d) => {
      expect(answerProblem(item(d.linkId), d.value), 'the patient can give this answer').toBeNull();
      expect(d.reason.length).toBeGreaterThan(60);
      const answers = { ...opening(d.linkId), [d.linkId]: d.value };
      expect(firstDisqualification(questionnaire, answers)).toEqual({
        linkId: d.linkId,
        reason: d.reason,
      });
    },
  );

  it('gives crisis resources (988, 911) for thoughts of self-harm', () => {
    const result = firstDisqualification(questionnaire, { ...healthy, self_harm_thoughts: true });
    expect(result?.linkId).toBe('self_harm_thoughts');
    expect(result?.reason).toMatch(/call or text 988/);
    expect(result?.reason).toMatch(/call 911/);
  });

  it('stops for opioids, benzodiazepines, MAO inhibitors, narrow-angle glaucoma and urinary retention', () => {
    const reason = (answers: Answers) =>
      firstDisqualification(questionnaire, { ...healthy, ...answers })?.reason;
    expect(reason({ sedating_medicines: ['opioids'] })).toMatch(/slow your breathing/);
    expect(reason({ sedating_medicines: ['benzodiazepines'] })).toMatch(/dangerous drowsiness/);
    expect(reason({ maoi: true })).toMatch(/within 2 weeks of an MAO inhibitor/);
    expect(reason({ eye_bladder: ['narrow-angle-glaucoma'] })).toMatch(/eye pressure/);
    expect(reason({ eye_bladder: ['urinary-retention'] })).toMatch(/pass urine/);
    expect(reason({ sedating_medicines: ['gabapentinoids', 'otc-sleep-aids'] })).toBeUndefined();
  });

  it('stops for pregnancy and breastfeeding, but only flags trying to conceive', () => {
    expect(
      firstDisqualification(questionnaire, { ...healthyFemale, pregnancy: ['breastfeeding'] })
        ?.reason,
    ).toMatch(/pregnancy or while breastfeeding/);
    const planning = { ...healthyFemale, pregnancy: ['planning'] };
    expect(firstDisqualification(questionnaire, planning)).toBeNull();
    expect(riskFlags(questionnaire, planning).map((f) => f.code)).toEqual(['planning-pregnancy']);
  });

  it('refers possible untreated sleep apnea for a sleep study, and lets treated sleep apnea continue', () => {
    const gasping = { ...healthy, breathing_at_night: ['loud-snoring', 'gasping'] };
    expect(
      firstDisqualification(questionnaire, { ...gasping, sleep_apnea_checked: 'not-checked' }),
    ).toMatchObject({
      linkId: 'sleep_apnea_checked',
      reason: expect.stringMatching(/sleep study/),
    });
    const treated = { ...gasping, sleep_apnea_checked: 'treated' };
    expect(firstDisqualification(questionnaire, treated)).toBeNull();
    expect(riskFlags(questionnaire, treated).map((f) => f.code)).toEqual([
      'loud-snoring',
      'nocturnal-gasping',
      'osa-treated',
    ]);
  });

  it('answers with the first disqualifying answer in question order', () => {
    expect(
      firstDisqualification(questionnaire, {
        ...healthy,
        self_harm_thoughts: true,
        sedating_medicines: ['opioids'],
        maoi: true,
      })?.linkId,
    ).toBe('self_harm_thoughts');
  });
});

describe('Sleep intake 1.0.0: a healthy patient', () => {
  it.each([
    ['male', healthy],
    ['female', healthyFemale],
  ] as const)('completes with no disqualification and no flags (%s)', (_, answers) => {
    expect(effectiveAnswers(questionnaire, answers)).toEqual(answers);
    expect(firstDisqualification(questionnaire, answers)).toBeNull();
    expect(firstUnanswered(questionnaire, answers)).toBeNull();
    expect(riskFlags(questionnaire, answers)).toEqual([]);
  });

  it('is incomplete while a shown question is unanswered', () => {
    expect(firstUnanswered(questionnaire, { ...healthy, sex_at_birth: 'female' })?.linkId).toBe(
      'pregnancy',
    );
    const { maoi: _, ...missing } = healthy;
    expect(firstUnanswered(questionnaire, missing)?.linkId).toBe('maoi');
  });
});

describe('Sleep intake 1.0.0: branching', () => {
  it('asks about falls only from age 65, their date only after a fall, and drops both when the age changes', () => {
    expect(shownIds({ ...healthy, age: 64 })).not.toContain('falls');
    expect(shownIds({ ...healthy, age: 65 })).toContain('falls');
    const fell = { ...healthy, age: 78, falls: true, last_fall_date: '2026-08-02' };
    expect(shownIds(fell)).toContain('last_fall_date');
    expect(firstUnanswered(questionnaire, fell)).toBeNull();
    expect(shownIds({ ...fell, falls: false })).not.toContain('last_fall_date');
    const younger = effectiveAnswers(questionnaire, { ...fell, age: 60 });
    expect(younger).not.toHaveProperty('falls');
    expect(younger).not.toHaveProperty('last_fall_date');
  });

  it('asks about pregnancy only when assigned female at birth, and drops the answer after a change', () => {
    expect(shownIds(healthy)).not.toContain('pregnancy');
    expect(shownIds(healthyFemale)).toContain('pregnancy');
    const changed = { ...healthyFemale, pregnancy: ['pregnant'], sex_at_birth: 'male' };
    expect(effectiveAnswers(questionnaire, changed)).not.toHaveProperty('pregnancy');
    expect(firstDisqualification(questionnaire, changed)).toBeNull();
  });

  it('asks about a sleep study after breathing pauses or gasping, not after snoring alone', () => {
    expect(shownIds({ ...healthy, breathing_at_night: ['loud-snoring'] })).not.toContain(
      'sleep_apnea_checked',
    );
    for (const code of ['breathing-pauses', 'gasping'])
      expect(shownIds({ ...healthy, breathing_at_night: [code] })).toContain('sleep_apnea_checked');
    const stale = {
      ...healthy,
      breathing_at_night: ['none'],
      sleep_apnea_checked: 'not-checked',
    };
    expect(effectiveAnswers(questionnaire, stale)).not.toHaveProperty('sleep_apnea_checked');
    expect(firstDisqualification(questionnaire, stale)).toBeNull();
  });

  it('asks "Which medicines?" only after "yes" to other medicines', () => {
    const yes = { ...healthy, other_medicines: true, other_medicines_list: 'Sertraline 50 mg' };
    expect(shownIds(yes)).toContain('other_medicines_list');
    expect(effectiveAnswers(questionnaire, { ...yes, other_medicines: false })).not.toHaveProperty(
      'other_medicines_list',
    );
  });
});

describe('Sleep intake 1.0.0: risk flags', () => {
  it('flags falls in older adults, drowsy driving, restless legs and shift work', () => {
    const flags = riskFlags(questionnaire, {
      ...healthy,
      age: 80,
      falls: true,
      last_fall_date: '2026-10-01',
      restless_legs: true,
      shift_work: 'nights',
      drowsy_driving: true,
    });
    expect(flags.map((f) => [f.linkId, f.code, f.severity])).toEqual([
      ['restless_legs', 'possible-restless-legs', 'caution'],
      ['shift_work', 'shift-work', 'info'],
      ['drowsy_driving', 'drowsy-driving', 'high'],
      ['falls', 'falls-older-adult', 'high'],
    ]);
  });

  it('flags a positive PHQ-2 answer, heavy drinking and bipolar disorder', () => {
    const flags = riskFlags(questionnaire, {
      ...healthy,
      feeling_down: 'nearly-every-day',
      conditions: ['bipolar'],
      alcohol: 'heavy',
    });
    expect(flags.map((f) => f.code)).toEqual(['phq2-low-mood', 'bipolar', 'alcohol-heavy']);
  });
});

describe('Sleep intake 1.0.0: moving through the questions', () => {
  it('walks forward and back through exactly the shown items', () => {
    for (const answers of [healthy, healthyFemale]) {
      const shown = shownIds(answers);
      const forward: string[] = [];
      for (
        let i = nextItem(questionnaire, answers);
        i;
        i = nextItem(questionnaire, answers, i.linkId)
      )
        forward.push(i.linkId);
      expect(forward).toEqual(shown);
      const backward: string[] = [];
      for (
        let i: QuestionnaireItem | null = item(shown[shown.length - 1] as string);
        i;
        i = previousItem(questionnaire, answers, i.linkId)
      )
        backward.push(i.linkId);
      expect(backward).toEqual([...shown].reverse());
    }
  });

  it('steps into a follow-up right after the answer that opens it', () => {
    expect(nextItem(questionnaire, healthy, 'sex_at_birth')?.linkId).toBe('insomnia_duration');
    expect(nextItem(questionnaire, healthyFemale, 'sex_at_birth')?.linkId).toBe('pregnancy');
    expect(previousItem(questionnaire, healthyFemale, 'insomnia_duration')?.linkId).toBe(
      'pregnancy',
    );
    const older = { ...healthy, age: 70, falls: true };
    expect(nextItem(questionnaire, older, 'falls')?.linkId).toBe('last_fall_date');
  });

  it('counts progress over the shown questions', () => {
    const total = visibleItems(questionnaire, healthy).filter((i) => i.type !== 'display').length;
    expect(total).toBe(23);
    expect(progress(questionnaire, healthy, 'age')).toEqual({ index: 1, total });
    expect(progress(questionnaire, healthy, 'other_medicines')).toEqual({ index: total, total });
    expect(progress(questionnaire, healthy, null)).toEqual({ index: total, total });
    expect(progress(questionnaire, healthyFemale, null).total).toBe(total + 1);
    expect(progress(questionnaire, { ...healthy, age: 70, falls: true }, null).total).toBe(
      total + 2,
    );
  });
});
