import { Link, useLocation } from 'react-router';
import { formatCents } from '#shared/money.ts';
import { buttonClass } from '#client/components/ui/button.ts';
import { useAppState } from '#client/lib/app-state.ts';
import { paths } from '#shared/paths.ts';
import { useVisitContext, visitCardClass } from '../components/visit-layout.tsx';
import { useIsRenewal } from '../visit-state.ts';

/** A renewal sent (issue 29): no order and nothing charged; what happens next. */
function RenewalSubmitted() {
  return (
    <section aria-labelledby="submitted-title" className={visitCardClass}>
      <h2 id="submitted-title" className="text-2xl text-ink">
        Your answers are with your provider
      </h2>
      <p className="mt-2 text-ink-soft">Nothing has been charged for your renewal.</p>
      <h3 className="mt-6 font-sans text-lg font-semibold text-ink">What happens next</h3>
      <ol className="mt-3 list-decimal space-y-2 pl-5 text-ink-soft">
        <li>
          A US-licensed provider reads your answers beside your last visit's, usually within a day.
        </li>
        <li>They may message you with a question. We'll email you when they do.</li>
        <li>
          If they renew your prescription, your refills continue on the same plan and dates. If not,
          they explain why in Messages, and nothing more is charged.
        </li>
      </ol>
      <div className="mt-7 flex flex-col gap-3 sm:flex-row">
        <Link to={paths.dashboard} className={buttonClass('primary')}>
          Go to my account
        </Link>
        <Link to={paths.messages} className={buttonClass('secondary')}>
          Open Messages
        </Link>
      </div>
    </section>
  );
}

/** /visit/:category/submitted: the visit is with a provider; what happens next. */
export function SubmittedPage() {
  const { category } = useVisitContext();
  const renewal = useIsRenewal(category);
  return renewal ? <RenewalSubmitted /> : <VisitSubmitted />;
}

function VisitSubmitted() {
  const location = useLocation();
  const stored = useAppState((state) => state.onlineVisit.user?.lastOrder);
  const state = (location.state ?? {}) as { orderNumber?: unknown; amountCents?: unknown };
  const orderNumber =
    typeof state.orderNumber === 'string'
      ? state.orderNumber
      : typeof stored === 'string'
        ? stored
        : null;
  const amount = typeof state.amountCents === 'number' ? state.amountCents : null;
  return (
    <section aria-labelledby="submitted-title" className={visitCardClass}>
      <h2 id="submitted-title" className="text-2xl text-ink">
        Your visit is with a provider
      </h2>
      {orderNumber ? (
        <p className="mt-2 text-ink-soft">
          Order number <span className="font-semibold text-ink">{orderNumber}</span>
          {amount !== null ? ` — ${formatCents(amount)} authorised, not yet charged.` : '.'}
        </p>
      ) : null}
      <h3 className="mt-6 font-sans text-lg font-semibold text-ink">What happens next</h3>
      <ol className="mt-3 list-decimal space-y-2 pl-5 text-ink-soft">
        <li>
          A US-licensed provider in your state reviews your answers and ID, usually within a day.
        </li>
        <li>They may message you with a question. We'll email you when they do.</li>
        <li>
          If they approve, your card is charged and your treatment ships free in discreet packaging.
          If not, the hold on your card is released and they explain why.
        </li>
      </ol>
      <div className="mt-7 flex flex-col gap-3 sm:flex-row">
        {orderNumber ? (
          <Link
            to={`${paths.orders}#${encodeURIComponent(orderNumber)}`}
            className={buttonClass('primary')}
          >
            View my order
          </Link>
        ) : null}
        <Link to={paths.dashboard} className={buttonClass('secondary')}>
          Go to my account
        </Link>
      </div>
    </section>
  );
}
