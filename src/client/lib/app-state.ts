import { useSyncExternalStore } from 'react';
// zod/mini, not classic zod: read before every first render
// (docs/decisions/007-measured-quality.md).
import * as z from 'zod/mini';
import { limits, storageKeys } from '#shared/constants.ts';

/**
 * The application state of spec §3: login, user, orders and online visit. Only the login part
 * (`isVisible`, `isLoggedIn`) and the online-visit part are kept in local storage; the rest lives
 * for the page's lifetime. Server data is not here: it lives in the query cache (DESIGN §3).
 *
 * `isLoggedIn` is a hint for the header; whether a page may show member data is decided by the
 * server's verifyauthentication answer (see require-auth.tsx).
 */
export interface AppState {
  login: { isVisible: boolean; isLoggedIn: boolean };
  user: { userData: { leadsId: string | null } };
  onlineVisit: { user: Record<string, unknown> | null };
}

const PersistedStateSchema = z.object({
  login: z.object({ isVisible: z.boolean(), isLoggedIn: z.boolean() }),
  onlineVisit: z.object({ user: z.nullable(z.record(z.string(), z.unknown())) }),
});
type PersistedState = z.infer<typeof PersistedStateSchema>;

/** Where the persisted part is read from and written to; local storage in the browser. */
export interface StateStorage {
  getItem(key: string): string | null | Promise<string | null>;
  setItem(key: string, value: string): void;
}

function initialState(): AppState {
  return {
    login: { isVisible: false, isLoggedIn: false },
    user: { userData: { leadsId: readLeadsId() } },
    onlineVisit: { user: null },
  };
}

let state: AppState = initialState();
let storage: StateStorage | null = browserStorage();
const listeners = new Set<() => void>();

function browserStorage(): StateStorage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    // Storage can be switched off (some private modes): the app still works, it just forgets.
    return null;
  }
}

function persist() {
  const persisted: PersistedState = { login: state.login, onlineVisit: state.onlineVisit };
  try {
    storage?.setItem(storageKeys.persistedState, JSON.stringify(persisted));
  } catch {
    // Full or unavailable storage: keep going in memory.
  }
}

function update(next: AppState, save = true) {
  state = next;
  if (save) persist();
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getAppState(): AppState {
  return state;
}

/**
 * What a visitor without stored state has: what a prerendered page shows, and so what hydration
 * renders before this browser's state applies (the server snapshot below; boot/README.md).
 */
const visitorState: AppState = {
  login: { isVisible: false, isLoggedIn: false },
  user: { userData: { leadsId: null } },
  onlineVisit: { user: null },
};

/**
 * Reads one slice of the state and re-renders when it changes. Hydration reads the visitor's
 * slice, then re-renders with this browser's at once.
 */
export function useAppState<T>(select: (current: AppState) => T): T {
  return useSyncExternalStore(
    subscribe,
    () => select(state),
    () => select(visitorState),
  );
}

/**
 * Spec §4 "Persisted state": read what the last visit stored, giving up after 5000 ms so a stuck
 * storage can never keep the app from starting. Whatever does not match the expected shape is
 * dropped. Resolves once the state is in place (rehydrated or not).
 */
export async function rehydrateAppState(
  from: StateStorage | null = browserStorage(),
  timeoutMs: number = limits.persistedStateTimeoutMs,
): Promise<'rehydrated' | 'empty' | 'timed-out'> {
  storage = from;
  if (!from) return 'empty';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<'timed-out'>((resolve) => {
    timer = setTimeout(() => resolve('timed-out'), timeoutMs);
  });
  const read = Promise.resolve()
    .then(() => from.getItem(storageKeys.persistedState))
    .catch(() => null);
  const raw = await Promise.race([read, timedOut]);
  clearTimeout(timer);
  if (raw === 'timed-out') return 'timed-out';
  const stored = parseStored(raw);
  if (!stored) return 'empty';
  update({ ...state, login: stored.login, onlineVisit: stored.onlineVisit }, false);
  return 'rehydrated';
}

function parseStored(raw: string | null): PersistedState | null {
  if (!raw) return null;
  try {
    const parsed = PersistedStateSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function setLoginVisible(isVisible: boolean): void {
  if (state.login.isVisible === isVisible) return;
  update({ ...state, login: { ...state.login, isVisible } });
}

export function setLoggedIn(isLoggedIn: boolean): void {
  if (state.login.isLoggedIn === isLoggedIn) return;
  update({ ...state, login: { ...state.login, isLoggedIn } });
}

export function setOnlineVisitUser(user: Record<string, unknown> | null): void {
  update({ ...state, onlineVisit: { user } });
}

// --- The leads id (spec §4 "Leads id") ---------------------------------------------------------

function readLeadsId(): string | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage.getItem(storageKeys.leadsId);
  } catch {
    return null;
  }
}

/**
 * Stores the leads id (on login, or from the inbound cookie). It is a routing and display hint
 * only: the server takes the customer from the session cookie (docs/decisions/003-sessions.md).
 */
export function setLeadsId(leadsId: string | null): void {
  try {
    if (leadsId) window.localStorage.setItem(storageKeys.leadsId, leadsId);
    else window.localStorage.removeItem(storageKeys.leadsId);
  } catch {
    // Unavailable storage: the in-memory value below still serves this page.
  }
  if (state.user.userData.leadsId === leadsId) return;
  update({ ...state, user: { userData: { leadsId } } }, false);
}

export function useLeadsId(): string | null {
  return useAppState((current) => current.user.userData.leadsId);
}

const LEADS_ID_COOKIE = 'leads_id';

/**
 * Spec §4: a leads id may arrive in a cookie (from a landing page or an email link). It is copied
 * to local storage and the cookie is removed. It grants nothing: protected pages still need the
 * server to say the session is authenticated.
 */
export function adoptLeadsIdCookie(doc: Document = document): string | null {
  const entry = doc.cookie
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${LEADS_ID_COOKIE}=`));
  if (!entry) return null;
  let value = entry.slice(LEADS_ID_COOKIE.length + 1);
  try {
    value = decodeURIComponent(value);
  } catch {
    // Not percent-encoded: use it as it is.
  }
  const expire = `${LEADS_ID_COOKIE}=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/`;
  doc.cookie = expire;
  const host = doc.location?.hostname;
  if (host && host.includes('.')) doc.cookie = `${expire}; Domain=${host}`;
  if (!value || value.length > 64) return null;
  setLeadsId(value);
  return value;
}

/**
 * Spec §4 "Logout": forget everything this browser kept (all local storage, the click id) and go
 * back to the logged-out state. The query cache is cleared by the caller.
 */
export function clearBrowserState(): void {
  update(
    {
      login: { isVisible: false, isLoggedIn: false },
      user: { userData: { leadsId: null } },
      onlineVisit: { user: null },
    },
    false,
  );
  try {
    window.localStorage.clear();
  } catch {
    // Nothing stored, nothing to clear.
  }
  try {
    for (const key of [
      storageKeys.clickId,
      storageKeys.returnPath,
      storageKeys.cartCoupon,
      storageKeys.checkoutKey,
      storageKeys.lastOrder,
      storageKeys.visitEligibility,
    ]) {
      window.sessionStorage.removeItem(key);
    }
  } catch {
    // As above.
  }
}

/** For tests: start from a fresh state read from the current storage. */
export function resetAppStateForTests(): void {
  storage = browserStorage();
  state = initialState();
  for (const listener of listeners) listener();
}
