import { Link, useSearchParams } from 'react-router';
import { showToast } from '#client/components/ui/toast.tsx';
import { paths } from '#shared/paths.ts';
import { confirmLoginUnlock } from '../auth.api.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { LoginForm } from '../components/login-form.tsx';
import { OneTimeLinkAction } from '../components/one-time-link-action.tsx';

/**
 * /login/unlock?id=<token>: the emailed link that lets this device log in while the account's
 * log-ins from new devices are paused (decision 004). The password is still needed. No link of
 * its own under the card: once the link is spent the log-in form offers "Forgot password?" (a
 * reset alone would not let this device in while the account is paused).
 */
export function LoginUnlockPage() {
  const [params] = useSearchParams();
  const token = params.get('id') ?? '';
  return (
    <AuthCard
      title="Log in on this device"
      intro="Log-ins to your account from new devices are paused after too many wrong passwords. This link lets this device log in; you will still need your password."
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
