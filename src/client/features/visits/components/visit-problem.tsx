import { Link } from 'react-router';
import { buttonClass } from '#client/components/ui/button.ts';
import { LoadError } from '#client/components/ui/load-error.tsx';
import { ApiError } from '#client/lib/api.ts';
import { paths } from '#shared/paths.ts';
import type { ProgramCategory } from '#shared/telehealth.ts';

/**
 * A call that failed where no form can hold the message. A visit that moved on or closed (409)
 * offers the way back to wherever the server says the visit is.
 */
export function VisitProblem({
  error,
  category,
  onRetry,
}: {
  error: Error;
  category: ProgramCategory;
  onRetry?: () => void;
}) {
  if (error instanceof ApiError && error.status === 409) {
    return (
      <div className="space-y-4">
        <LoadError message={error.message} />
        <Link to={paths.visit(category)} className={buttonClass('primary')}>
          Go to my visit
        </Link>
      </div>
    );
  }
  return <LoadError message={error.message} {...(onRetry ? { onRetry } : {})} />;
}
