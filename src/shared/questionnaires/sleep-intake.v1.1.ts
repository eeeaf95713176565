import type { Questionnaire, QuestionnaireItem } from './format.ts';
import { sleepIntakeV1 } from './sleep-intake.v1.ts';

/**
 * Sleep (insomnia) intake, version 1.1.0: version 1.0.0 with one change (issue 29). The age is no
 * longer asked right after the patient gave their date of birth: the `age` item is `known: 'age'`,
 * answered by the visit from that date of birth when the questions start, and not counted in the
 * progress. Its answer is stored and read as before: outside 19 to 99 it stops the visit, and from
 * 65 it opens the questions about falls. Every other item is 1.0.0's, unchanged.
 *
 * Visits answered on 1.0.0 keep it (and are still asked their age). Released versions are never
 * edited: change the content in a new file (sleep-intake.v1.2.ts, ...).
 */

const ageFromDateOfBirth: Partial<QuestionnaireItem> = {
  known: 'age',
  helpText:
    'Some questions and doses depend on age. It comes from the date of birth you gave us, so we do not ask it again.',
};

export const sleepIntakeV1_1: Questionnaire = {
  ...structuredClone(sleepIntakeV1),
  version: '1.1.0',
  items: sleepIntakeV1.items.map((item) => ({
    ...structuredClone(item),
    ...(item.linkId === 'age' ? ageFromDateOfBirth : {}),
  })),
};
