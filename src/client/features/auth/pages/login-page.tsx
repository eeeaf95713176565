import { showToast } from '#client/components/ui/toast.tsx';
import { AuthCard } from '../components/auth-card.tsx';
import { LoginForm } from '../components/login-form.tsx';

/**
 * /login. Once the session is set, the public-only guard around this page sends the customer on:
 * back to the page that asked them to log in, or to /dashboard.
 */
export function LoginPage() {
  return (
    <AuthCard title="Log in" intro="Welcome back. Log in to see your orders, messages and account.">
      <LoginForm
        onLoggedIn={(user) =>
          showToast({ kind: 'success', title: `Welcome back, ${user.first_name}` })
        }
      />
    </AuthCard>
  );
}
