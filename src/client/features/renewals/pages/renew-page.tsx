import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '#shared/paths.ts';
import { buttonClass } from '#client/components/ui/button.ts';
import { LoadError } from '#client/components/ui/load-error.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { failedWithCode } from '#client/lib/api.ts';
import { getAppState } from '#client/lib/app-state.ts';
import {
  useVisitContext,
  visitCardClass,
} from '#client/features/visits/components/visit-layout.tsx';
import { rememberRenewal, visitDestination } from '#client/features/visits/visit-state.ts';
import { useOpenRenewal } from '../renewals.api.ts';

/**
 * /visit/:category/renew, where Home's "Renew your prescription" and its e-mail lead (issue 29):
 * the renewal of the program's prescription opens (or resumes), then the screen it is on. With
 * nothing to renew, the patient is told so, and where Home will say when.
 */
export function RenewPage() {
  const { category, program } = useVisitContext();
  const navigate = useNavigate();
  const opened = useOpenRenewal(category);
  const renewal = opened.data;

  useEffect(() => {
    if (!renewal) return;
    const destination = visitDestination(renewal.destination, category);
    rememberRenewal(getAppState().onlineVisit.user, category, renewal.visit_id);
    void navigate(destination ?? paths.dashboard, { replace: true });
  }, [renewal, category, navigate]);

  if (opened.isError && failedWithCode(opened.error, 'NOT_FOUND', 'VISIT_BUSY'))
    return (
      <section aria-labelledby="renew-title" className={visitCardClass}>
        <h2 id="renew-title" className="text-2xl text-ink">
          {failedWithCode(opened.error, 'VISIT_BUSY')
            ? 'Finish your visit first'
            : 'Nothing to renew right now'}
        </h2>
        <p className="mt-2 text-ink-soft">{opened.error.message}</p>
        <div className="mt-6 flex flex-col gap-3 sm:flex-row">
          <Link to={paths.dashboard} className={buttonClass('primary')}>
            Go to my account
          </Link>
          <Link to={paths.messages} className={buttonClass('secondary')}>
            Write to your care team
          </Link>
        </div>
        <p className="mt-6 text-sm text-muted">
          Looking for a first {program.name} visit instead?{' '}
          <Link to={paths.visit(category)} className="font-semibold text-accent-800 underline">
            Start an online visit
          </Link>
        </p>
      </section>
    );
  if (opened.isError)
    return <LoadError message={opened.error.message} onRetry={() => void opened.refetch()} />;
  return <Spinner block label="Opening your renewal…" />;
}
