import { useState } from 'react';
import { showToast } from '#client/components/ui/toast.tsx';
import { LoginForm } from '#client/features/auth/components/login-form.tsx';
import { SignupForm } from '#client/features/accounts/components/signup-form.tsx';

const choiceClass = (chosen: boolean) =>
  `min-h-11 flex-1 rounded-full px-3 text-sm font-semibold transition-colors sm:px-4 sm:text-[0.9375rem] ${
    chosen ? 'bg-white text-ink shadow-sm ring-1 ring-line' : 'text-ink-soft hover:text-ink'
  }`;

/**
 * Step 1 for a visitor: create an account or log in, without leaving the checkout. The cart
 * they built comes with them.
 */
export function CheckoutAccount() {
  const [mode, setMode] = useState<'signup' | 'login'>('signup');
  return (
    <section
      aria-labelledby="account-title"
      className="rounded-3xl border border-line bg-white p-5 shadow-[0_1px_2px_rgba(15,37,51,0.04)] sm:p-7"
    >
      <h2
        id="account-title"
        tabIndex={-1}
        data-step-heading
        className="text-2xl text-ink outline-none"
      >
        Your account
      </h2>
      <p className="mt-2 text-ink-soft">
        Your account keeps your orders, subscriptions and messages in one place. Your cart comes
        with you.
      </p>
      <div
        role="group"
        aria-label="Account"
        className="mt-5 flex gap-1 rounded-full bg-surface p-1 ring-1 ring-line"
      >
        <button
          type="button"
          aria-pressed={mode === 'signup'}
          onClick={() => setMode('signup')}
          className={choiceClass(mode === 'signup')}
        >
          New customer
        </button>
        <button
          type="button"
          aria-pressed={mode === 'login'}
          onClick={() => setMode('login')}
          className={choiceClass(mode === 'login')}
        >
          I have an account
        </button>
      </div>
      <div className="mt-6">
        {mode === 'signup' ? (
          <SignupForm
            purpose="store"
            submitLabel="Create account and continue"
            emailTakenHelp={
              <>
                <button
                  type="button"
                  onClick={() => setMode('login')}
                  className="font-semibold underline underline-offset-4"
                >
                  Log in instead
                </button>
                .
              </>
            }
          />
        ) : (
          <LoginForm
            submitLabel="Log in and continue"
            signupLink={false}
            onLoggedIn={(user) =>
              showToast({ kind: 'success', title: `Welcome back, ${user.first_name}` })
            }
          />
        )}
      </div>
    </section>
  );
}
