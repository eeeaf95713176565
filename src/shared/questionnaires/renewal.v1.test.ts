import { describe, expect, it } from 'vitest';
import { questionnaireKit } from '#test/questionnaire-kit.ts';
import { edIntakeV1 } from './ed-intake.v1.ts';
import { edRenewalV1 } from './ed-renewal.v1.ts';
import {
  answerProblem,
  firstDisqualification,
  firstUnanswered,
  riskFlags,
  shownQuestions,
} from './engine.ts';
import type { AnswerValue, Answers, Questionnaire, QuestionnaireItem } from './format.ts';
import { hairIntakeV1 } from './hair-intake.v1.ts';
import { hairRenewalV1 } from './hair-renewal.v1.ts';
import {
  latestQuestionnaire,
  latestRenewalQuestionnaire,
  questionnaireVersion,
} from './registry.ts';
import { intakeItem } from './reuse.ts';
import { sleepIntakeV1 } from './sleep-intake.v1.ts';
import { sleepRenewalV1 } from './sleep-renewal.v1.ts';

/** Questions about now: never prefilled from the last visit, whatever the program. */
const aboutNow = [
  'treatment_effect',
  'side_effects',
  'chest_pain',
  'heart_conditions',
  'bp_measured',
  'bp_systolic',
  'bp_diastolic',
  'bp_date',
  'self_harm_thoughts',
  'pregnancy',
  'pregnancy_potential',
  'household_pregnancy',
  'depression',
  'little_interest',
  'feeling_down',
  'drowsy_driving',
  'nights_per_week',
  'maoi',
  'alcohol',
  'new_conditions',
  'new_conditions_details',
];

/** The renewal's own items; every other item is the intake's, taken by linkId. */
const ownItems = [
  'intro',
  'treatment_effect',
  'side_effects',
  'new_conditions',
  'new_conditions_details',
];

interface Case {
  title: string;
  renewal: Questionnaire;
  intake: Questionnaire;
  expected: { id: string; version: string; category: Questionnaire['category'] };
  /** A typical patient with nothing of note: every shown question answered. */
  typical: Answers;
  prefilled: string[];
  /** Answers that must stop the renewal, with where they stop it. */
  knockouts: { answers: Answers; linkId: string; reason: RegExp }[];
}

