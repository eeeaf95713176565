import { describe, expect, it } from 'vitest';
import { edIntakeV1 } from './ed-intake.v1.ts';
import { effectiveAnswers, firstDisqualification, firstUnanswered, riskFlags } from './engine.ts';
import type { Answers, Questionnaire } from './format.ts';
import { hairIntakeV1 } from './hair-intake.v1.ts';
import {
  compareVersions,
  createQuestionnaireRegistry,
  latestQuestionnaire,
  questionnaireVersion,
  questionnaires,
} from './registry.ts';
import { sleepIntakeV1 } from './sleep-intake.v1.ts';
import { sleepIntakeV1_1 } from './sleep-intake.v1.1.ts';

/**
 * Fingerprints of the versions a clinician has approved. Once a version is approved its content is
 * pinned here, so any later edit fails this test: make a new version instead. (None approved yet.)
 */
const approvedFingerprints: Record<string, string> = {};

/** FNV-1a over the JSON of a definition: enough to notice an edit. */
function fingerprint(questionnaire: Questionnaire): string {
  let hash = 0x811c9dc5;
  for (const char of JSON.stringify(questionnaire)) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** Answers stored for a visit answered on ED 1.0.0: an alpha-blocker, otherwise nothing of note. */
const storedVisit = {
  questionnaireId: 'ed-intake',
  questionnaireVersion: '1.0.0',
  answers: {
    ed_duration: '1-5-years',
    ed_onset: 'gradual',
    ed_frequency: 'sometimes',
    morning_erections: 'sometimes',
    low_libido: false,
    nitrates: ['none'],
    interacting_medicines: ['alpha-blocker'],
    chest_pain: false,
    heart_conditions: ['none'],
    exercise_tolerance: 'yes',
    bp_status: 'normal',
    bp_measured: 'yes-no-numbers',
    bp_date: '2026-05-01',
    conditions: ['none'],
    eye_ear_conditions: ['none'],
    penile_history: ['none'],
    ed_treatments_tried: ['none'],
    other_medicines: false,
    allergies: false,
    substances: ['none'],
  } satisfies Answers,
};

/**
 * A later ED version as someone might write it: alpha-blockers now disqualify, the morning
 * erections question is gone, and there is a new required question.
 */
function edIntakeV1_1(): Questionnaire {
  const next = structuredClone(edIntakeV1) as Questionnaire;
  next.version = '1.1.0';
  next.items = next.items.filter((i) => i.linkId !== 'morning_erections');
  const medicines = next.items.find((i) => i.linkId === 'interacting_medicines');
  const alpha = medicines?.options?.find((o) => o.code === 'alpha-blocker');
  if (!alpha) throw new Error('no alpha-blocker option');
  delete alpha.flag;
  alpha.disqualify = 'A changed rule: please see a doctor in person.';
  next.items.splice(1, 0, { linkId: 'new_question', type: 'boolean', text: 'A new question?' });
  return next;
}

describe('questionnaire registry', () => {
  it('holds every version once, each with a major.minor.patch version', () => {
    expect(questionnaires.map((q) => `${q.id}@${q.version}`)).toEqual([
      'ed-intake@1.0.0',
      'sleep-intake@1.0.0',
      'hair-intake@1.0.0',
      'ed-renewal@1.0.0',
      'sleep-renewal@1.0.0',
      'hair-renewal@1.0.0',
      'sleep-intake@1.1.0',
    ]);
    for (const q of questionnaires) expect(q.version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('gives the latest questionnaire per program', () => {
    expect(latestQuestionnaire('ed')).toBe(edIntakeV1);
    expect(latestQuestionnaire('sleep')).toBe(sleepIntakeV1_1);
    expect(latestQuestionnaire('hair')).toBe(hairIntakeV1);
    for (const category of ['ed', 'sleep', 'hair'] as const)
      expect(latestQuestionnaire(category).category).toBe(category);
  });

  it('finds an exact version, and undefined for an unknown id or version', () => {
    expect(questionnaireVersion('ed-intake', '1.0.0')).toBe(edIntakeV1);
    expect(questionnaireVersion('sleep-intake', '1.0.0')).toBe(sleepIntakeV1);
    expect(questionnaireVersion('sleep-intake', '1.1.0')).toBe(sleepIntakeV1_1);
    expect(questionnaireVersion('hair-intake', '1.0.0')).toBe(hairIntakeV1);
    expect(questionnaireVersion('ed-intake', '9.9.9')).toBeUndefined();
    expect(questionnaireVersion('ed-intake', '1.0')).toBeUndefined();
    expect(questionnaireVersion('weight-intake', '1.0.0')).toBeUndefined();
  });

  it('compares versions by number, not as text', () => {
    expect(compareVersions('1.10.0', '1.9.0')).toBeGreaterThan(0);
    expect(compareVersions('2.0.0', '10.0.0')).toBeLessThan(0);
    expect(compareVersions('1.0.0', '1.0.0')).toBe(0);
    expect(() => compareVersions('1.0', '1.0.0')).toThrow(/major.minor.patch/);
  });

  it('freezes registered versions, so a released version cannot be edited at run time', () => {
    const registered = questionnaireVersion('ed-intake', '1.0.0');
    expect(Object.isFrozen(registered)).toBe(true);
    expect(Object.isFrozen(registered?.items[0])).toBe(true);
    expect(Object.isFrozen(registered?.items.find((i) => i.options)?.options?.[0])).toBe(true);
    expect(() => {
      (edIntakeV1 as { version: string }).version = '1.0.1';
    }).toThrow(TypeError);
  });

  it('refuses a version registered twice, or a malformed version', () => {
    expect(() => createQuestionnaireRegistry([edIntakeV1, structuredClone(edIntakeV1)])).toThrow(
      /ed-intake@1.0.0 is registered twice/,
    );
    expect(() =>
      createQuestionnaireRegistry([{ ...structuredClone(edIntakeV1), version: 'v2' }]),
    ).toThrow(/major.minor.patch/);
  });

  it('keeps every approved version exactly as it was approved', () => {
    for (const q of questionnaires) {
      const key = `${q.id}@${q.version}`;
      if (q.clinicalReview.status === 'approved')
        expect(fingerprint(q), `${key} was edited after approval`).toBe(approvedFingerprints[key]);
      else expect(q.clinicalReview.note).toMatch(/licensed clinician must review and approve/);
    }
  });
});

describe('versioning: a new version does not change answers given to an earlier one', () => {
  const before = JSON.stringify(edIntakeV1);
  const next = edIntakeV1_1();
  const registry = createQuestionnaireRegistry([edIntakeV1, next, sleepIntakeV1, hairIntakeV1]);

  it('serves the new version to new visits, and the old one to visits answered on it', () => {
    expect(registry.latest('ed').version).toBe('1.1.0');
    expect(registry.version('ed-intake', '1.0.0')).toBe(edIntakeV1);
    expect(registry.version('ed-intake', '1.1.0')).toBe(next);
    expect(JSON.stringify(edIntakeV1)).toBe(before);
  });

  it('evaluates stored answers on the version they were given on', () => {
    const answeredOn = questionnaireVersion(
      storedVisit.questionnaireId,
      storedVisit.questionnaireVersion,
    );
    if (!answeredOn) throw new Error("the visit's version is missing");
    const { answers } = storedVisit;

    // On 1.0.0, as answered: complete, not disqualified, the alpha-blocker flagged.
    expect(firstDisqualification(answeredOn, answers)).toBeNull();
    expect(firstUnanswered(answeredOn, answers)).toBeNull();
    expect(riskFlags(answeredOn, answers).map((f) => f.code)).toEqual(['alpha-blocker']);
    expect(effectiveAnswers(answeredOn, answers)).toHaveProperty('morning_erections', 'sometimes');

    // The same answers read with 1.1.0 would give another result, which is why a visit keeps its
    // version: a disqualification the patient never saw, a missing answer, and a dropped one.
    expect(firstDisqualification(next, answers)).toEqual({
      linkId: 'interacting_medicines',
      reason: 'A changed rule: please see a doctor in person.',
    });
    expect(riskFlags(next, answers)).toEqual([]);
    expect(firstUnanswered(next, answers)?.linkId).toBe('new_question');
    expect(effectiveAnswers(next, answers)).not.toHaveProperty('morning_erections');
  });
});
