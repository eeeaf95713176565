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
