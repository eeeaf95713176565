import type { AnswerOption, Questionnaire } from './format.ts';
import { type ItemChanges, intakeItem, newConditionsItems } from './reuse.ts';
import { sleepIntakeV1 } from './sleep-intake.v1.ts';

/**
 * Sleep (insomnia) renewal, version 1.0.0: the questionnaire a patient answers to renew a low-dose
 * doxepin prescription that is running out. It is much shorter than the Sleep intake: how well
 * treatment works and on how many nights sleep is still a problem, side effects (complex sleep
 * behaviours stop the renewal, as the hypnotic labels warn), drowsy driving, mood (PHQ-2 and the
 * self-harm question), pregnancy, sedating medicines and MAO inhibitors, alcohol, new conditions
 * and other medicines. The safety items are the intake's own (same linkIds, options and
 * knock-outs), so everything that stops an intake on them still stops a renewal.
 *
 * Prefilled from the last visit (`prefill: true`): lasting facts only — sex assigned at birth,
 * sedating medicines and other medicines — which the patient confirms or changes. Sleep, side
 * effects, driving, mood, thoughts of self-harm, pregnancy, MAO inhibitors (the last 2 weeks) and
 * alcohol are about now and are always answered fresh.
 *
 * Released versions are never edited: change the content in a new file (sleep-renewal.v1.1.ts, ...).
 */

const none: AnswerOption = { code: 'none', display: 'None of these', exclusive: true };

const item = (linkId: string, changes?: ItemChanges) => intakeItem(sleepIntakeV1, linkId, changes);

export const sleepRenewalV1: Questionnaire = {
  id: 'sleep-renewal',
  version: '1.0.0',
  category: 'sleep',
  purpose: 'renewal',
  title: 'Sleep treatment renewal',
  clinicalReview: {
    status: 'draft-requires-clinical-review',
    note: 'Written from public clinical guidance for software development. A licensed clinician must review and approve this content before production use.',
  },
  items: [
    {
      linkId: 'intro',
      type: 'display',
      text: "Welcome back. Renewing your sleep treatment takes about 5 minutes: we'll ask how you're sleeping, about side effects, your mood, and whether the medicines you take have changed. Some answers from your last visit are filled in for you to check. A licensed provider reads every answer before renewing your prescription. If you are thinking about harming yourself, call or text 988 now. In an emergency, call 911.",
    },
    // Your treatment
    {
      linkId: 'treatment_effect',
      type: 'choice',
      text: 'Since starting your sleep medicine, how are you sleeping?',
      options: [
        { code: 'better', display: 'I sleep better' },
        { code: 'a-little-better', display: 'I sleep a little better' },
        {
          code: 'no-better',
          display: "I don't sleep any better",
          flag: {
            code: 'doxepin-no-benefit',
            severity: 'caution',
            text: 'No benefit from low-dose doxepin: reconsider the cause (sleep apnea, mood, restless legs, circadian); offer CBT-I and sleep-habit guidance before a dose change.',
          },
        },
        {
          code: 'stopped',
          display: "I've stopped taking it",
          flag: {
            code: 'treatment-stopped',
            severity: 'caution',
            text: 'Patient has stopped the sleep medicine: ask why (side effects, no effect, no longer needed) before renewing.',
          },
        },
      ],
    },
    item('nights_per_week'),
    {
      linkId: 'side_effects',
      type: 'multi-choice',
      text: 'Since your last visit, have you had any of these while taking your sleep medicine?',
      options: [
        {
          code: 'next-day-drowsiness',
          display: 'Feeling drowsy or groggy the next day',
          flag: {
            code: 'next-day-impairment',
            severity: 'caution',
            text: 'Next-day drowsiness on doxepin: check dose timing (within 30 minutes of bed, not within 3 hours of a meal, 7 to 8 hours available); consider 3 mg; counsel about driving.',
          },
        },
        { code: 'dry-mouth', display: 'A dry mouth' },
        { code: 'dizziness', display: 'Dizziness' },
        {
          code: 'complex-sleep-behaviour',
          display:
            'Doing things while not fully awake — such as sleep-walking, sleep-driving or eating — that you may not remember',
          disqualify:
            "Doing things while not fully awake, such as walking, driving or eating, can happen with sleep medicines and can lead to serious injuries. Please stop taking your sleep medicine and talk with a doctor in person before taking it again. We can't renew it online after this. If you or someone else was hurt, get medical care now.",
        },
        none,
      ],
    },
    item('drowsy_driving'),
    // Mood
    item('mood_intro'),
    item('little_interest'),
    item('feeling_down'),
    item('self_harm_thoughts'),
    // Pregnancy, medicines and health
    item('sex_at_birth', { prefill: true }),
    item('pregnancy'),
    item('sedating_medicines', {
      prefill: true,
      helpText:
        "Don't count the doxepin we prescribe for you. Include medicines you take only sometimes.",
    }),
    item('maoi'),
    item('alcohol'),
    ...newConditionsItems('sleep apnea, glaucoma, urinary retention, new medicines'),
    item('other_medicines', { prefill: true }),
    item('other_medicines_list', { prefill: true }),
  ],
};
