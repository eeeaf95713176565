import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatCents } from '#shared/money.ts';
import { paths } from '#shared/paths.ts';
import { visitsApi, type VisitCheckoutSummary } from '#shared/visits.ts';
import { textLinkClass } from '#client/components/ui/button.ts';
import { call } from '#client/lib/api.ts';

const checkoutSummaryKey = (visitId: number) => ['visit', visitId, 'checkout-summary'] as const;

/**
 * What the checkout will hold on the card and charge for each refill, as the server computes it
 * from the price it authorises: the page never shows an amount of its own.
 */
export function useCheckoutSummary(visitId: number) {
  return useQuery({
    queryKey: checkoutSummaryKey(visitId),
    queryFn: async ({ signal }) =>
      (
        await call(visitsApi.checkoutSummary, {
          body: { visit_id: visitId },
          signal,
          fallbackMessage: 'We could not load the price of your treatment. Please try again.',
        })
      ).summary,
  });
}

/** A link out of the checkout opens in a new tab, so the form the patient filled in stays. */
function NewTabLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} target="_blank" rel="noopener" className={textLinkClass}>
      {children}
      <span className="sr-only"> (opens in a new tab)</span>
    </Link>
  );
}

/**
 * The consent the patient ticks, with the automatic-renewal terms in it (California's automatic
 * renewal law asks for the amount, how often, that it goes on until cancelled, and how to cancel,
 * next to the consent): the first fill if approved, then each refill a provider prescribes.
 */
export function checkoutConsentLabel(summary: VisitCheckoutSummary): ReactNode {
  return (
    <>
      I authorize Pairwell to charge my card {formatCents(summary.authorized_cents)} for this
      treatment if my provider approves it and, if refills are prescribed,{' '}
      {formatCents(summary.refill_cents)} every month after that until they run out or I cancel. I
      can cancel any time on the Subscriptions page of my account or by messaging Pairwell. I agree
      to the <NewTabLink to={paths.terms}>Terms of Service</NewTabLink>.
    </>
  );
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap justify-between gap-x-4 gap-y-0.5">
      <dt>{term}</dt>
      <dd className="font-semibold text-ink">{children}</dd>
    </div>
  );
}

/**
 * Beside the card: the treatment and its monthly price, what is authorised now and when it is
 * charged, and how refills renew and stop, in words a patient reads before paying.
 */
export function CheckoutSummary({ summary }: { summary: VisitCheckoutSummary }) {
  const now = formatCents(summary.authorized_cents);
  const refill = formatCents(summary.refill_cents);
  return (
    <section
      aria-labelledby="visit-price-title"
      className="rounded-2xl border border-accent-200 bg-accent-50 p-4 text-[0.9375rem] text-ink-soft sm:p-5"
    >
      <h3 id="visit-price-title" className="text-lg font-semibold text-ink">
        Your treatment and price
      </h3>
      <dl className="mt-3 space-y-1.5">
        <Row term="Treatment">
          {summary.treatment}, {summary.dose}
        </Row>
        <Row term="Each fill">{summary.supply}</Row>
        <Row term="Price">{refill} a month, free shipping</Row>
      </dl>

      <div className="mt-4 border-t border-accent-200 pt-3">
        <p className="flex flex-wrap justify-between gap-x-4 text-base font-semibold text-ink">
          <span>Authorized now</span>
          <span className="tabular-nums">{now}</span>
        </p>
        <p className="mt-1">
          Charged only if your provider approves your treatment. If they do not, the hold is
          released and nothing is charged.
        </p>
      </div>

      <div className="mt-4 border-t border-accent-200 pt-3">
        <h4 className="font-semibold text-ink">Refills renew automatically each month</h4>
        <ul className="mt-1.5 list-disc space-y-1 pl-5">
          <li>
            If your provider prescribes refills (they decide how many), this card is charged{' '}
            {refill} automatically each month, starting one month after approval, and each refill
            ships to you.
          </li>
          <li>Refills continue until the ones your provider prescribed run out or you cancel.</li>
          <li>
            To stop, cancel any time on the{' '}
            <NewTabLink to={paths.subscriptions}>Subscriptions</NewTabLink> page of your account
            (you can also skip or pause a refill there), or{' '}
            <NewTabLink to={paths.messages}>send us a message</NewTabLink>.
          </li>
        </ul>
      </div>
    </section>
  );
}
