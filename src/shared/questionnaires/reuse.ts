import type { Questionnaire, QuestionnaireItem } from './format.ts';

/** What a renewal may change on an intake's item: anything but its `linkId` and `type`. */
export type ItemChanges = Partial<Omit<QuestionnaireItem, 'linkId' | 'type'>>;

/**
 * An intake's item, taken by `linkId` into another questionnaire (a renewal): a deep copy, so the
 * intake itself is never touched, with `changes` laid over it (e.g. `{ prefill: true }`, or a
 * helpText that fits a renewal). The `linkId` and `type` stay the intake's, so an answer given to
 * the intake keeps its meaning in the renewal. Throws when the intake has no such item, so a
 * renamed or removed question fails at load time instead of silently going missing.
 */
export function intakeItem(
  intake: Questionnaire,
  linkId: string,
  changes: ItemChanges = {},
): QuestionnaireItem {
  const found = intake.items.find((i) => i.linkId === linkId);
  if (!found) throw new Error(`${intake.id}@${intake.version} has no item ${linkId}`);
  return { ...structuredClone(found), ...changes };
}

/**
 * The renewals' "since your last visit" pair: a new diagnosis, surgery or hospital stay (flagged
 * for the provider with `whatToReview`, the program's own concerns), and what happened.
 */
export function newConditionsItems(whatToReview: string): QuestionnaireItem[] {
  return [
    {
      linkId: 'new_conditions',
      type: 'boolean',
      text: 'Since your last visit, have you been diagnosed with a new health condition, had surgery, or stayed in hospital?',
      flagWhen: {
        answer: true,
        flag: {
          code: 'new-condition',
          severity: 'caution',
          text: `New diagnosis, surgery or hospital stay since the last visit: review the details (${whatToReview}) before renewing.`,
        },
      },
    },
    {
      linkId: 'new_conditions_details',
      type: 'text',
      text: 'What happened, and when?',
      helpText: 'Include any new medicines you were given.',
      maxLength: 1000,
      enableWhen: [{ question: 'new_conditions', operator: '=', answer: true }],
    },
  ];
}
