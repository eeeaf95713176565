import { useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { site } from '#shared/site.ts';
import { buttonClass } from '#client/components/ui/button.ts';
import { paths } from '#shared/paths.ts';
import { restoreEmail } from '../accounts.api.ts';
import { AuthCard } from '#client/features/auth/components/auth-card.tsx';
import { OneTimeLinkAction } from '#client/features/auth/components/one-time-link-action.tsx';
import { forgetSession } from '#client/features/auth/session.api.ts';

/**
 * /undo-email-change?id=<token>: the link emailed to the old address after an email change.
 * It puts that address back and logs every device out; then the owner chooses a new password.
 */
export function UndoEmailChangePage() {
  const [params] = useSearchParams();
  const token = params.get('id') ?? '';
  const queryClient = useQueryClient();
  // The server has ended every session, this browser's too: the header stops saying "My account".
  const spend = async (body: { token: string }) => {
    const result = await restoreEmail(body);
    forgetSession(queryClient);
    return result;
  };
  return (
    <AuthCard
      title="Undo email change"
      intro={`If you did not change the email address of your ${site.name} account, put your address back here. Every device will be logged out.`}
    >
      <OneTimeLinkAction
        key={token}
        token={token}
        label="Put my email address back"
        spend={spend}
        otherwise={
          <a
            href={`mailto:${site.supportEmail}`}
            className="font-semibold underline underline-offset-4"
          >
            {site.supportEmail}
          </a>
        }
      >
        <Link to={paths.resetPassword} className={`${buttonClass('primary', 'lg')} w-full`}>
          Choose a new password
        </Link>
      </OneTimeLinkAction>
    </AuthCard>
  );
}
