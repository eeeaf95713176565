import { storageKeys } from '#shared/constants.ts';
import { paths } from '#shared/paths.ts';
import { sessionStore } from '#client/lib/safe-storage.ts';

/** Where a visitor was going when a protected page sent them to /login (spec §2, §4). */
export interface ReturnState {
  from?: string;
}

const neverReturnTo = new Set<string>([
  paths.login,
  paths.signup,
  paths.resetPassword,
  paths.logout,
]);

/**
 * Only a path on this site may be a return target: `//evil.example` and `/\evil.example` are
 * other sites to a browser, and the log-in screens themselves would loop.
 */
export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== 'string' || !value.startsWith('/')) return null;
  if (value.startsWith('//') || value.startsWith('/\\')) return null;
  const pathname = value.split(/[?#]/)[0] ?? '';
  if (neverReturnTo.has(pathname)) return null;
  return value;
}

/**
 * Kept for the tab (session storage) so it survives a reload of /login or a detour to /signup.
 * Without storage the router state still carries it.
 */
export function rememberReturnPath(path: string): void {
  const safe = safeReturnPath(path);
  if (safe) sessionStore.set(storageKeys.returnPath, safe);
}

export function readReturnPath(state: unknown): string {
  return (
    safeReturnPath((state as ReturnState | null)?.from) ??
    safeReturnPath(sessionStore.get(storageKeys.returnPath)) ??
    paths.dashboard
  );
}

export function forgetReturnPath(): void {
  sessionStore.remove(storageKeys.returnPath);
}

/** An invitation's token as its link carries it (`/signup?partnerInvite=`): 43 URL-safe characters. */
export function partnerInviteOf(search: URLSearchParams): string | null {
  const token = search.get('partnerInvite');
  return token && /^[\w-]{43}$/.test(token) ? token : null;
}

/** Where a partner's invitation is answered: the partner page, showing it by its token. */
export function partnerInvitePath(token: string): string {
  return `${paths.partner}?invite=${encodeURIComponent(token)}`;
}
