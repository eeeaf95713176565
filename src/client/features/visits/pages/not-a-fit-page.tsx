import { Link, useLocation } from 'react-router';
import { buttonClass } from '#client/components/ui/button.ts';
import { paths } from '#shared/paths.ts';
import { useVisitContext, visitCardClass } from '../components/visit-layout.tsx';

/** Words in a reason that call for urgent help: shown prominently, not in running text. */
function urgent(reason: string): boolean {
  return /\b(988|911)\b/.test(reason);
}

/**
 * /visit/:category/not-a-fit: an answer means online treatment is not safe. The patient reads the
 * questionnaire's reason (never which answer caused it), with 988 / 911 up front when it names them.
 */
export function NotAFitPage() {
  const { program } = useVisitContext();
  const location = useLocation();
  const state = (location.state ?? {}) as { reason?: unknown };
  const reason = typeof state.reason === 'string' ? state.reason : null;
  return (
    <section aria-labelledby="not-a-fit-title" className={visitCardClass}>
      <h2 id="not-a-fit-title" className="text-2xl text-ink">
        Online treatment isn’t the right fit for you
      </h2>
      {reason && urgent(reason) ? (
        <div role="note" className="mt-4 rounded-2xl border border-danger/25 bg-danger-soft p-4">
          <p className="font-semibold text-ink">{reason}</p>
        </div>
      ) : (
        <p className="mt-3 text-ink-soft">
          {reason ??
            `Based on your answers, ${program.name} treatment online is not safe for you. Please talk to a doctor in person.`}
        </p>
      )}
      <p className="mt-3 text-ink-soft">
        Thank you for answering honestly — it keeps you safe. Nothing has been charged, and your
        answers are kept private.
      </p>
      <div className="mt-6">
        <Link to={paths.dashboard} className={buttonClass('secondary')}>
          Go to my account
        </Link>
      </div>
    </section>
  );
}
