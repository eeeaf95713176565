import { Link } from 'react-router';
import { buttonClass } from '#client/components/ui/button.ts';
import { LoadError } from '#client/components/ui/load-error.tsx';
import { paths } from '#shared/paths.ts';
import type { ProgramCategory } from '#shared/visits.ts';

/**
 * A visit that moved on or closed (another tab, a disqualifying answer, a decision): the server's
 * message, and the way back to wherever the server says the visit is. Asking again would not help.
 */
export function VisitProblem({ error, category }: { error: Error; category: ProgramCategory }) {
  return (
    <div className="space-y-4">
      <LoadError message={error.message} />
      <Link to={paths.visit(category)} className={buttonClass('primary')}>
        Go to my visit
      </Link>
    </div>
  );
}
