import { Link, useNavigate, useSearchParams } from 'react-router';
import { site } from '#shared/site.ts';
import { PageTitle } from '#client/components/layout/document-head.tsx';
import { textLinkClass } from '#client/components/ui/button.ts';
import { showToast } from '#client/components/ui/toast.tsx';
import { OneTimeLinkAction } from '#client/features/auth/components/one-time-link-action.tsx';
import { paths } from '#shared/paths.ts';
import { StaffFrame } from '../components/staff-frame.tsx';
import { StaffLoginForm } from '../components/staff-login-form.tsx';
import { confirmStaffUnlock } from '../staff.api.ts';

/**
 * /staff/login/unlock?id=<token>: the emailed link that lets this device log in to the console
 * while the account's log-ins from new devices are paused. Password and code are still needed.
 */
export function StaffUnlockPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('id') ?? '';
  return (
    <StaffFrame>
      <PageTitle>{`Log in on this device — ${site.name} Staff`}</PageTitle>
      <div className="flex justify-center py-4 md:py-10">
        <div className="w-full max-w-md">
          <div className="rounded-3xl border border-line bg-white p-6 shadow-[0_8px_30px_rgba(15,37,51,0.06)] sm:p-8">
            <h1 className="text-3xl text-ink">Log in on this device</h1>
            <p className="mt-2 text-ink-soft">
              Log-ins to your staff account from new devices are paused after too many wrong
              attempts. This link lets this device log in; you will still need your password and the
              code from your authenticator app.
            </p>
            <div className="mt-6">
              <OneTimeLinkAction
                key={token}
                token={token}
                label="Let this device log in"
                spend={confirmStaffUnlock}
                otherwise={
                  <Link
                    to={paths.staffLogin}
                    className="font-semibold underline underline-offset-4"
                  >
                    Back to the staff log-in
                  </Link>
                }
              >
                <StaffLoginForm
                  onLoggedIn={(staff) => {
                    showToast({ kind: 'success', title: `Welcome, ${staff.name}` });
                    void navigate(paths.staff, { replace: true });
                  }}
                />
              </OneTimeLinkAction>
            </div>
          </div>
          <p className="mt-6 text-center text-sm text-muted">
            <Link to={paths.staffLogin} className={textLinkClass}>
              Staff log in
            </Link>
          </p>
        </div>
      </div>
    </StaffFrame>
  );
}
