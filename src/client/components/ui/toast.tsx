import { lazy, Suspense, useSyncExternalStore } from 'react';
import { limits } from '#shared/constants.ts';

export type ToastKind = 'success' | 'error' | 'info';

export interface ToastItem {
  id: number;
  kind: ToastKind;
  title: string;
  description?: string | undefined;
  open: boolean;
}

/**
 * A small toast store. Toasts queue: each waits the spec's 500 ms after the previous one, so a burst
 * of messages arrives one by one instead of all at once.
 */
let items: ToastItem[] = [];
let nextId = 1;
let lastShownAt = 0;
/** Set by the first toast: until then the page needs none of the toast's code (see `Toaster`). */
let anyShown = false;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function showToast(toast: { kind?: ToastKind; title: string; description?: string }): void {
  const item: ToastItem = {
    id: nextId++,
    kind: toast.kind ?? 'info',
    title: toast.title,
    description: toast.description,
    open: true,
  };
  const now = Date.now();
  const wait = Math.max(0, lastShownAt + limits.toastQueueDelayMs - now);
  lastShownAt = now + wait;
  const add = () => {
    anyShown = true;
    items = [...items, item];
    emit();
  };
  if (wait === 0) add();
  else setTimeout(add, wait);
}

export function closeToast(id: number): void {
  items = items.map((t) => (t.id === id ? { ...t, open: false } : t));
  emit();
  // Let the closing animation run before the element goes.
  setTimeout(() => {
    items = items.filter((t) => t.id !== id);
    emit();
  }, 200);
}

/** For tests. */
export function clearToasts(): void {
  items = [];
  lastShownAt = 0;
  anyShown = false;
  emit();
}

/**
 * The toasts as Radix draws them (swipe, pause on hover, F8), loaded with the first toast so a first
 * visit does not download it. Should that download fail (the connection dropped, which is also when
 * a toast is most likely), the toasts still show, as a plain list.
 */
const ToastList = lazy(() =>
  import('./toast-list.tsx').then(
    (module) => ({ default: module.ToastList }),
    () => ({ default: PlainToastList }),
  ),
);

export function Toaster() {
  const toasts = useSyncExternalStore(
    subscribe,
    () => items,
    () => items,
  );
  if (!anyShown) return null;
  return (
    <Suspense fallback={null}>
      <ToastList toasts={toasts} />
    </Suspense>
  );
}

function PlainToastList({ toasts }: { toasts: readonly ToastItem[] }) {
  return (
    <section aria-label="Notifications" className="toast-viewport">
      <ol>
        {toasts
          .filter((toast) => toast.open)
          .map((toast) => (
            <li
              key={toast.id}
              role="status"
              className="toast-root rounded-xl border border-line bg-white p-4 shadow-lg"
            >
              <p className="text-sm font-semibold text-ink">{toast.title}</p>
              {toast.description ? (
                <p className="mt-1 text-sm text-ink-soft">{toast.description}</p>
              ) : null}
              <button
                type="button"
                onClick={() => closeToast(toast.id)}
                className="mt-2 text-sm font-semibold text-accent-800 underline"
              >
                Dismiss
              </button>
            </li>
          ))}
      </ol>
    </section>
  );
}
