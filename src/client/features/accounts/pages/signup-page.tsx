import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { textLinkClass } from '#client/components/ui/button.ts';
import {
  partnerInviteOf,
  partnerInvitePath,
  rememberReturnPath,
} from '#client/features/auth/return-path.ts';
import { paths } from '#shared/paths.ts';
import { AuthCard } from '#client/features/auth/components/auth-card.tsx';
import { SignupForm } from '../components/signup-form.tsx';

/**
 * /signup (DESIGN §6): account creation with the sign-up and date-of-birth rules of spec §5.
 * On success the customer is logged in and the public-only guard sends them on: to /dashboard, or,
 * when they came from a partner's invitation (`?partnerInvite=`), to the partner page showing it.
 */
export function SignupPage() {
  const [search] = useSearchParams();
  const partnerInvite = partnerInviteOf(search);
  useEffect(() => {
    if (partnerInvite) rememberReturnPath(partnerInvitePath(partnerInvite));
  }, [partnerInvite]);
  return (
    <AuthCard
      title="Create your account"
      intro={
        partnerInvite
          ? 'Your partner invited you to link accounts. Create yours, then accept the invitation: nothing is shared until you choose to.'
          : 'One account for your orders, subscriptions, online visits and messages with your care team.'
      }
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
