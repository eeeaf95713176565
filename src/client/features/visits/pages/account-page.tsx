import { useEffect, useRef } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { paths } from '#shared/paths.ts';
import { showToast } from '#client/components/ui/toast.tsx';
import { SignupForm } from '#client/features/accounts/components/signup-form.tsx';
import { LoginForm } from '#client/features/auth/components/login-form.tsx';
import { useVerifyAuth } from '#client/features/auth/session.api.ts';
import { useLeadsId } from '#client/lib/app-state.ts';
import { useVisitContext, visitCardClass } from '../components/visit-layout.tsx';
import { keptEligibility } from '../visitor-eligibility.ts';

const switchClass =
  'font-semibold text-accent-800 underline underline-offset-4 hover:text-accent-700';

/**
 * /visit/:category/account: the visit's account step. A visitor who passed eligibility creates
 * their account here, inside the visit (the date of birth they gave is not asked again), or logs
 * in; either way the visit then opens, or resumes where it was. `?mode=login` shows the log-in.
 */
export function VisitAccountPage() {
  const { category } = useVisitContext();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const leadsId = useLeadsId();
  const verify = useVerifyAuth({ enabled: leadsId !== null });
  const kept = keptEligibility(category);
  const mode = search.get('mode') === 'login' ? 'login' : 'signup';
  const heading = useRef<HTMLHeadingElement>(null);
  const switched = useRef(false);

  // After a switch between the two forms, focus goes to the new heading, as after a page change.
  useEffect(() => {
    if (switched.current) heading.current?.focus();
  }, [mode]);

  // Logged in (here, in the header, or in another tab): the visit's start opens or resumes it.
  if (verify.data?.authenticated) return <Navigate to={paths.visit(category)} replace />;
  // Sign-up comes after eligibility: without its answers, the first screen asks them.
  if (mode === 'signup' && !kept) return <Navigate to={paths.visit(category)} replace />;

  const continueVisit = () => void navigate(paths.visit(category), { replace: true });
  const switchTo = (next: 'signup' | 'login') => {
    switched.current = true;
    if (next === 'signup' && !kept) {
      void navigate(paths.visit(category));
      return;
    }
    setSearch(next === 'login' ? { mode: 'login' } : {}, { replace: true });
  };

  return (
    <section aria-labelledby="account-title" className={visitCardClass}>
      <h2 id="account-title" ref={heading} tabIndex={-1} className="text-2xl text-ink outline-none">
        {mode === 'signup' ? 'Create your account' : 'Log in to continue your visit'}
      </h2>
      <p className="mt-2 text-ink-soft">
        {mode === 'signup'
          ? 'Good news: you can continue. Your account keeps your visit, your treatment and your messages with your care team in one place.'
          : 'Your visit continues where you left it.'}
      </p>
      <p className="mt-4 text-[0.9375rem] text-ink-soft">
        {mode === 'signup' ? (
          <>
            Already have an account?{' '}
            <button type="button" onClick={() => switchTo('login')} className={switchClass}>
              Log in
            </button>
          </>
        ) : (
          <>
            New here?{' '}
            <button type="button" onClick={() => switchTo('signup')} className={switchClass}>
              Create an account
            </button>
          </>
        )}
      </p>
      <div className="mt-6">
        {mode === 'signup' && kept ? (
          <SignupForm
            submitLabel="Create account and continue"
            knownDob={kept.dob}
            onSignedUp={continueVisit}
            emailTakenHelp={
              <>
                <button
                  type="button"
                  onClick={() => switchTo('login')}
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
            onLoggedIn={(user) => {
              showToast({ kind: 'success', title: `Welcome back, ${user.first_name}` });
              continueVisit();
            }}
          />
        )}
      </div>
    </section>
  );
}
