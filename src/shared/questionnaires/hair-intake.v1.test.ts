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
import { hairIntakeV1 as questionnaire } from './hair-intake.v1.ts';

/** A man with pattern hair loss, no contraindications and nothing to flag. */
const healthy: Answers = {
  sex_at_birth: 'male',
  household_pregnancy: false,
  loss_pattern: 'hairline-and-crown',
  onset_age: 28,
  loss_duration: '1-5-years',
  scalp_symptoms: ['none'],
  triggers: ['none'],
  family_history: 'yes',
  conditions: ['none'],
  prostate: ['none'],
  psa_tested: false,
  depression: 'never',
  self_harm_thoughts: false,
  treatments_tried: ['none'],
  preference: 'no-preference',
  other_medicines: false,
  allergies: false,
};

/** A woman with pattern hair loss who cannot become pregnant, nothing to flag. */
const healthyFemale: Answers = {
  sex_at_birth: 'female',
  pregnancy: ['none'],
  pregnancy_potential: 'cannot-become-pregnant',
  loss_pattern: 'part-top',
  onset_age: 44,
  loss_duration: '1-5-years',
  scalp_symptoms: ['none'],
  triggers: ['none'],
  family_history: 'not-sure',
  conditions: ['none'],
  depression: 'never',
  self_harm_thoughts: false,
  treatments_tried: ['none'],
  preference: 'topical',
  other_medicines: false,
  allergies: false,
};

const kit = questionnaireKit(questionnaire, healthy);
const { item, opening, disqualifyingAnswers, shownIds } = kit;

describeDefinitionRules(
  questionnaire,
  'Hair intake 1.0.0',
  { id: 'hair-intake', version: '1.0.0', category: 'hair' },
  kit,
);

