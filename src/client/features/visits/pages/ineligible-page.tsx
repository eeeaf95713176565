import { Link, useLocation } from 'react-router';
import { buttonClass, textLinkClass } from '#client/components/ui/button.ts';
import { useAppState } from '#client/lib/app-state.ts';
import { paths } from '#shared/paths.ts';
import { isUsState, stateName } from '#shared/us-states.ts';
import { ClosedVisitScreen } from '../components/closed-visit.tsx';
import { useVisitContext, visitCardClass } from '../components/visit-layout.tsx';
import { VisitorWaitlistForm } from '../components/visitor-waitlist-form.tsx';
import type { VisitorVerdict } from '../visitor-eligibility.ts';
import { WithVisit } from '../components/with-visit.tsx';

function readState(state: unknown): VisitorVerdict {
  const value = (state ?? {}) as Record<string, unknown>;
  const text = (key: string) => (typeof value[key] === 'string' ? value[key] : null);
  const closedState = text('closedState');
  return {
    reason: text('reason'),
    supplementSlug: text('supplementSlug'),
    closedState: closedState && isUsState(closedState) ? closedState : null,
    dob: text('dob'),
  };
}

/**
 * A visitor's answer from the visit's first screen, before any account: nothing was stored, so
 * the reason comes with the navigation. Said plainly and kindly, with the supplement.
 */
function VisitorIneligible() {
  const { category, program } = useVisitContext();
  const location = useLocation();
  const { reason, supplementSlug, closedState, dob } = readState(location.state);
  const slug = supplementSlug ?? program.supplementSlug;
  return (
    <section aria-labelledby="ineligible-title" className={visitCardClass}>
      <h2 id="ineligible-title" className="text-2xl text-ink">
        We can't offer this online visit to you right now
      </h2>
      <p className="mt-3 text-ink-soft">
        {reason ??
          'Based on the details you gave, an online visit for this program is not available to you.'}
      </p>
      <p className="mt-3 text-ink-soft">
        Nothing has been charged. A doctor or clinic near you can help in person.
      </p>
      {closedState ? (
        <>
          <VisitorWaitlistForm state={closedState} stateName={stateName(closedState)} />
          <p className="mt-4 text-[0.9375rem] text-ink-soft">
            Chose the wrong state?{' '}
            <Link to={paths.visit(category)} state={{ dob }} className={textLinkClass}>
              Change the state you live in
            </Link>
          </p>
        </>
      ) : null}
      {slug ? (
        <div className="mt-6 rounded-3xl border border-accent-200 bg-accent-50 p-5">
          <h3 className="font-sans text-lg font-semibold text-ink">Something that may help</h3>
          <p className="mt-1 text-[0.9375rem] text-ink-soft">
            Our supplements need no prescription and ship anywhere in the US.
          </p>
          <Link to={paths.product(slug)} className={`${buttonClass('primary')} mt-4`}>
            See the supplement
          </Link>
        </div>
      ) : null}
      <div className="mt-6">
        <Link to={paths.home} className={buttonClass('secondary')}>
          Back to the home page
        </Link>
      </div>
    </section>
  );
}

/**
 * /visit/:category/ineligible: the visit cannot go on (state or age). A patient's closed visit is
 * read from the server, as it was stored — with the supplement, and "tell me when my state opens"
 * where that fits; opening the program again comes back here rather than asking for another state
 * or age. A visitor (no account yet) sees the answer their check gave.
 */
export function IneligiblePage() {
  const loggedIn = useAppState((state) => state.login.isLoggedIn);
  if (!loggedIn) return <VisitorIneligible />;
  return <WithVisit>{(visitId) => <ClosedVisitScreen visitId={visitId} />}</WithVisit>;
}
