import { formatCents } from '#shared/money.ts';
import type { StaffOrderDetail } from '#shared/operations.ts';
import { longDateTime } from '#client/components/ui/staff-order-status.tsx';

type Dispute = StaffOrderDetail['disputes'][number];
type FraudWarning = StaffOrderDetail['fraud_warnings'][number];

/**
 * Stripe's dispute states in operations' words. A `warning_…` state is an inquiry: the bank asks
 * before it decides whether to charge the payment back. States Stripe adds later read as sent.
 */
const disputeStatusLabels: Record<string, string> = {
  warning_needs_response: 'Inquiry: needs a response',
  warning_under_review: 'Inquiry: under review',
  warning_closed: 'Inquiry closed',
  needs_response: 'Needs a response',
  under_review: 'Under review',
  appeal_needs_response: 'Appeal: needs a response',
  appeal_under_review: 'Appeal: under review',
  won: 'Won',
  lost: 'Lost',
  prevented: 'Prevented',
};

/** The states in which the evidence deadline is what matters: nothing happens unless we answer. */
const NEEDS_RESPONSE = new Set([
  'warning_needs_response',
  'needs_response',
  'appeal_needs_response',
]);

/** The issuers' fraud types (Stripe Radar) as the issuer means them. */
const fraudTypeLabels: Record<string, string> = {
  card_never_received: 'Card never received by the cardholder',
  fraudulent_card_application: 'Card issued on a fraudulent application',
  made_with_counterfeit_card: 'Made with a counterfeit card',
  made_with_lost_card: 'Made with a lost card',
  made_with_stolen_card: 'Made with a stolen card',
  unauthorized_use_of_card: 'Unauthorized use of the card',
  misc: 'Other fraud',
  other: 'Other fraud',
};

/** 'product_not_received' → 'Product not received'. */
function inWords(value: string): string {
  const text = value.replace(/_+/g, ' ').trim().toLowerCase();
  return text ? `${text.charAt(0).toUpperCase()}${text.slice(1)}` : '—';
}

const disputeStatusLabel = (status: string) => disputeStatusLabels[status] ?? inWords(status);
const fraudTypeLabel = (type: string) => fraudTypeLabels[type] ?? inWords(type);

/**
 * An order's disputes (chargebacks and inquiries), oldest first, each in the state Stripe last
 * told. One that needs a response shows its deadline in words, not by colour alone: missing it
 * loses the dispute.
 */
export function DisputeList({ disputes }: { disputes: Dispute[] }) {
  return (
    <ul className="space-y-3">
      {disputes.map((dispute) => {
        const needsResponse = NEEDS_RESPONSE.has(dispute.status);
        return (
          <li
            key={dispute.dispute_id}
            className={`rounded-xl border px-3.5 py-3 text-[0.9375rem] ${
              needsResponse ? 'border-warning/40 bg-warning-soft' : 'border-line bg-surface'
            }`}
          >
            <p className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
              <span className={`font-semibold ${needsResponse ? 'text-warning' : 'text-ink'}`}>
                {disputeStatusLabel(dispute.status)}
              </span>
              <span className="font-semibold text-ink">{formatCents(dispute.amount_cents)}</span>
            </p>
            {needsResponse && dispute.evidence_due_by ? (
              <p className="mt-1 font-semibold text-warning">
                Respond by{' '}
                <time dateTime={dispute.evidence_due_by}>
                  {longDateTime(dispute.evidence_due_by)}
                </time>
              </p>
            ) : null}
            <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-ink-soft">
              <dt className="text-muted">Reason</dt>
              <dd>{inWords(dispute.reason)}</dd>
              <dt className="text-muted">Opened</dt>
              <dd>
                <time dateTime={dispute.opened_at}>{longDateTime(dispute.opened_at)}</time>
              </dd>
              {dispute.closed_at ? (
                <>
                  <dt className="text-muted">Closed</dt>
                  <dd>
                    <time dateTime={dispute.closed_at}>{longDateTime(dispute.closed_at)}</time>
                  </dd>
                </>
              ) : null}
              <dt className="text-muted">Stripe dispute</dt>
              <dd className="font-mono text-sm break-all">{dispute.dispute_id}</dd>
            </dl>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The card issuer's early fraud warnings on the order's payment, as a warning above the order's
 * actions: a payment reported as fraud is often disputed later, and refunding it before then
 * costs less than losing the dispute.
 */
export function FraudWarningNotice({ warnings }: { warnings: FraudWarning[] }) {
  return (
    <section
      aria-labelledby="fraud-warning-title"
      className="rounded-2xl border border-warning/30 bg-warning-soft p-5 text-[0.9375rem] text-warning"
    >
      <h2 id="fraud-warning-title" className="font-sans text-base font-semibold">
        Early fraud warning
      </h2>
      <ul className="mt-2 space-y-2">
        {warnings.map((warning) => (
          <li key={warning.warning_id}>
            <p>
              The card&apos;s issuer reported this payment as fraud on{' '}
              <time dateTime={warning.warned_at}>{longDateTime(warning.warned_at)}</time>:{' '}
              <strong className="font-semibold">{fraudTypeLabel(warning.fraud_type)}</strong>.
            </p>
            <p className="mt-0.5">
              {warning.actionable
                ? 'Refunding the payment now can prevent a dispute.'
                : 'The payment has since been disputed or refunded in full.'}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
