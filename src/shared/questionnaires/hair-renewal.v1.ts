import type { AnswerOption, Questionnaire } from './format.ts';
import { hairIntakeV1 } from './hair-intake.v1.ts';
import { type ItemChanges, intakeItem, newConditionsItems } from './reuse.ts';

/**
 * Hair (pattern hair loss) renewal, version 1.0.0: the questionnaire a patient answers to renew a
 * finasteride or minoxidil (tablet or scalp) prescription that is running out. It is much shorter
 * than the Hair intake: how the treatment is working, its side effects (sexual side effects and
 * breast changes with finasteride; unwanted hair growth, swelling or a fast heartbeat with oral
 * minoxidil; scalp irritation with topical minoxidil), pregnancy, mood and thoughts of self-harm,
 * new conditions, other medicines and allergies. The safety items are the intake's own (same
 * linkIds, options and knock-outs), so everything that stops an intake on them still stops a
 * renewal. Scalp photos are not asked for here.
 *
 * Prefilled from the last visit (`prefill: true`): lasting facts only — sex assigned at birth,
 * other medicines and allergies — which the patient confirms or changes. The effect of treatment,
 * side effects, pregnancy (and whether it is possible, or expected at home), depression and
 * thoughts of self-harm are about now and are always answered fresh.
 *
 * Released versions are never edited: change the content in a new file (hair-renewal.v1.1.ts, ...).
 */

const none: AnswerOption = { code: 'none', display: 'None of these', exclusive: true };

const item = (linkId: string, changes?: ItemChanges) => intakeItem(hairIntakeV1, linkId, changes);

export const hairRenewalV1: Questionnaire = {
  id: 'hair-renewal',
  version: '1.0.0',
  category: 'hair',
  purpose: 'renewal',
  title: 'Hair loss treatment renewal',
  clinicalReview: {
    status: 'draft-requires-clinical-review',
    note: 'Written from public clinical guidance for software development. A licensed clinician must review and approve this content before production use.',
  },
  items: [
    {
      linkId: 'intro',
      type: 'display',
      text: "Welcome back. Renewing your hair-loss treatment takes about 5 minutes: we'll ask how it's working, about side effects, your mood, and whether your health or the medicines you take have changed. Some answers from your last visit are filled in for you to check. A licensed provider reads every answer before renewing your prescription. If you have chest pain, fainting or sudden trouble breathing, call 911. If you are thinking about harming yourself, call or text 988.",
    },
    // Your treatment
    {
      linkId: 'treatment_effect',
      type: 'choice',
      text: 'Since starting your hair-loss treatment, how is your hair?',
      helpText: 'Treatment usually takes 6 to 12 months to show its full effect.',
      options: [
        { code: 'better', display: 'Less shedding, or some regrowth' },
        {
          code: 'same',
          display: 'About the same',
          flag: {
            code: 'hair-stable',
            severity: 'info',
            text: 'No visible change: stopping further loss is a success in pattern hair loss; full effect takes 6 to 12 months; check adherence.',
          },
        },
        {
          code: 'worse',
          display: 'More hair loss',
          flag: {
            code: 'hair-loss-progressing',
            severity: 'caution',
            text: 'Hair loss progressing on treatment: check adherence and duration (early shedding in the first months of minoxidil is common); consider adding or changing treatment, or a dermatologist.',
          },
        },
        {
          code: 'stopped',
          display: "I've stopped using it",
          flag: {
            code: 'treatment-stopped',
            severity: 'caution',
            text: 'Patient has stopped the hair-loss treatment: ask why (side effects, no effect, no longer wanted) before renewing.',
          },
        },
      ],
    },
    {
      linkId: 'side_effects',
      type: 'multi-choice',
      text: 'Since your last visit, have you had any of these while using your treatment?',
      options: [
        {
          code: 'sexual',
          display: 'Less interest in sex, or trouble getting or keeping an erection',
          flag: {
            code: 'finasteride-sexual',
            severity: 'caution',
            text: 'Sexual side effects (libido, erectile or ejaculatory) on finasteride: discuss continuing, a lower dose or topical alternatives.',
          },
        },
        {
          code: 'breast-changes',
          display: 'Breast tenderness, swelling or a lump',
          flag: {
            code: 'finasteride-breast',
            severity: 'high',
            text: 'Breast tenderness, enlargement or a lump on finasteride: evaluate in person (label: report breast changes; male breast cancer reported).',
          },
        },
        {
          code: 'unwanted-hair',
          display: 'Unwanted hair growth on your face or body',
          flag: {
            code: 'minoxidil-hypertrichosis',
            severity: 'info',
            text: 'Hypertrichosis (most often with oral minoxidil): dose-related; discuss a lower dose or topical minoxidil.',
          },
        },
        {
          code: 'swelling-heartbeat',
          display: 'Swelling of your ankles or feet, or a fast or pounding heartbeat',
          flag: {
            code: 'minoxidil-cardiovascular',
            severity: 'high',
            text: 'Fluid retention or tachycardia on oral minoxidil: assess in person (weight, blood pressure, heart rate; rule out pericardial effusion) before renewing; consider stopping or topical.',
          },
        },
        {
          code: 'scalp-irritation',
          display: 'Itching, redness or flaking of your scalp',
          flag: {
            code: 'topical-minoxidil-irritation',
            severity: 'info',
            text: 'Scalp irritation with topical minoxidil: often propylene glycol; consider the foam.',
          },
        },
        none,
      ],
    },
    // Pregnancy
    item('sex_at_birth', { prefill: true }),
    item('pregnancy'),
    item('pregnancy_potential'),
    item('household_pregnancy'),
    // Mood
    item('depression'),
    item('self_harm_thoughts'),
    // Health, medicines and allergies
    ...newConditionsItems(
      'heart or blood pressure before oral minoxidil, liver disease or prostate findings with finasteride',
    ),
    item('other_medicines', { prefill: true }),
    item('other_medicines_list', { prefill: true }),
    item('allergies', { prefill: true }),
    item('allergies_list', { prefill: true }),
    item('anything_else'),
  ],
};