const cases: Case[] = [
  {
    title: 'ED renewal 1.0.0',
    renewal: edRenewalV1,
    intake: edIntakeV1,
    expected: { id: 'ed-renewal', version: '1.0.0', category: 'ed' },
    typical: {
      treatment_effect: 'works-well',
      side_effects: ['headache', 'stuffy-nose'],
      nitrates: ['none'],
      interacting_medicines: ['none'],
      chest_pain: false,
      heart_conditions: ['none'],
      bp_measured: 'yes-numbers',
      bp_systolic: 126,
      bp_diastolic: 80,
      bp_date: '2026-05-01',
      new_conditions: false,
      other_medicines: true,
      other_medicines_list: 'Atorvastatin 20 mg once a day',
      allergies: false,
    },
    prefilled: [
      'nitrates',
      'interacting_medicines',
      'other_medicines',
      'other_medicines_list',
      'allergies',
      'allergies_list',
    ],
    knockouts: [
      {
        answers: { nitrates: ['nitroglycerin'] },
        linkId: 'nitrates',
        reason: /nitrate.*blood pressure drop suddenly/is,
      },
      { answers: { nitrates: ['poppers'] }, linkId: 'nitrates', reason: /^Poppers/ },
      {
        answers: { interacting_medicines: ['riociguat'] },
        linkId: 'interacting_medicines',
        reason: /Riociguat/,
      },
      {
        answers: { side_effects: ['headache', 'vision-loss'] },
        linkId: 'side_effects',
        reason: /NAION.*stop taking your ED medicine and get medical care now/is,
      },
      {
        answers: { side_effects: ['hearing-loss'] },
        linkId: 'side_effects',
        reason: /hearing.*stop taking your ED medicine/is,
      },
      { answers: { chest_pain: true }, linkId: 'chest_pain', reason: /call 911/ },
      {
        answers: { heart_conditions: ['heart-attack-6-months'] },
        linkId: 'heart_conditions',
        reason: /6 months/,
      },
      { answers: { bp_systolic: 175 }, linkId: 'bp_systolic', reason: /blood pressure reading/ },
      { answers: { bp_diastolic: 45 }, linkId: 'bp_diastolic', reason: /blood pressure reading/ },
    ],
  },
  {
    title: 'Sleep renewal 1.0.0',
    renewal: sleepRenewalV1,
    intake: sleepIntakeV1,
    expected: { id: 'sleep-renewal', version: '1.0.0', category: 'sleep' },
    typical: {
      treatment_effect: 'better',
      nights_per_week: 2,
      side_effects: ['dry-mouth'],
      drowsy_driving: false,
      little_interest: 'not-at-all',
      feeling_down: 'several-days',
      self_harm_thoughts: false,
      sex_at_birth: 'female',
      pregnancy: ['none'],
      sedating_medicines: ['none'],
      maoi: false,
      alcohol: '1-7',
      new_conditions: false,
      other_medicines: false,
    },
    prefilled: ['sex_at_birth', 'sedating_medicines', 'other_medicines', 'other_medicines_list'],
    knockouts: [
      { answers: { self_harm_thoughts: true }, linkId: 'self_harm_thoughts', reason: /988/ },
      {
        answers: { side_effects: ['complex-sleep-behaviour'] },
        linkId: 'side_effects',
        reason: /stop taking your sleep medicine and talk with a doctor/,
      },
      { answers: { pregnancy: ['pregnant'] }, linkId: 'pregnancy', reason: /pregnancy/ },
      {
        answers: { sedating_medicines: ['opioids'] },
        linkId: 'sedating_medicines',
        reason: /opioids/,
      },
      { answers: { maoi: true }, linkId: 'maoi', reason: /MAO inhibitor/ },
    ],
  },
  {
    title: 'Hair renewal 1.0.0',
    renewal: hairRenewalV1,
    intake: hairIntakeV1,
    expected: { id: 'hair-renewal', version: '1.0.0', category: 'hair' },
    typical: {
      treatment_effect: 'better',
      side_effects: ['none'],
      sex_at_birth: 'male',
      household_pregnancy: false,
      depression: 'never',
      self_harm_thoughts: false,
      new_conditions: false,
      other_medicines: false,
      allergies: false,
    },
    prefilled: [
      'sex_at_birth',
      'other_medicines',
      'other_medicines_list',
      'allergies',
      'allergies_list',
    ],
    knockouts: [
      { answers: { self_harm_thoughts: true }, linkId: 'self_harm_thoughts', reason: /988/ },
      {
        answers: {
          sex_at_birth: 'female',
          pregnancy: ['pregnant'],
          pregnancy_potential: 'could-become-pregnant',
        },
        linkId: 'pregnancy',
        reason: /aren't safe during pregnancy/,
      },
      {
        answers: { sex_at_birth: 'female', pregnancy: ['planning'] },
        linkId: 'pregnancy',
        reason: /trying to become pregnant/,
      },
    ],
  },
];

/** An item as the intake has it: without what a renewal may change. */
function withoutRenewalChanges(i: QuestionnaireItem): QuestionnaireItem {
  const copy = { ...i };
  delete copy.prefill;
  delete copy.helpText;
  return copy;
}

