import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { site } from '#shared/site.ts';
import { textLinkClass } from '#client/components/ui/button.ts';
import { showToast } from '#client/components/ui/toast.tsx';
import { paths } from '#shared/paths.ts';
import { StaffFrame } from '../components/staff-frame.tsx';
import type { StaffLoginState } from '../components/staff-layout.tsx';
import { StaffLoginForm } from '../components/staff-login-form.tsx';
import { useStaffMe } from '../staff.api.ts';
import { PageTitle } from '#client/components/layout/document-head.tsx';

/** Only a console path is a place to come back to after logging in. */
function returnPath(state: unknown): string {
  const from = (state as StaffLoginState | null)?.from;
  return typeof from === 'string' && from.startsWith(`${paths.staff}`) && !from.startsWith('//')
    ? from
    : paths.staff;
}

/** /staff/login: the console's own log-in, apart from customers', with a second factor. */
export function StaffLoginPage() {
  const me = useStaffMe();
  const location = useLocation();
  const navigate = useNavigate();
  const target = returnPath(location.state);

  if (me.data?.authenticated) return <Navigate to={target} replace />;
  return (
    <StaffFrame>
      <PageTitle>{`Staff log in — ${site.name} Staff`}</PageTitle>
      <div className="flex justify-center py-4 md:py-10">
        <div className="w-full max-w-md">
          <div className="rounded-3xl border border-line bg-white p-6 shadow-[0_8px_30px_rgba(15,37,51,0.06)] sm:p-8">
            <h1 className="text-3xl text-ink">Staff log in</h1>
            <p className="mt-2 text-ink-soft">
              For {site.name} providers and operations staff. You need your password and the code
              from your authenticator app.
            </p>
            <div className="mt-6">
              <StaffLoginForm
                onLoggedIn={(staff) => {
                  showToast({ kind: 'success', title: `Welcome, ${staff.name}` });
                  void navigate(target, { replace: true });
                }}
              />
            </div>
          </div>
          <p className="mt-6 text-center text-sm text-muted">
            Lost your authenticator? Ask an administrator to set up a new one.
            <br />
            Shopping with us?{' '}
            <Link to={paths.login} className={textLinkClass}>
              Customer log in
            </Link>
          </p>
        </div>
      </div>
    </StaffFrame>
  );
}
