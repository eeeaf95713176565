import { useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { site } from '#shared/site.ts';
import { buttonClass } from '#client/components/ui/button.ts';
import { paths } from '#shared/paths.ts';
import { verifyEmail } from '../accounts.api.ts';
import { AuthCard } from '#client/features/auth/components/auth-card.tsx';
import { OneTimeLinkAction } from '#client/features/auth/components/one-time-link-action.tsx';

/**
 * /verify-email?id=<token>: the link mailed at sign-up, on "Send the link again", or to the new
 * address of an email change (issue 26). Pressing the button proves the address; for a change it
 * also moves the account to it. A used or expired link says so and points to a new one.
 */
export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('id') ?? '';
  const queryClient = useQueryClient();
  // What the member area shows (the address, what waits for it) is stale once this has worked.
  const spend = async (body: { token: string }) => {
    const result = await verifyEmail(body);
    await queryClient.invalidateQueries();
    return result;
  };
  return (
    <AuthCard
      title="Confirm your email address"
      intro={`Confirm that this address is yours. It lets you see and accept partner invitations on ${site.name}.`}
    >
      <OneTimeLinkAction
        key={token}
        token={token}
        label="Confirm my email address"
        spend={spend}
        otherwise={
          <Link to={paths.partner} className="font-semibold underline underline-offset-4">
            Send yourself a new link
          </Link>
        }
      >
        <Link to={paths.partner} className={`${buttonClass('primary', 'lg')} w-full`}>
          Go to your account
        </Link>
      </OneTimeLinkAction>
    </AuthCard>
  );
}
