import { Link } from 'react-router';
import { site } from '#shared/site.ts';
import { paths } from '#shared/paths.ts';
import { programs, visitsApi, type ClosedVisit } from '#shared/visits.ts';
import { buttonClass, textLinkClass } from '#client/components/ui/button.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { useClosedVisit, useJoinWaitlist, useRequestReview } from '../visits.api.ts';
import { failedWith } from '#client/lib/api.ts';
import { useVisitContext, visitCardClass } from './visit-layout.tsx';
import { VisitProblem } from './visit-problem.tsx';

/** Words in a reason that call for urgent help: shown prominently, not in running text. */
export function urgent(reason: string): boolean {
  return /\b(988|911)\b/.test(reason);
}

/** The reason a visit closed: 988 / 911 up front when it names them. */
export function ClosedReason({ reason }: { reason: string }) {
  return urgent(reason) ? (
    <div role="note" className="mt-4 rounded-2xl border border-danger/25 bg-danger-soft p-4">
      <p className="font-semibold text-ink">{reason}</p>
    </div>
  ) : (
    <p className="mt-3 text-ink-soft">{reason}</p>
  );
}

const offerClass = 'mt-6 rounded-3xl border border-accent-200 bg-accent-50 p-5';

/**
 * "Tell me when {State} opens": one email to the account's address once online visits open there.
 * Once on the list, it says so instead of asking again.
 */
export function WaitlistOffer({
  visit,
  compact = false,
}: {
  visit: ClosedVisit;
  compact?: boolean;
}) {
  const join = useJoinWaitlist(visit.visit_id);
  const state = visit.state_name ?? 'your state';
  const joined = visit.waitlisted || join.isSuccess;
  const status = (
    <p role="status" className="text-[0.9375rem] text-ink">
      {joined ? `We'll email you once when online visits open in ${state}.` : ''}
    </p>
  );
  // The button, its failure and what happened: a plain row on Home, a box on the visit's page.
  const controls = (
    <>
      {joined ? null : (
        <button
          type="button"
          className={buttonClass(compact ? 'secondary' : 'primary')}
          disabled={join.isPending}
          onClick={() => join.mutate()}
        >
          Tell me when {state} opens
        </button>
      )}
      {join.isError ? (
        <p role="alert" className="mt-2 text-sm text-danger">
          {join.error.message}
        </p>
      ) : null}
      {status}
    </>
  );
  if (compact) return <div>{controls}</div>;
  return (
    <div className={offerClass}>
      <h3 className="font-sans text-lg font-semibold text-ink">Waiting for {state}?</h3>
      <p className="mt-1 text-[0.9375rem] text-ink-soft">
        We'll send one email to the address on your account when our providers can see patients
        there. Nothing else.
      </p>
      <div className="mt-4">{controls}</div>
    </div>
  );
}

function SupplementOffer({ slug }: { slug: string }) {
  return (
    <div className={offerClass}>
      <h3 className="font-sans text-lg font-semibold text-ink">Something that may help</h3>
      <p className="mt-1 text-[0.9375rem] text-ink-soft">
        Our supplements need no prescription and ship anywhere in the US.
      </p>
      <Link to={paths.product(slug)} className={`${buttonClass('primary')} mt-4`}>
        See the supplement
      </Link>
    </div>
  );
}

/** After a not-a-fit answer: the answers as given go to a provider, nothing is charged. */
function ReviewOffer({ visit }: { visit: ClosedVisit }) {
  const ask = useRequestReview(visit.visit_id);
  return (
    <div className={offerClass}>
      <h3 className="font-sans text-lg font-semibold text-ink">Think we got this wrong?</h3>
      <p className="mt-1 text-[0.9375rem] text-ink-soft">
        A licensed provider can read your answers exactly as you gave them and tell you whether
        treatment could still be safe for you. Nothing is charged for this.
      </p>
      <button
        type="button"
        className={`${buttonClass('primary')} mt-4`}
        disabled={ask.isPending}
        onClick={() => ask.mutate()}
      >
        Ask a provider to review
      </button>
      {ask.isError ? (
        <p role="alert" className="mt-2 text-sm text-danger">
          {ask.error.message}
        </p>
      ) : null}
    </div>
  );
}

function AccountLink() {
  return (
    <div className="mt-6">
      <Link to={paths.dashboard} className={buttonClass('secondary')}>
        Go to my account
      </Link>
    </div>
  );
}

/** Ineligible for the state or the age: why, and what to do instead. */
function IneligibleView({ visit }: { visit: ClosedVisit }) {
  const name = visit.state_name ?? 'your state';
  return (
    <section aria-labelledby="closed-title" className={visitCardClass}>
      <h2 id="closed-title" className="text-2xl text-ink">
        {visit.state_open
          ? `Online visits are now open in ${name}`
          : "We can't offer this online visit to you right now"}
      </h2>
      {visit.state_open ? (
        <>
          <p className="mt-3 text-ink-soft">
            Your earlier visit was closed because we couldn't see patients in {name} yet. Our
            providers can now, so you can start a new visit.
          </p>
          <Link to={paths.visit(visit.category)} className={`${buttonClass('primary')} mt-5`}>
            Start your visit
          </Link>
        </>
      ) : (
        <>
          <ClosedReason reason={visit.reason} />
          <p className="mt-3 text-ink-soft">
            This visit is closed, and nothing has been charged. A doctor or clinic near you can help
            in person.
          </p>
          {visit.state_closed ? <WaitlistOffer visit={visit} /> : null}
          {visit.supplement_slug ? <SupplementOffer slug={visit.supplement_slug} /> : null}
          <p className="mt-6 text-sm text-muted">
            Gave the wrong state or date of birth? Write to us at{' '}
            <a href={`mailto:${site.supportEmail}`} className={textLinkClass}>
              {site.supportEmail}
            </a>{' '}
            and we'll help.
          </p>
        </>
      )}
      <AccountLink />
    </section>
  );
}

