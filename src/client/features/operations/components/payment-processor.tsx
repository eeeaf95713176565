import type { RiskLevel, StaffOrderProcessor } from '#shared/operations.ts';

/**
 * Radar's risk levels in operations' words. The words carry the meaning; the colour of the two
 * raised levels only draws the eye to them.
 */
const riskLevels: Record<RiskLevel, { label: string; note: string | null; className: string }> = {
  normal: { label: 'Normal risk', note: null, className: 'border-line bg-surface text-ink' },
  elevated: {
    label: 'Elevated risk',
    note: 'The processor rated this payment riskier than most. Check the order before it ships.',
    className: 'border-warning/40 bg-warning-soft text-warning',
  },
  highest: {
    label: 'Highest risk',
    note: 'The processor rated this payment very likely to be fraud. Consider refunding it rather than shipping.',
    className: 'border-danger/40 bg-danger-soft text-danger',
  },
  not_assessed: {
    label: 'Not assessed',
    note: null,
    className: 'border-line bg-surface text-ink-soft',
  },
  unknown: { label: 'Unknown', note: null, className: 'border-line bg-surface text-ink-soft' },
};

function RiskLevelValue({ level }: { level: RiskLevel }) {
  const { label, note, className } = riskLevels[level];
  return (
    <>
      <span
        className={`inline-block rounded-full border px-2.5 py-0.5 text-sm font-semibold ${className}`}
      >
        {label}
      </span>
      {note ? <span className="mt-1 block text-ink-soft">{note}</span> : null}
    </>
  );
}

/**
 * The order's payment as the processor shows it: its id, linked to its page in the processor's
 * dashboard, the fraud screening's rating, and why a capture of the hold failed. When the
 * processor could not be asked, it says so instead of leaving the rating out silently.
 */
export function ProcessorDetails({ processor }: { processor: StaffOrderProcessor }) {
  return (
    <dl className="space-y-3 text-[0.9375rem]">
      <div>
        <dt className="text-sm text-muted">Payment ID</dt>
        <dd>
          {processor.dashboard_url ? (
            <a
              href={processor.dashboard_url}
              target="_blank"
              rel="noopener noreferrer"
              className="font-mono text-sm break-all text-accent-800 underline underline-offset-4"
            >
              {processor.payment_id}
              <span className="sr-only"> (the processor&apos;s dashboard, opens in a new tab)</span>
            </a>
          ) : (
            <span className="font-mono text-sm break-all text-ink">{processor.payment_id}</span>
          )}
        </dd>
      </div>
      {processor.unavailable ? (
        <div>
          <dt className="text-sm text-muted">Fraud risk</dt>
          <dd className="text-ink-soft">
            The payment processor could not be reached just now, so the link to its dashboard and
            the risk level are not shown. Reload the page to try again.
          </dd>
        </div>
      ) : processor.risk_level ? (
        <div>
          <dt className="text-sm text-muted">Fraud risk</dt>
          <dd>
            <RiskLevelValue level={processor.risk_level} />
          </dd>
        </div>
      ) : null}
      {processor.capture_failure ? (
        <div>
          <dt className="text-sm text-muted">Capture failed</dt>
          <dd className="text-danger">{processor.capture_failure}</dd>
        </div>
      ) : null}
    </dl>
  );
}