describe.each(cases)('$title', ({ renewal, intake, expected, typical, prefilled, knockouts }) => {
  const kit = questionnaireKit(renewal, typical);

  it('is a draft renewal that a clinician must approve, with the intake clinicalReview', () => {
    expect(renewal).toMatchObject({ ...expected, purpose: 'renewal' });
    expect(renewal.title).toMatch(/renewal$/);
    expect(renewal.clinicalReview).toEqual(intake.clinicalReview);
    expect(renewal.clinicalReview.status).toBe('draft-requires-clinical-review');
  });

  it('is served by latestRenewalQuestionnaire, while latestQuestionnaire still gives the intake', () => {
    expect(latestRenewalQuestionnaire(expected.category)).toBe(renewal);
    // The newest intake (Sleep's is 1.1.0, whose items this renewal's match; it took them from 1.0.0).
    expect(latestQuestionnaire(expected.category)).toMatchObject({ id: intake.id });
    expect(latestQuestionnaire(expected.category).purpose ?? 'intake').toBe('intake');
    expect(questionnaireVersion(expected.id, expected.version)).toBe(renewal);
    expect(Object.isFrozen(renewal.items[0])).toBe(true);
  });

  it('has unique linkIds, and unique option codes within each item', () => {
    const ids = renewal.items.map((i) => i.linkId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const i of renewal.items) {
      const codes = (i.options ?? []).map((o) => o.code);
      expect(new Set(codes).size, i.linkId).toBe(codes.length);
    }
  });

  it('points every enableWhen at an earlier, answerable item of the renewal itself', () => {
    renewal.items.forEach((i, index) => {
      for (const condition of i.enableWhen ?? []) {
        const parent = renewal.items.findIndex((p) => p.linkId === condition.question);
        expect(parent, `${i.linkId} -> ${condition.question}`).toBeGreaterThanOrEqual(0);
        expect(parent, `${i.linkId} -> ${condition.question}`).toBeLessThan(index);
        expect(renewal.items[parent]?.type).not.toBe('display');
      }
    });
  });

  it('gives every multi-choice exactly one exclusive "None" option', () => {
    for (const i of renewal.items.filter((x) => x.type === 'multi-choice')) {
      const exclusive = i.options?.filter((o) => o.exclusive) ?? [];
      expect(
        exclusive.map((o) => o.display),
        i.linkId,
      ).toEqual([expect.stringMatching(/^None/)]);
    }
  });

  it('takes every other item from the intake unchanged, apart from prefill and help text', () => {
    for (const i of renewal.items) {
      if (ownItems.includes(i.linkId)) continue;
      expect(withoutRenewalChanges(i), i.linkId).toEqual(
        withoutRenewalChanges(intakeItem(intake, i.linkId)),
      );
    }
    // The intake itself is untouched: taking its items never added prefill to it.
    expect(intake.items.filter((i) => 'prefill' in i)).toEqual([]);
  });

  it('asks nothing the visit knows, and its items are still the newest intake’s, so it needs no new version', () => {
    expect(renewal.items.filter((i) => i.known)).toEqual([]);
    const newest = latestQuestionnaire(expected.category);
    for (const i of renewal.items) {
      if (ownItems.includes(i.linkId)) continue;
      expect(withoutRenewalChanges(i), i.linkId).toEqual(
        withoutRenewalChanges(intakeItem(newest, i.linkId)),
      );
    }
  });

  it('prefills only lasting facts, each with the same linkId, type and options as the intake', () => {
    expect(renewal.items.filter((i) => i.prefill).map((i) => i.linkId)).toEqual(prefilled);
    for (const i of renewal.items.filter((x) => x.prefill)) {
      const previous = intake.items.find((p) => p.linkId === i.linkId);
      expect(previous, `${i.linkId} is in ${intake.id}`).toBeDefined();
      expect(i.type, i.linkId).toBe(previous?.type);
      if (i.type === 'choice' || i.type === 'multi-choice') {
        const codes = i.options?.map((o) => o.code) ?? [];
        for (const option of previous?.options ?? [])
          expect(codes, i.linkId).toContain(option.code);
      }
    }
    for (const i of renewal.items)
      if (aboutNow.includes(i.linkId)) expect(i.prefill, `${i.linkId} is about now`).toBeFalsy();
  });

  it('is complete for a typical patient, with nothing that stops it or flags it', () => {
    for (const [linkId, value] of Object.entries(typical))
      expect(answerProblem(kit.item(linkId), value), linkId).toBeNull();
    expect(firstUnanswered(renewal, typical)).toBeNull();
    expect(firstDisqualification(renewal, typical)).toBeNull();
    expect(riskFlags(renewal, typical)).toEqual([]);
  });

  it('asks a typical patient at most 16 questions', () => {
    expect(shownQuestions(renewal, typical).length).toBeLessThanOrEqual(16);
    // Every answer of the typical patient is to a question they are shown.
    const shown = shownQuestions(renewal, typical).map((i) => i.linkId);
    for (const linkId of Object.keys(typical)) expect(shown, linkId).toContain(linkId);
  });

  it.each(knockouts.map((k) => [Object.keys(k.answers).join(' + '), k] as const))(
    'still stops on %s',
    (_, k) => {
      const stopped = firstDisqualification(renewal, { ...typical, ...k.answers });
      expect(stopped?.linkId).toBe(k.linkId);
      expect(stopped?.reason).toMatch(k.reason);
    },
  );

  it('stops on every disqualifying answer in its definition, with the items that open it answered', () => {
    const all = kit.disqualifyingAnswers();
    expect(all.length).toBeGreaterThan(0);
    for (const d of all) {
      const value: AnswerValue = d.value;
      expect(answerProblem(kit.item(d.linkId), value), d.linkId).toBeNull();
      expect(d.reason.length, d.linkId).toBeGreaterThan(60);
      expect(
        firstDisqualification(renewal, { ...kit.opening(d.linkId), [d.linkId]: value }),
      ).toEqual({ linkId: d.linkId, reason: d.reason });
    }
  });

  it('keeps every knock-out of the intake items it reuses', () => {
    const reused = renewal.items.filter((i) => !ownItems.includes(i.linkId));
    const intakeKnockouts = questionnaireKit(intake, {})
      .disqualifyingAnswers()
      .filter((d) => reused.some((i) => i.linkId === d.linkId));
    const renewalKnockouts = kit.disqualifyingAnswers();
    for (const d of intakeKnockouts) expect(renewalKnockouts).toContainEqual(d);
  });
});

