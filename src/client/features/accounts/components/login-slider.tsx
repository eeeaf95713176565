import * as Dialog from '@radix-ui/react-dialog';
import { lazy, Suspense } from 'react';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { showToast } from '#client/components/ui/toast.tsx';
import { setLoginVisible, useAppState } from '#client/lib/app-state.ts';
import { CloseIcon } from '#client/components/ui/close-icon.tsx';

/** The form (react-hook-form, the schemas) loads when the slider is first wanted, not with the shop. */
export const loadLoginForm = () => import('./login-form.tsx');
const LoginForm = lazy(() => loadLoginForm().then((module) => ({ default: module.LoginForm })));

/**
 * The header's log-in slider (spec §4 Login): slides in from the right with the same form as
 * /login, and closes on success. Its open state is the persisted `login.isVisible`.
 */
export function LoginSlider() {
  const open = useAppState((state) => state.login.isVisible);
  return (
    <Dialog.Root open={open} onOpenChange={setLoginVisible}>
      <Dialog.Portal>
        <Dialog.Overlay className="slider-overlay fixed inset-0 z-50 bg-ink/40 backdrop-blur-[2px]" />
        <Dialog.Content className="slider-panel fixed inset-y-0 right-0 z-50 flex w-full max-w-md flex-col bg-white shadow-2xl outline-none">
          <div className="flex items-center justify-between gap-4 border-b border-line px-6 py-4">
            <Dialog.Title className="text-2xl text-ink">Log in</Dialog.Title>
            <Dialog.Close
              aria-label="Close"
              className="grid size-10 place-items-center rounded-full text-muted hover:bg-surface hover:text-ink"
            >
              <CloseIcon />
            </Dialog.Close>
          </div>
          <div className="flex-1 overflow-y-auto px-6 py-6">
            <Dialog.Description className="mb-6 text-ink-soft">
              Welcome back. Log in to see your orders, messages and account.
            </Dialog.Description>
            <Suspense fallback={<Spinner label="Loading the log-in form…" />}>
              <LoginForm
                autoFocus
                onLeave={() => setLoginVisible(false)}
                onLoggedIn={(user) => {
                  setLoginVisible(false);
                  showToast({ kind: 'success', title: `Welcome back, ${user.first_name}` });
                }}
              />
            </Suspense>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
