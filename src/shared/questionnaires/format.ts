import { z } from 'zod';

/**
 * The intake questionnaire format: close to FHIR R4 `Questionnaire` (linkId, text, type, answer
 * options, enableWhen), with two additions a telehealth intake needs: answers that disqualify
 * (with the reason the patient is shown) and flags for the provider's risk assessment.
 *
 * A questionnaire is versioned data: a released version is never edited. A visit records the
 * version it was answered on, so a later version cannot change what an earlier patient answered.
 */

export const itemTypes = [
  'display',
  'boolean',
  'choice',
  'multi-choice',
  'text',
  'integer',
  'decimal',
  'date',
] as const;
export type ItemType = (typeof itemTypes)[number];

/**
 * What a visit knows before its first question, and so never asks: the patient's age, from the
 * date of birth given on the visit's first screen (eligibility).
 */
export const knownFacts = ['age'] as const;
export type KnownFact = (typeof knownFacts)[number];

export interface AnswerOption {
  /** Stable code stored as the answer. */
  code: string;
  /** What the patient reads. */
  display: string;
  /** Choosing it (alone, or among others) ends the visit with this reason. */
  disqualify?: string;
  /** A note for the provider's risk assessment when chosen. */
  flag?: RiskFlag;
  /** In a multi-choice: choosing it clears the others ("None of these"). */
  exclusive?: boolean;
}

export interface RiskFlag {
  code: string;
  severity: 'info' | 'caution' | 'high';
  text: string;
}

/** FHIR `enableWhen`: the item shows only when an earlier answer matches. */
export interface EnableWhen {
  question: string;
  operator: '=' | '!=' | 'exists' | '>' | '<' | '>=' | '<=' | 'includes';
  /** For '=' / '!=' / 'includes': an option code, or true/false for a boolean. For comparisons: a number. For 'exists': true or false. */
  answer: string | number | boolean;
}

export interface QuestionnaireItem {
  linkId: string;
  type: ItemType;
  text: string;
  /** Help shown under the question. */
  helpText?: string;
  required?: boolean;
  options?: AnswerOption[];
  /** For integer/decimal: allowed range, and a unit shown beside the input. */
  min?: number;
  max?: number;
  unit?: string;
  /** For text: longest answer. */
  maxLength?: number;
  enableWhen?: EnableWhen[];
  /** All conditions ('all', the default) or any one of them. */
  enableBehavior?: 'all' | 'any';
  /** For boolean: a "yes" (or "no") that disqualifies or flags. */
  disqualifyWhen?: { answer: boolean; reason: string };
  flagWhen?: { answer: boolean; flag: RiskFlag };
  /** For integer/decimal: values outside [min, max] of this range disqualify. */
  disqualifyOutside?: { min?: number; max?: number; reason: string };
  /**
   * A renewal's question whose answer is a lasting fact (the medicines taken, allergies): the
   * answer given to the same `linkId` at the patient's last visit is offered, for them to confirm
   * or change. Never on a question about now (a blood pressure reading, chest pain, side effects).
   */
  prefill?: boolean;
  /**
   * Answered by the visit, never by the patient: what it already knows (`'age'`: whole years on the
   * day the questions start, from the date of birth). The item is never asked and not counted in
   * the progress; its stored answer is read like any other (`enableWhen`, knock-outs, flags, the
   * provider's chart).
   */
  known?: KnownFact;
}

export interface Questionnaire {
  /** e.g. 'ed-intake' */
  id: string;
  /** Semantic version of the content; a released version never changes. */
  version: string;
  category: 'ed' | 'sleep' | 'hair';
  /** A first visit's intake (the default), or the short questionnaire that renews a prescription. */
  purpose?: 'intake' | 'renewal';
  title: string;
  /** Must be reviewed by a licensed clinician before production use. */
  clinicalReview: { status: 'draft-requires-clinical-review' | 'approved'; note: string };
  items: QuestionnaireItem[];
}

/** An answer as stored: a boolean, an option code, several codes, a string, or a number. */
export const AnswerValueSchema = z.union([
  z.boolean(),
  z.string().max(2000),
  z.array(z.string().max(200)).max(50),
  z.number(),
]);
export type AnswerValue = z.infer<typeof AnswerValueSchema>;
export type Answers = Record<string, AnswerValue>;