describe('ED renewal 1.0.0: specifics', () => {
  const typical = cases[0]?.typical ?? {};

  it('asks for blood pressure numbers only when known, and still stops on a reading out of range', () => {
    const noNumbers = { ...typical, bp_measured: 'yes-no-numbers', bp_systolic: 180 };
    expect(firstDisqualification(edRenewalV1, noNumbers)).toBeNull();
    expect(shownQuestions(edRenewalV1, noNumbers).map((i) => i.linkId)).not.toContain(
      'bp_systolic',
    );
    expect(
      shownQuestions(edRenewalV1, { ...typical, bp_measured: 'no' }).map((i) => i.linkId),
    ).not.toContain('bp_date');
  });

  it('flags the side effects a provider must weigh before renewing', () => {
    const flags = riskFlags(edRenewalV1, {
      ...typical,
      treatment_effect: 'not-working',
      side_effects: ['dizziness-fainting', 'long-erection'],
    });
    expect(flags.map((f) => `${f.code}:${f.severity}`)).toEqual([
      'pde5-not-working:caution',
      'pde5-hypotension:high',
      'pde5-priapism:high',
    ]);
  });

  it('asks about new conditions, with details when there are some', () => {
    const answers = { ...typical, new_conditions: true };
    expect(firstUnanswered(edRenewalV1, answers)?.linkId).toBe('new_conditions_details');
    expect(riskFlags(edRenewalV1, answers).map((f) => f.code)).toEqual(['new-condition']);
  });
});

describe('Sleep and Hair renewals 1.0.0: specifics', () => {
  it('asks about pregnancy only when female at birth, and the hair household question only when male', () => {
    const sleep = cases[1]?.typical ?? {};
    expect(
      shownQuestions(sleepRenewalV1, { ...sleep, sex_at_birth: 'male' }).map((i) => i.linkId),
    ).not.toContain('pregnancy');
    const hair = cases[2]?.typical ?? {};
    const female = shownQuestions(hairRenewalV1, { ...hair, sex_at_birth: 'female' }).map(
      (i) => i.linkId,
    );
    expect(female).toEqual(expect.arrayContaining(['pregnancy', 'pregnancy_potential']));
    expect(female).not.toContain('household_pregnancy');
  });

  it('tells a doxepin patient not to count the doxepin we prescribe as another sleep medicine', () => {
    const sedating = sleepRenewalV1.items.find((i) => i.linkId === 'sedating_medicines');
    expect(sedating?.helpText).toMatch(/Don't count the doxepin we prescribe/);
  });

  it('flags the hair side effects that need a provider before renewing', () => {
    const hair = cases[2]?.typical ?? {};
    const flags = riskFlags(hairRenewalV1, {
      ...hair,
      side_effects: ['sexual', 'breast-changes', 'unwanted-hair', 'swelling-heartbeat'],
    });
    expect(flags.map((f) => `${f.code}:${f.severity}`)).toEqual([
      'finasteride-sexual:caution',
      'finasteride-breast:high',
      'minoxidil-hypertrichosis:info',
      'minoxidil-cardiovascular:high',
    ]);
  });
});

describe('intakeItem', () => {
  it('throws on a linkId the intake does not have', () => {
    expect(() => intakeItem(edIntakeV1, 'no_such_item')).toThrow(
      /ed-intake@1.0.0 has no item no_such_item/,
    );
  });
});
