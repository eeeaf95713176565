import { describe, expect, it } from 'vitest';
import { describeDefinitionRules, questionnaireKit } from '#test/questionnaire-kit.ts';
import { edIntakeV1 as questionnaire } from './ed-intake.v1.ts';
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
import type { AnswerValue, Answers, QuestionnaireItem } from './format.ts';

/** A patient with no contraindications and nothing to flag: every shown question answered. */
const healthy: Answers = {
  ed_duration: '1-5-years',
  ed_onset: 'gradual',
  ed_frequency: 'sometimes',
  morning_erections: 'sometimes',
  low_libido: false,
  nitrates: ['none'],
  interacting_medicines: ['none'],
  chest_pain: false,
  heart_conditions: ['none'],
  exercise_tolerance: 'yes',
  bp_status: 'normal',
  bp_measured: 'yes-numbers',
  bp_systolic: 124,
  bp_diastolic: 78,
  bp_date: '2026-06-01',
  conditions: ['none'],
  eye_ear_conditions: ['none'],
  penile_history: ['none'],
  ed_treatments_tried: ['none'],
  other_medicines: false,
  allergies: false,
  substances: ['none'],
};

const kit = questionnaireKit(questionnaire, healthy);
const { item, opening, disqualifyingAnswers, shownIds } = kit;

describeDefinitionRules(
  questionnaire,
  'ED intake 1.0.0',
  { id: 'ed-intake', version: '1.0.0', category: 'ed' },
  kit,
);

