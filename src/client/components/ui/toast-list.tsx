import * as ToastPrimitive from '@radix-ui/react-toast';
import { limits } from '#shared/constants.ts';
import { closeToast, type ToastItem, type ToastKind } from './toast.tsx';
import { CloseIcon } from './close-icon.tsx';

const kindStyles: Record<ToastKind, string> = {
  success: 'border-l-success',
  error: 'border-l-danger',
  info: 'border-l-accent-500',
};

/** The toasts drawn by Radix: loaded with the first toast (see `Toaster` in toast.tsx). */
export function ToastList({ toasts }: { toasts: readonly ToastItem[] }) {
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
            if (!open) closeToast(toast.id);
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
            <CloseIcon className="size-4" />
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
