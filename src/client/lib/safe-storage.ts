/**
 * The browser's storage, for the few things the spec keeps there (the cart, the leads id, the
 * click id, a checkout's idempotency key). Storage can be missing (the prerender in Node), full, or
 * refused (a private window, a blocked site): then a read finds nothing and a write is dropped,
 * and the page goes on — nothing here may break a page.
 */
export interface SafeStorage {
  get(key: string): string | null;
  set(key: string, value: string): void;
  remove(key: string): void;
  clear(): void;
}

function safe(pick: () => Storage): SafeStorage {
  const storage = (): Storage | null => {
    try {
      return typeof window === 'undefined' ? null : pick();
    } catch {
      return null;
    }
  };
  const attempt = <T>(action: (s: Storage) => T, otherwise: T): T => {
    try {
      const s = storage();
      return s ? action(s) : otherwise;
    } catch {
      return otherwise;
    }
  };
  return {
    get: (key) => attempt((s) => s.getItem(key), null),
    set: (key, value) => attempt((s) => s.setItem(key, value), undefined),
    remove: (key) => attempt((s) => s.removeItem(key), undefined),
    clear: () => attempt((s) => s.clear(), undefined),
  };
}

/** Kept across visits (spec §3: the cart, the leads id). */
export const localStore = safe(() => window.localStorage);
/** Kept for this tab only (the click id, the checkout's key, a return path). */
export const sessionStore = safe(() => window.sessionStorage);