describe('ED intake 1.0.0: disqualifying answers', () => {
  const all = disqualifyingAnswers();

  it('has the disqualifying answers a reviewer expects', () => {
    expect(all.map((d) => `${d.linkId}=${JSON.stringify(d.value)}`)).toEqual([
      'nitrates=["nitroglycerin"]',
      'nitrates=["isosorbide"]',
      'nitrates=["poppers"]',
      'interacting_medicines=["riociguat"]',
      'interacting_medicines=["vericiguat"]',
      'interacting_medicines=["pde5-for-pah"]',
      'chest_pain=true',
      'heart_conditions=["heart-attack-6-months"]',
      'heart_conditions=["stroke-6-months"]',
      'heart_conditions=["arrhythmia-6-months"]',
      'heart_conditions=["unstable-angina"]',
      'heart_conditions=["severe-heart-failure"]',
      'exercise_tolerance="no-heart-breathing"',
      'bp_status="high-uncontrolled"',
      'bp_status="low"',
      'bp_systolic=89',
      'bp_systolic=171',
      'bp_diastolic=49',
      'bp_diastolic=111',
      'conditions=["severe-liver-disease"]',
      'conditions=["severe-kidney-disease"]',
      'eye_ear_conditions=["retinitis-pigmentosa"]',
      'eye_ear_conditions=["naion"]',
      'eye_ear_conditions=["unexplained-vision-loss"]',
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

  it('stops for nitrates, poppers and riociguat, and sends chest pain to 911', () => {
    expect(
      firstDisqualification(questionnaire, { ...healthy, nitrates: ['nitroglycerin'] })?.reason,
    ).toMatch(/nitrate.*blood pressure drop suddenly/is);
    expect(
      firstDisqualification(questionnaire, { ...healthy, nitrates: ['poppers'] })?.reason,
    ).toMatch(/^Poppers/);
    expect(
      firstDisqualification(questionnaire, { ...healthy, interacting_medicines: ['riociguat'] })
        ?.reason,
    ).toMatch(/Riociguat \(Adempas\) must not be taken/);
    expect(firstDisqualification(questionnaire, { ...healthy, chest_pain: true })?.reason).toMatch(
      /call 911/,
    );
    expect(
      firstDisqualification(questionnaire, {
        ...healthy,
        heart_conditions: ['heart-attack-6-months'],
      }),
    ).toMatchObject({ linkId: 'heart_conditions', reason: expect.stringMatching(/6 months/) });
    expect(
      firstDisqualification(questionnaire, {
        ...healthy,
        eye_ear_conditions: ['retinitis-pigmentosa'],
      })?.reason,
    ).toMatch(/retinitis pigmentosa/);
  });

  it('disqualifies on a blood pressure reading only when the patient gave one', () => {
    const low = { ...healthy, bp_systolic: 85 };
    expect(firstDisqualification(questionnaire, low)?.linkId).toBe('bp_systolic');
    expect(firstDisqualification(questionnaire, { ...low, bp_measured: 'yes-no-numbers' })).toBe(
      null,
    );
    expect(firstDisqualification(questionnaire, { ...healthy, bp_diastolic: 115 })?.linkId).toBe(
      'bp_diastolic',
    );
  });

  it('answers with the first disqualifying answer in question order, and an invalid mix still stops', () => {
    expect(
      firstDisqualification(questionnaire, {
        ...healthy,
        nitrates: ['poppers'],
        chest_pain: true,
        eye_ear_conditions: ['naion'],
      })?.linkId,
    ).toBe('nitrates');
    const mixed: AnswerValue = ['none', 'isosorbide'];
    expect(answerProblem(item('nitrates'), mixed)).not.toBeNull();
    expect(firstDisqualification(questionnaire, { ...healthy, nitrates: mixed })?.linkId).toBe(
      'nitrates',
    );
  });
});

describe('ED intake 1.0.0: a healthy patient', () => {
  it('completes with no disqualification and no flags', () => {
    expect(effectiveAnswers(questionnaire, healthy)).toEqual(healthy);
    expect(firstDisqualification(questionnaire, healthy)).toBeNull();
    expect(firstUnanswered(questionnaire, healthy)).toBeNull();
    expect(riskFlags(questionnaire, healthy)).toEqual([]);
  });

  it('is incomplete while a shown question is unanswered', () => {
    const { bp_systolic: _, ...missing } = healthy;
    expect(firstUnanswered(questionnaire, missing)?.linkId).toBe('bp_systolic');
    expect(firstUnanswered(questionnaire, { ...healthy, other_medicines: true })?.linkId).toBe(
      'other_medicines_list',
    );
  });
});

describe('ED intake 1.0.0: branching', () => {
  it('asks "Which medicines?" only after "yes" to other medicines, and drops the answer after a change to "no"', () => {
    expect(shownIds(healthy)).not.toContain('other_medicines_list');
    const yes = { ...healthy, other_medicines: true, other_medicines_list: 'Atorvastatin 20 mg' };
    expect(shownIds(yes)).toContain('other_medicines_list');
    expect(firstUnanswered(questionnaire, yes)).toBeNull();
    const no = { ...yes, other_medicines: false };
    expect(shownIds(no)).not.toContain('other_medicines_list');
    expect(effectiveAnswers(questionnaire, no)).not.toHaveProperty('other_medicines_list');
  });

  it('asks for the reading only when the patient knows it, and its date unless there was none', () => {
    const numbers = shownIds(healthy);
    expect(numbers).toEqual(expect.arrayContaining(['bp_systolic', 'bp_diastolic', 'bp_date']));
    const noNumbers = { ...healthy, bp_measured: 'yes-no-numbers' };
    expect(shownIds(noNumbers)).toContain('bp_date');
    expect(shownIds(noNumbers)).not.toContain('bp_systolic');
    expect(effectiveAnswers(questionnaire, noNumbers)).not.toHaveProperty('bp_systolic');
    const none = { ...healthy, bp_measured: 'no' };
    expect(shownIds(none)).not.toContain('bp_date');
    expect(effectiveAnswers(questionnaire, none)).not.toHaveProperty('bp_date');
  });

  it('asks about response and side effects after any tablet for ED, but not after other treatments', () => {
    const followUps = [
      'ed_treatment_response',
      'ed_treatment_side_effects',
      'ed_treatment_current',
    ];
    for (const code of ['sildenafil', 'tadalafil', 'vardenafil', 'avanafil'])
      expect(shownIds({ ...healthy, ed_treatments_tried: [code] })).toEqual(
        expect.arrayContaining(followUps),
      );
    const other = shownIds({ ...healthy, ed_treatments_tried: ['other-treatment'] });
    for (const id of followUps) expect(other).not.toContain(id);
    const answered = {
      ...healthy,
      ed_treatments_tried: ['tadalafil'],
      ed_treatment_response: 'well',
      ed_treatment_side_effects: ['none'],
      ed_treatment_current: true,
    };
    expect(firstUnanswered(questionnaire, answered)).toBeNull();
    const changed = effectiveAnswers(questionnaire, { ...answered, ed_treatments_tried: ['none'] });
    for (const id of followUps) expect(changed).not.toHaveProperty(id);
  });
});

describe('ED intake 1.0.0: risk flags', () => {
  it('flags alpha-blockers, sudden onset, priapism and penile deformity for the provider', () => {
    const flags = riskFlags(questionnaire, {
      ...healthy,
      ed_onset: 'sudden',
      interacting_medicines: ['alpha-blocker', 'other-bp-medicine'],
      penile_history: ['priapism', 'curvature'],
    });
    expect(flags.map((f) => [f.linkId, f.code, f.severity])).toEqual([
      ['ed_onset', 'ed-sudden-onset', 'caution'],
      ['interacting_medicines', 'alpha-blocker', 'caution'],
      ['interacting_medicines', 'antihypertensive', 'info'],
      ['penile_history', 'priapism-history', 'caution'],
      ['penile_history', 'penile-deformity', 'caution'],
    ]);
  });

  it('flags a yes/no answer and a past-treatment answer, but not answers to hidden questions', () => {
    expect(riskFlags(questionnaire, { ...healthy, low_libido: true })).toEqual([
      expect.objectContaining({ linkId: 'low_libido', code: 'low-libido' }),
    ]);
    const tried = {
      ...healthy,
      ed_treatments_tried: ['sildenafil'],
      ed_treatment_response: 'not-at-all',
      ed_treatment_side_effects: ['dizziness-fainting'],
      ed_treatment_current: false,
    };
    expect(riskFlags(questionnaire, tried).map((f) => f.code)).toEqual([
      'pde5-non-response',
      'pde5-hypotension',
    ]);
    expect(riskFlags(questionnaire, { ...tried, ed_treatments_tried: ['none'] })).toEqual([]);
  });
});

describe('ED intake 1.0.0: moving through the questions', () => {
  it('walks forward and back through exactly the shown items', () => {
    const shown = shownIds(healthy);
    const forward: string[] = [];
    for (
      let i = nextItem(questionnaire, healthy);
      i;
      i = nextItem(questionnaire, healthy, i.linkId)
    )
      forward.push(i.linkId);
    expect(forward).toEqual(shown);
    const backward: string[] = [];
    for (
      let i: QuestionnaireItem | null = item(shown[shown.length - 1] as string);
      i;
      i = previousItem(questionnaire, healthy, i.linkId)
    )
      backward.push(i.linkId);
    expect(backward).toEqual([...shown].reverse());
    expect(forward[0]).toBe('intro');
    expect(previousItem(questionnaire, healthy, 'intro')).toBeNull();
  });

  it('steps into a follow-up right after the answer that opens it', () => {
    const yes = { ...healthy, other_medicines: true };
    expect(nextItem(questionnaire, yes, 'other_medicines')?.linkId).toBe('other_medicines_list');
    expect(nextItem(questionnaire, healthy, 'other_medicines')?.linkId).toBe('allergies');
    expect(previousItem(questionnaire, yes, 'allergies')?.linkId).toBe('other_medicines_list');
  });

  it('counts progress over the shown questions', () => {
    const total = visibleItems(questionnaire, healthy).filter((i) => i.type !== 'display').length;
    expect(total).toBe(23);
    expect(progress(questionnaire, healthy, 'ed_duration')).toEqual({ index: 1, total });
    expect(progress(questionnaire, healthy, 'nitrates')).toEqual({ index: 6, total });
    expect(progress(questionnaire, healthy, 'substances')).toEqual({ index: total - 1, total });
    expect(progress(questionnaire, healthy, 'anything_else')).toEqual({ index: total, total });
    // The introduction counts as the first question, so the total never jumps.
    expect(progress(questionnaire, healthy, 'intro')).toEqual({ index: 1, total });
    expect(progress(questionnaire, healthy, null)).toEqual({ index: total, total });
    expect(progress(questionnaire, { ...healthy, other_medicines: true }, null).total).toBe(
      total + 1,
    );
    expect(progress(questionnaire, { ...healthy, bp_measured: 'no' }, null).total).toBe(total - 3);
  });
});
