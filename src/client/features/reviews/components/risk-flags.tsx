import type { Chart } from '#shared/reviews.ts';

/**
 * How each risk flag's severity reads and looks: information is not an alarm (blue), a caution is
 * amber, only a high risk is red.
 */
const severityStyles: Record<string, { label: string; className: string }> = {
  info: { label: 'Information', className: 'bg-accent-50 text-accent-900 ring-1 ring-accent-200' },
  caution: { label: 'Caution', className: 'bg-warning-soft text-warning ring-1 ring-warning/20' },
  high: { label: 'High risk', className: 'bg-danger-soft text-danger ring-1 ring-danger/20' },
};

function severityOf(severity: string): { label: string; className: string } {
  return (
    severityStyles[severity] ?? {
      label: humanize(severity),
      className: 'bg-surface text-ink ring-1 ring-line',
    }
  );
}

function humanize(value: string): string {
  const text = value.replace(/[_-]+/g, ' ').toLowerCase();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The risk flags a visit's answers raise, each with its severity in words and tone. */
export function RiskFlagList({ flags }: { flags: Chart['risk_flags'] }) {
  if (flags.length === 0) return <p className="text-[0.9375rem] text-ink-soft">No risk flags.</p>;
  return (
    <ul className="space-y-2">
      {flags.map((flag) => {
        const severity = severityOf(flag.severity);
        return (
          <li
            key={`${flag.code}-${flag.linkId}`}
            className={`rounded-xl px-3.5 py-2.5 text-[0.9375rem] ${severity.className}`}
          >
            <span className="font-semibold">{severity.label}:</span> {flag.text}
          </li>
        );
      })}
    </ul>
  );
}
