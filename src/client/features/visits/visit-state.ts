import { programCategories, type ProgramCategory } from '#shared/visits.ts';
import { setOnlineVisitUser, useAppState } from '#client/lib/app-state.ts';

/**
 * The online-visit part of the persisted application state (spec §3 "Online visit: user"): which
 * visit this browser is working on, per program. Only ids live here, never answers; the server
 * decides where the visit is, so every screen still asks it.
 */
export interface VisitHint {
  visitId: number;
}

/** Visit ids per program, as kept under `key` of the stored user (`visits`, `renewals`). */
function idsOf(
  user: Record<string, unknown> | null,
  key: 'visits' | 'renewals',
): Partial<Record<ProgramCategory, number>> {
  const stored = user?.[key];
  if (!stored || typeof stored !== 'object') return {};
  const result: Partial<Record<ProgramCategory, number>> = {};
  for (const category of programCategories) {
    const value = (stored as Record<string, unknown>)[category];
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) result[category] = value;
  }
  return result;
}

const visitsOf = (user: Record<string, unknown> | null) => idsOf(user, 'visits');

export function useVisitId(category: ProgramCategory): number | null {
  return useAppState((state) => visitsOf(state.onlineVisit.user)[category] ?? null);
}

/**
 * Issue 29: the visits this browser opened as renewals, per program (their screens and steps are
 * a renewal's). Only ids, as for `visits`.
 */
const renewalsOf = (user: Record<string, unknown> | null) => idsOf(user, 'renewals');

/** Whether the program's visit in this browser is a renewal. */
export function useIsRenewal(category: ProgramCategory): boolean {
  return useAppState((state) => {
    const id = visitsOf(state.onlineVisit.user)[category];
    return id !== undefined && renewalsOf(state.onlineVisit.user)[category] === id;
  });
}

/** The program's visit is this renewal. */
export function rememberRenewal(
  current: Record<string, unknown> | null,
  category: ProgramCategory,
  visitId: number,
): void {
  setOnlineVisitUser({
    ...current,
    visits: { ...visitsOf(current), [category]: visitId },
    renewals: { ...renewalsOf(current), [category]: visitId },
  });
}

export function rememberVisit(
  current: Record<string, unknown> | null,
  category: ProgramCategory,
  visitId: number,
): void {
  setOnlineVisitUser({ ...current, visits: { ...visitsOf(current), [category]: visitId } });
}

/**
 * Where the server sends the patient next: only a path inside this visit's screens, so a bad
 * answer can never send the browser elsewhere.
 */
export function visitDestination(destination: string, category: ProgramCategory): string | null {
  const prefix = `/visit/${category}/`;
  if (!destination.startsWith(prefix)) return null;
  const step = destination.slice(prefix.length);
  return /^[a-z-]+$/.test(step) ? destination : null;
}
