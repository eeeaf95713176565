import { Link, useSearchParams } from 'react-router';
import { textLinkClass } from '#client/components/ui/button.ts';
import { showToast } from '#client/components/ui/toast.tsx';
import { paths } from '#client/paths.ts';
import { confirmLoginUnlock } from '../accounts.api.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { LoginForm } from '../components/login-form.tsx';
import { OneTimeLinkAction } from '../components/one-time-link-action.tsx';

/**
 * /login/unlock?id=<token>: the e-mailed link that lets this device log in while the account's
 * log-ins from new devices are paused (decision 004). The password is still needed.
 */
export function LoginUnlockPage() {
  const [params] = useSearchParams();
  const token = params.get('id') ?? '';
  return (
    <AuthCard
      title="Log in on this device"
      intro="Log-ins to your account from new devices are paused after too many wrong passwords. This link lets this device log in; you will still need your password."
      footer={
        <Link to={paths.resetPassword} className={textLinkClass}>
          Forgot password?
        </Link>
      }
    >
      <OneTimeLinkAction
        key={token}
        token={token}
        label="Let this device log in"
        spend={confirmLoginUnlock}
        otherwise={
          <Link to={paths.login} className="font-semibold underline underline-offset-4">
            Back to log in
          </Link>
        }
      >
        <LoginForm
          signupLink={false}
          autoFocus
          onLoggedIn={(user) =>
            showToast({ kind: 'success', title: `Welcome back, ${user.first_name}` })
          }
        />
      </OneTimeLinkAction>
    </AuthCard>
  );
}
