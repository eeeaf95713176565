import * as ToastPrimitive from '@radix-ui/react-toast';
import { useSyncExternalStore } from 'react';
import { limits } from '#shared/constants.ts';

export type ToastKind = 'success' | 'error' | 'info';

interface ToastItem {
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
    items = [...items, item];
    emit();
  };
  if (wait === 0) add();
  else setTimeout(add, wait);
}

function close(id: number) {
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
  emit();
}

const kindStyles: Record<ToastKind, string> = {
  success: 'border-l-success',
  error: 'border-l-danger',
  info: 'border-l-accent-500',
};

export function Toaster() {
  const toasts = useSyncExternalStore(
    subscribe,
    () => items,
    () => items,
  );
  return (
    <ToastPrimitive.Provider
      swipeDirection="right"
      swipeThreshold={limits.toastSwipeThresholdPx}
      duration={limits.toastDurationMs}
      label="Notification"
    >
      {toasts.map((toast) => (
        <ToastPrimitive.Root
          key={toast.id}
          open={toast.open}
          onOpenChange={(open) => {
            if (!open) close(toast.id);
          }}
          type={toast.kind === 'error' ? 'foreground' : 'background'}
          className={`toast-root grid grid-cols-[1fr_auto] items-start gap-x-3 rounded-xl border border-line border-l-4 bg-white p-4 shadow-lg ${kindStyles[toast.kind]}`}
        >
          <ToastPrimitive.Title className="text-sm font-semibold text-ink">
            {toast.title}
          </ToastPrimitive.Title>
          <ToastPrimitive.Close
            aria-label="Dismiss notification"
            className="row-span-2 -mr-1 -mt-1 grid size-8 place-items-center rounded-full text-muted hover:bg-surface hover:text-ink"
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 20 20"
              className="size-4"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            >
              <path d="M5 5l10 10M15 5L5 15" strokeLinecap="round" />
            </svg>
          </ToastPrimitive.Close>
          {toast.description ? (
            <ToastPrimitive.Description className="mt-1 text-sm text-ink-soft">
              {toast.description}
            </ToastPrimitive.Description>
          ) : null}
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport hotkey={[limits.toastHotkey]} className="toast-viewport" />
    </ToastPrimitive.Provider>
  );
}
