import { disqualification } from '../src/shared/questionnaires/engine.ts';
import type { AnswerValue, QuestionnaireItem } from '../src/shared/questionnaires/format.ts';

// No test runner and no import aliases here: the API tests (test/visits.ts) and the browser
// journeys (e2e/visit-helpers.ts) both use it.

/** An answer that keeps a patient in the visit: the safe choice for every kind of question. */
export function safeAnswer(item: QuestionnaireItem): AnswerValue {
  const safe = (value: AnswerValue) => disqualification(item, value) === null;
  switch (item.type) {
    case 'boolean':
      return (
        [false, true].find((v) => safe(v) && !(item.flagWhen && v === item.flagWhen.answer)) ??
        false
      );
    case 'choice':
      return (
        item.options?.find((o) => !o.disqualify && !o.flag)?.code ??
        item.options?.find((o) => !o.disqualify)?.code ??
        ''
      );
    case 'multi-choice': {
      const exclusive = item.options?.find((o) => o.exclusive && !o.disqualify);
      return [exclusive?.code ?? item.options?.find((o) => !o.disqualify)?.code ?? ''];
    }
    case 'integer':
    case 'decimal': {
      const low = item.disqualifyOutside?.min ?? item.min ?? 0;
      const high = item.disqualifyOutside?.max ?? item.max ?? low + 10;
      return Math.round((low + high) / 2);
    }
    case 'date':
      return '2024-01-15';
    default:
      return 'Nothing to add.';
  }
}

/** An answer that would end the visit (a knock-out), for a question that has one. */
export function knockoutAnswer(item: QuestionnaireItem): AnswerValue {
  if (item.disqualifyWhen) return item.disqualifyWhen.answer;
  const code = item.options?.find((o) => o.disqualify)?.code ?? '';
  return item.type === 'multi-choice' ? [code] : code;
}
