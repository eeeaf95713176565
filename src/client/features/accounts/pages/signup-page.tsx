import { Link } from 'react-router';
import { textLinkClass } from '#client/components/ui/button.ts';
import { paths } from '#shared/paths.ts';
import { AuthCard } from '#client/features/auth/components/auth-card.tsx';
import { SignupForm } from '../components/signup-form.tsx';

/**
 * /signup (DESIGN §6): account creation with the sign-up and date-of-birth rules of spec §5.
 * On success the customer is logged in and the public-only guard sends them to /dashboard.
 */
export function SignupPage() {
  return (
    <AuthCard
      title="Create your account"
      intro="One account for your orders, subscriptions, online visits and messages with your care team."
      wide
      footer={
        <>
          Already have an account?{' '}
          <Link to={paths.login} className={textLinkClass}>
            Log in
          </Link>
        </>
      }
    >
      <SignupForm
        submitLabel="Create account"
        emailTakenHelp={
          <>
            <Link to={paths.login} className="font-semibold underline underline-offset-4">
              Log in
            </Link>{' '}
            or{' '}
            <Link to={paths.resetPassword} className="font-semibold underline underline-offset-4">
              reset your password
            </Link>
            .
          </>
        }
      />
    </AuthCard>
  );
}
