import { edIntakeV1 } from './ed-intake.v1.ts';
import type { AnswerOption, Questionnaire } from './format.ts';
import { type ItemChanges, intakeItem, newConditionsItems } from './reuse.ts';

/**
 * ED (erectile dysfunction) renewal, version 1.0.0: the questionnaire a patient answers to renew a
 * sildenafil or tadalafil prescription that is running out. It is much shorter than the ED intake:
 * how well the medicine works, its side effects (including the label's warnings to stop and get
 * care: sudden vision or hearing loss), and what may have changed since the last visit — nitrates
 * and interacting medicines, chest pain, heart events, a blood pressure reading, new conditions,
 * other medicines and allergies. The safety items are the intake's own (same linkIds, options and
 * knock-outs), so everything that stops an intake still stops a renewal.
 *
 * Prefilled from the last visit (`prefill: true`): lasting facts only — nitrates, interacting
 * medicines, other medicines and allergies — which the patient confirms or changes. Chest pain,
 * heart events, blood pressure, side effects and the effect of treatment are about now and are
 * always answered fresh.
 *
 * Released versions are never edited: change the content in a new file (ed-renewal.v1.1.ts, ...).
 */

const none: AnswerOption = { code: 'none', display: 'None of these', exclusive: true };

const item = (linkId: string, changes?: ItemChanges) => intakeItem(edIntakeV1, linkId, changes);

const VISION_LOSS_REASON =
  "Sudden loss of vision while taking an ED medicine can be a sign of NAION, a loss of blood flow to the nerve of the eye. Please stop taking your ED medicine and get medical care now — go to an emergency room or see an eye doctor today. We can't renew ED treatment online after this; an eye doctor needs to examine you first.";

const HEARING_LOSS_REASON =
  "A sudden decrease or loss of hearing, sometimes with ringing in the ears or dizziness, has been reported with ED medicines. Please stop taking your ED medicine and get medical care now — see a doctor today. We can't renew ED treatment online after this; a doctor needs to examine you first.";

export const edRenewalV1: Questionnaire = {
  id: 'ed-renewal',
  version: '1.0.0',
  category: 'ed',
  purpose: 'renewal',
  title: 'ED treatment renewal',
  clinicalReview: {
    status: 'draft-requires-clinical-review',
    note: 'Written from public clinical guidance for software development. A licensed clinician must review and approve this content before production use.',
  },
  items: [
    {
      linkId: 'intro',
      type: 'display',
      text: "Welcome back. Renewing your ED treatment takes about 5 minutes: we'll ask how your medicine is working, about side effects, and whether anything about your heart, your blood pressure or the medicines you take has changed. Some answers from your last visit are filled in for you to check. A licensed provider reads every answer before renewing your prescription. If you have chest pain, pain spreading to your arm, neck or jaw, or sudden trouble breathing, stop now and call 911.",
    },
    // Your treatment
    {
      linkId: 'treatment_effect',
      type: 'choice',
      text: 'How well is your ED medicine working for you?',
      options: [
        { code: 'works-well', display: 'It works well' },
        { code: 'works-sometimes', display: 'It works some of the time' },
        {
          code: 'not-working',
          display: "It doesn't work for me",
          flag: {
            code: 'pde5-not-working',
            severity: 'caution',
            text: 'PDE5 inhibitor not working: check dose, timing (sildenafil with a heavy meal), attempts and sexual stimulation; consider a dose or medicine change, or urology.',
          },
        },
        {
          code: 'stopped',
          display: "I've stopped taking it",
          flag: {
            code: 'treatment-stopped',
            severity: 'caution',
            text: 'Patient has stopped the ED medicine: ask why (side effects, no effect, no longer needed) before renewing.',
          },
        },
      ],
    },
    {
      linkId: 'side_effects',
      type: 'multi-choice',
      text: 'Since your last visit, have you had any of these while taking your ED medicine?',
      helpText:
        'If you have an erection lasting more than 4 hours right now, go to an emergency room.',
      options: [
        { code: 'headache', display: 'Headache' },
        { code: 'flushing', display: 'Flushing (a warm, red face or neck)' },
        { code: 'stuffy-nose', display: 'A stuffy or runny nose' },
        { code: 'indigestion', display: 'Indigestion or heartburn' },
        { code: 'aches', display: 'Back or muscle aches' },
        {
          code: 'dizziness-fainting',
          display: 'Dizziness or fainting',
          flag: {
            code: 'pde5-hypotension',
            severity: 'high',
            text: 'Dizziness or fainting on a PDE5 inhibitor: possible hypotension; review blood pressure, alpha-blockers and other medicines before renewing.',
          },
        },
        {
          code: 'long-erection',
          display: 'An erection that lasted more than 4 hours',
          flag: {
            code: 'pde5-priapism',
            severity: 'high',
            text: 'Priapism on a PDE5 inhibitor: reassess the dose and the suitability of treatment before renewing.',
          },
        },
        {
          code: 'vision-loss',
          display: 'Sudden loss of vision in one or both eyes',
          disqualify: VISION_LOSS_REASON,
        },
        {
          code: 'hearing-loss',
          display: 'A sudden decrease or loss of hearing',
          disqualify: HEARING_LOSS_REASON,
        },
        none,
      ],
    },
    // What may have changed: medicines, heart and blood pressure
    item('nitrates', { prefill: true }),
    item('interacting_medicines', { prefill: true }),
    item('chest_pain'),
    item('heart_conditions'),
    item('bp_measured'),
    item('bp_systolic'),
    item('bp_diastolic'),
    item('bp_date'),
    ...newConditionsItems('cardiac events, new medicines'),
    // Other medicines and allergies
    item('other_medicines', { prefill: true }),
    item('other_medicines_list', { prefill: true }),
    item('allergies', { prefill: true }),
    item('allergies_list', { prefill: true }),
    item('anything_else'),
  ],
};
