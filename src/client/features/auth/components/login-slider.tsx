import { lazy, Suspense } from 'react';
import { headerAccountId } from '#client/components/layout/header-account.ts';
import { Dialog, DialogDescription, DialogHeader } from '#client/components/ui/dialog.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { showToast } from '#client/components/ui/toast.tsx';
import { setLoginVisible, useAppState } from '#client/lib/app-state.ts';

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
    <Dialog
      open={open}
      onClose={() => setLoginVisible(false)}
      // Logging in replaces 'Log in' with 'My account', and a slider open since the page loaded
      // had no opener: focus goes to whichever of the two the header shows.
      returnFocusTo={() => document.getElementById(headerAccountId)}
      variant="drawer"
      size="md"
    >
      <DialogHeader title="Log in" className="px-6 py-4" />
      <div className="flex-1 overflow-y-auto px-6 py-6">
        <DialogDescription className="mb-6 text-ink-soft">
          Welcome back. Log in to see your orders, messages and account.
        </DialogDescription>
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
    </Dialog>
  );
}