/** A confirmed knock-out answer, or a provider's decline after the review the patient asked for. */
function NotAFitView({ visit }: { visit: ClosedVisit }) {
  return (
    <section aria-labelledby="closed-title" className={visitCardClass}>
      <h2 id="closed-title" className="text-2xl text-ink">
        Online treatment isn't the right fit for you
      </h2>
      <ClosedReason reason={visit.reason} />
      <p className="mt-3 text-ink-soft">
        This visit is closed. Thank you for answering honestly — it keeps you safe. Nothing has been
        charged, and your answers are kept private.
      </p>
      {visit.review_available ? <ReviewOffer visit={visit} /> : null}
      {visit.supplement_slug ? <SupplementOffer slug={visit.supplement_slug} /> : null}
      <AccountLink />
    </section>
  );
}

function ReviewRequestedView() {
  return (
    <section aria-labelledby="closed-title" className={visitCardClass}>
      <h2 id="closed-title" className="text-2xl text-ink">
        A provider will review your answers
      </h2>
      <p className="mt-3 text-ink-soft">
        A licensed provider will read your answers exactly as you gave them. They'll write to you in
        Messages, and we'll email you when they do.
      </p>
      <p className="mt-3 text-ink-soft">
        Nothing has been charged, and nothing is held on your card.
      </p>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row">
        <Link to={paths.messages} className={buttonClass('primary')}>
          Go to Messages
        </Link>
        <Link to={paths.dashboard} className={buttonClass('secondary')}>
          Go to my account
        </Link>
      </div>
    </section>
  );
}

/** A closed visit's page, as the server says it stands: why it closed, and the alternative. */
export function ClosedVisitView({ visit }: { visit: ClosedVisit }) {
  if (visit.kind === 'ineligible') return <IneligibleView visit={visit} />;
  if (visit.kind === 'review-requested') return <ReviewRequestedView />;
  return <NotAFitView visit={visit} />;
}

/** Loads the closed visit, then shows it. */
export function ClosedVisitScreen({ visitId }: { visitId: number }) {
  const { category } = useVisitContext();
  const closed = useClosedVisit(visitId);
  // Not closed (a newer visit, another tab): the way back to wherever the visit is.
  if (failedWith(closed.error, visitsApi.closedVisit, 'VISIT_STEP', 'NOT_FOUND'))
    return (
      <section aria-label="Your visit" className={visitCardClass}>
        <VisitProblem error={closed.error} category={category} />
      </section>
    );
  return (
    <QueryView query={closed} loading="Loading your visit…">
      {(visit) => <ClosedVisitView visit={visit} />}
    </QueryView>
  );
}

/** Home's line for a closed visit: what closed, why, and the one thing to do instead. */
export function ClosedVisitNotice({ visit }: { visit: ClosedVisit }) {
  const program = programs[visit.category];
  const name = visit.state_name ?? 'your state';
  const title = `${program.headline} — online visit`;
  return (
    <div className="rounded-2xl border border-line bg-surface/60 p-4">
      <h3 className="font-sans text-base font-semibold text-ink">{title}</h3>
      {visit.kind === 'review-requested' ? (
        <p className="mt-1 text-[0.9375rem] text-ink-soft">
          You asked a provider to review your answers. They'll write to you in Messages. Nothing has
          been charged.
        </p>
      ) : visit.state_open ? (
        <p className="mt-1 text-[0.9375rem] text-ink-soft">
          This visit was closed because we couldn't see patients in {name}. Online visits are now
          open there.
        </p>
      ) : (
        <p className="mt-1 text-[0.9375rem] text-ink-soft">
          <span className="font-semibold text-ink">Closed: </span>
          {visit.reason}
        </p>
      )}
      <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-2">
        {visit.kind === 'review-requested' ? (
          <Link to={paths.messages} className={textLinkClass}>
            Go to Messages
          </Link>
        ) : null}
        {visit.state_open ? (
          <Link to={paths.visit(visit.category)} className={buttonClass('secondary')}>
            Start your visit
          </Link>
        ) : null}
        {visit.state_closed ? <WaitlistOffer visit={visit} compact /> : null}
        {visit.review_available ? (
          <Link to={paths.visit(visit.category)} className={textLinkClass}>
            Ask a provider to review
          </Link>
        ) : null}
        {visit.supplement_slug && visit.kind !== 'review-requested' && !visit.state_open ? (
          <Link to={paths.product(visit.supplement_slug)} className={textLinkClass}>
            See the supplement
          </Link>
        ) : null}
      </div>
    </div>
  );
}
