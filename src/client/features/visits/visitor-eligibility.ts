import { storageKeys } from '#shared/constants.ts';
import { programCategories, type ProgramCategory } from '#shared/visits.ts';
import { sessionStore } from '#client/lib/safe-storage.ts';

/**
 * What a visitor answered on a visit's first screen, once the answer was "eligible": kept for this
 * tab only (a reload on the account step keeps it), never in local storage, and forgotten as soon
 * as the visit has it.
 */
export interface KeptEligibility {
  category: ProgramCategory;
  /** The state's two-letter code. */
  state: string;
  /** 'MM/DD/YYYY'. */
  dob: string;
}

export function keepEligibility(kept: KeptEligibility): void {
  sessionStore.set(storageKeys.visitEligibility, JSON.stringify(kept));
}

/** The visitor's answers for this program, if they gave them in this tab. */
export function keptEligibility(category: ProgramCategory): KeptEligibility | null {
  const raw = sessionStore.get(storageKeys.visitEligibility);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<Record<keyof KeptEligibility, unknown>>;
    const known = programCategories.find((c) => c === value.category);
    if (
      known !== category ||
      typeof value.state !== 'string' ||
      !/^[A-Z]{2}$/.test(value.state) ||
      typeof value.dob !== 'string' ||
      !/^\d{2}\/\d{2}\/\d{4}$/.test(value.dob)
    )
      return null;
    return { category: known, state: value.state, dob: value.dob };
  } catch {
    return null;
  }
}

export function forgetEligibility(): void {
  sessionStore.remove(storageKeys.visitEligibility);
}

/** What the visitor's check said, as the first screen passed it on (nothing was stored). */
export interface VisitorVerdict {
  reason: string | null;
  supplementSlug: string | null;
  /** The state was the reason: its waitlist is offered, and a way back to choose another. */
  closedState: string | null;
  /** The date of birth the visitor gave, for the first screen if they go back to it. */
  dob: string | null;
}