describe('Hair intake 1.0.0: disqualifying answers', () => {
  const all = disqualifyingAnswers();

  it('has the disqualifying answers a reviewer expects', () => {
    expect(all.map((d) => `${d.linkId}=${JSON.stringify(d.value)}`)).toEqual([
      'pregnancy=["pregnant"]',
      'pregnancy=["may-be-pregnant"]',
      'pregnancy=["breastfeeding"]',
      'pregnancy=["planning"]',
      'loss_pattern="patches"',
      'scalp_symptoms=["sudden-shedding"]',
      'scalp_symptoms=["scalp-inflammation"]',
      'scalp_symptoms=["scarring"]',
      'scalp_symptoms=["body-hair-loss"]',
      'self_harm_thoughts=true',
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

  it('sends patchy, sudden or inflamed hair loss to a dermatologist in person', () => {
    const reason = (answers: Answers) =>
      firstDisqualification(questionnaire, { ...healthy, ...answers })?.reason;
    expect(reason({ loss_pattern: 'patches' })).toMatch(/see a dermatologist in person/);
    expect(reason({ scalp_symptoms: ['sudden-shedding'] })).toMatch(/dermatologist/);
    expect(reason({ scalp_symptoms: ['flaking', 'scalp-inflammation'] })).toMatch(
      /examine your scalp soon/,
    );
    expect(reason({ scalp_symptoms: ['flaking'] })).toBeUndefined();
  });

  it('stops for pregnancy, possible pregnancy, breastfeeding and planning a pregnancy', () => {
    for (const code of ['pregnant', 'may-be-pregnant', 'breastfeeding', 'planning'])
      expect(
        firstDisqualification(questionnaire, { ...healthyFemale, pregnancy: [code] })?.reason,
      ).toMatch(/finasteride, and minoxidil/);
  });

  it('gives crisis resources (988, 911) for thoughts of self-harm', () => {
    const result = firstDisqualification(questionnaire, { ...healthy, self_harm_thoughts: true });
    expect(result?.reason).toMatch(/call or text 988/);
    expect(result?.reason).toMatch(/call 911/);
  });
});

describe('Hair intake 1.0.0: a healthy patient', () => {
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
    expect(firstUnanswered(questionnaire, { ...healthy, psa_tested: true })?.linkId).toBe(
      'psa_last_date',
    );
  });
});

describe('Hair intake 1.0.0: branching', () => {
  it('asks pregnancy questions only when assigned female at birth, prostate and PSA questions only when male', () => {
    const female = ['pregnancy', 'pregnancy_potential'];
    const male = ['household_pregnancy', 'prostate', 'psa_tested'];
    for (const id of female) expect(shownIds(healthyFemale)).toContain(id);
    for (const id of male) expect(shownIds(healthyFemale)).not.toContain(id);
    for (const id of male) expect(shownIds(healthy)).toContain(id);
    for (const id of female) expect(shownIds(healthy)).not.toContain(id);
    const changed = effectiveAnswers(questionnaire, { ...healthyFemale, sex_at_birth: 'male' });
    expect(changed).not.toHaveProperty('pregnancy');
    expect(changed).not.toHaveProperty('pregnancy_potential');
  });

  it('asks when the last PSA test was only after "yes", and drops the date after a change to "no"', () => {
    expect(shownIds(healthy)).not.toContain('psa_last_date');
    const tested = { ...healthy, psa_tested: true, psa_last_date: '2025-03-01' };
    expect(shownIds(tested)).toContain('psa_last_date');
    expect(firstUnanswered(questionnaire, tested)).toBeNull();
    expect(effectiveAnswers(questionnaire, { ...tested, psa_tested: false })).not.toHaveProperty(
      'psa_last_date',
    );
  });

  it('asks how a past treatment went only after minoxidil or a prescription, and for details only after side effects', () => {
    expect(shownIds({ ...healthy, treatments_tried: ['other'] })).not.toContain(
      'treatment_response',
    );
    const finasteride = { ...healthy, treatments_tried: ['finasteride', 'other'] };
    expect(shownIds(finasteride)).toContain('treatment_response');
    expect(shownIds({ ...finasteride, treatment_response: 'helped' })).not.toContain(
      'treatment_side_effects',
    );
    const sideEffects = {
      ...finasteride,
      treatment_response: 'side-effects',
      treatment_side_effects: 'Low libido after 3 months',
    };
    expect(firstUnanswered(questionnaire, sideEffects)).toBeNull();
    const none = effectiveAnswers(questionnaire, { ...sideEffects, treatments_tried: ['none'] });
    expect(none).not.toHaveProperty('treatment_response');
    expect(none).not.toHaveProperty('treatment_side_effects');
  });
});

describe('Hair intake 1.0.0: risk flags', () => {
  it('flags prostate cancer, PSA testing and depression for finasteride', () => {
    const flags = riskFlags(questionnaire, {
      ...healthy,
      prostate: ['prostate-cancer'],
      psa_tested: true,
      psa_last_date: '2025-11-01',
      depression: 'past',
    });
    expect(flags.map((f) => [f.linkId, f.code, f.severity])).toEqual([
      ['prostate', 'prostate-cancer', 'high'],
      ['psa_tested', 'psa-tested', 'info'],
      ['depression', 'depression-history-finasteride', 'caution'],
    ]);
  });

  it('flags low blood pressure and heart conditions for oral minoxidil', () => {
    const flags = riskFlags(questionnaire, {
      ...healthy,
      conditions: ['low-blood-pressure', 'heart-condition'],
    });
    expect(flags.map((f) => f.code)).toEqual([
      'hypotension-oral-minoxidil',
      'cardiac-oral-minoxidil',
    ]);
  });

  it('flags who must not handle crushed finasteride tablets, and a woman who could become pregnant', () => {
    expect(riskFlags(questionnaire, { ...healthy, household_pregnancy: true })).toEqual([
      expect.objectContaining({
        linkId: 'household_pregnancy',
        code: 'household-pregnancy-exposure',
        text: expect.stringMatching(/crushed or broken finasteride/),
      }),
    ]);
    expect(
      riskFlags(questionnaire, {
        ...healthyFemale,
        pregnancy_potential: 'could-become-pregnant',
      }).map((f) => f.code),
    ).toEqual(['childbearing-potential']);
  });
});

describe('Hair intake 1.0.0: moving through the questions', () => {
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
    expect(nextItem(questionnaire, healthy, 'sex_at_birth')?.linkId).toBe('household_pregnancy');
    expect(nextItem(questionnaire, healthyFemale, 'sex_at_birth')?.linkId).toBe('pregnancy');
    expect(nextItem(questionnaire, healthyFemale, 'pregnancy_potential')?.linkId).toBe(
      'hair_intro',
    );
    const tested = { ...healthy, psa_tested: true };
    expect(nextItem(questionnaire, tested, 'psa_tested')?.linkId).toBe('psa_last_date');
    expect(previousItem(questionnaire, tested, 'depression')?.linkId).toBe('psa_last_date');
  });

  it('counts progress over the shown questions', () => {
    const total = visibleItems(questionnaire, healthy).filter((i) => i.type !== 'display').length;
    expect(total).toBe(18);
    expect(progress(questionnaire, healthy, 'sex_at_birth')).toEqual({ index: 1, total });
    expect(progress(questionnaire, healthy, 'loss_pattern')).toEqual({ index: 3, total });
    expect(progress(questionnaire, healthy, 'anything_else')).toEqual({ index: total, total });
    expect(progress(questionnaire, healthyFemale, null).total).toBe(total - 1);
    expect(progress(questionnaire, { ...healthy, psa_tested: true }, null).total).toBe(total + 1);
  });
});
