import { edIntakeV1 } from './ed-intake.v1.ts';
import { edRenewalV1 } from './ed-renewal.v1.ts';
import type { Questionnaire } from './format.ts';
import { hairIntakeV1 } from './hair-intake.v1.ts';
import { hairRenewalV1 } from './hair-renewal.v1.ts';
import { sleepIntakeV1 } from './sleep-intake.v1.ts';
import { sleepIntakeV1_1 } from './sleep-intake.v1.1.ts';
import { sleepRenewalV1 } from './sleep-renewal.v1.ts';

/**
 * Every released questionnaire version, and the look-ups a visit needs: the latest version of a
 * program's questionnaire to start a new visit, and the exact version an existing visit was
 * answered on (a visit always stores `id` and `version` and is evaluated against that version).
 *
 * Versions are frozen on registration so nothing can edit a released version at run time.
 */

type Category = Questionnaire['category'];
type Purpose = NonNullable<Questionnaire['purpose']>;

const purposeOf = (questionnaire: Questionnaire): Purpose => questionnaire.purpose ?? 'intake';

const VERSION = /^(\d+)\.(\d+)\.(\d+)$/;

/** Compares two `major.minor.patch` versions numerically (so 1.10.0 is after 1.9.0). */
export function compareVersions(a: string, b: string): number {
  const pa = VERSION.exec(a);
  const pb = VERSION.exec(b);
  if (!pa || !pb) throw new Error(`Not a major.minor.patch version: ${pa ? b : a}`);
  for (let i = 1; i <= 3; i += 1) {
    const diff = Number(pa[i]) - Number(pb[i]);
    if (diff !== 0) return diff;
  }
  return 0;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

export interface QuestionnaireRegistry {
  all: readonly Questionnaire[];
  latest(category: Category, purpose?: Purpose): Questionnaire;
  version(id: string, version: string): Questionnaire | undefined;
}

/** A registry over a list of versions; throws on a malformed version or a duplicate id@version. */
export function createQuestionnaireRegistry(list: readonly Questionnaire[]): QuestionnaireRegistry {
  const byKey = new Map<string, Questionnaire>();
  for (const questionnaire of list) {
    if (!VERSION.test(questionnaire.version))
      throw new Error(`${questionnaire.id}: not a major.minor.patch version`);
    const key = `${questionnaire.id}@${questionnaire.version}`;
    if (byKey.has(key)) throw new Error(`${key} is registered twice`);
    byKey.set(key, deepFreeze(questionnaire));
  }
  const all = Object.freeze([...byKey.values()]);
  return {
    all,
    latest(category, purpose = 'intake') {
      let latest: Questionnaire | undefined;
      for (const q of all)
        if (
          q.category === category &&
          purposeOf(q) === purpose &&
          (!latest || compareVersions(q.version, latest.version) > 0)
        )
          latest = q;
      if (!latest) throw new Error(`No ${purpose} questionnaire for ${category}`);
      return latest;
    },
    version(id, version) {
      return byKey.get(`${id}@${version}`);
    },
  };
}

const registry = createQuestionnaireRegistry([
  edIntakeV1,
  sleepIntakeV1,
  hairIntakeV1,
  edRenewalV1,
  sleepRenewalV1,
  hairRenewalV1,
  sleepIntakeV1_1,
]);

/** All questionnaire versions, old and new. Add a new version here; never remove or edit one. */
export const questionnaires: readonly Questionnaire[] = registry.all;

/** The newest version for a program: what a new visit is answered on. */
export function latestQuestionnaire(category: Category): Questionnaire {
  return registry.latest(category);
}

/** The newest renewal questionnaire for a program: what a renewal visit is answered on. */
export function latestRenewalQuestionnaire(category: Category): Questionnaire {
  return registry.latest(category, 'renewal');
}

/** The exact version a visit was answered on, or undefined when unknown. */
export function questionnaireVersion(id: string, version: string): Questionnaire | undefined {
  return registry.version(id, version);
}
