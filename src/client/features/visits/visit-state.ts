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

function visitsOf(user: Record<string, unknown> | null): Partial<Record<ProgramCategory, number>> {
  const stored = user?.visits;
  if (!stored || typeof stored !== 'object') return {};
  const result: Partial<Record<ProgramCategory, number>> = {};
  for (const category of programCategories) {
    const value = (stored as Record<string, unknown>)[category];
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) result[category] = value;
  }
  return result;
}

export function useVisitId(category: ProgramCategory): number | null {
  return useAppState((state) => visitsOf(state.onlineVisit.user)[category] ?? null);
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
