/**
 * Old links used hash routing (`/#/faq`). Rewrites them to the plain path (`/faq`) before the
 * router starts, keeping any query and fragment, and without adding a history entry.
 */
export function legacyHashTarget(hash: string): string | null {
  if (!hash.startsWith('#/')) return null;
  const target = hash.slice(1);
  return target.startsWith('//') ? null : target;
}

export function rewriteLegacyUrl(location: Location, history: History): void {
  const target = legacyHashTarget(location.hash);
  if (target) history.replaceState(history.state, '', target);
}
