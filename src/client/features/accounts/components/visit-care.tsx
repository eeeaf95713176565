import { Link } from 'react-router';
import { usDateFromIso } from '#shared/dates.ts';
import {
  careStateLabels,
  careStateNext,
  type CareState,
  type PrescriptionView,
  type VisitCare,
} from '#shared/orders.ts';
import { paths } from '#shared/paths.ts';
import { textLinkClass } from '#client/components/ui/button.ts';

/** How each clinical state looks: 'Declined' is red (spec §2), the rest calm. */
const tones: Record<CareState, { box: string; word: string }> = {
  UNDER_REVIEW: { box: 'border-accent-200 bg-accent-50', word: 'text-accent-900' },
  APPROVED: { box: 'border-success/20 bg-success-soft', word: 'text-success' },
  SHIPPED: { box: 'border-success/20 bg-success-soft', word: 'text-success' },
  DELIVERED: { box: 'border-success/20 bg-success-soft', word: 'text-success' },
  DECLINED: { box: 'border-danger/20 bg-danger-soft', word: 'text-danger' },
};

function StateIcon({ state }: { state: CareState }) {
  const common = {
    'aria-hidden': true,
    viewBox: '0 0 20 20',
    className: `mt-0.5 size-5 shrink-0 ${tones[state].word}`,
    fill: 'none',
    stroke: 'currentColor',
    strokeWidth: 2,
  } as const;
  if (state === 'UNDER_REVIEW')
    return (
      <svg {...common}>
        <circle cx="10" cy="10" r="7.25" />
        <path d="M10 6v4.25l2.75 1.75" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    );
  if (state === 'DECLINED')
    return (
      <svg {...common}>
        <circle cx="10" cy="10" r="7.25" />
        <path d="M7.5 7.5l5 5m0-5l-5 5" strokeLinecap="round" />
      </svg>
    );
  return (
    <svg {...common}>
      <path d="M4 10.5l4 4 8-9" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/**
 * Where an online visit's order stands, in words, with what happens next: under review, approved
 * or declined, shipped, delivered. `titleId` names the state for the section around it.
 */
export function CareStatus({ care, titleId }: { care: VisitCare; titleId: string }) {
  const tone = tones[care.state];
  return (
    <div className={`flex gap-3 rounded-2xl border p-4 ${tone.box}`}>
      <StateIcon state={care.state} />
      <div className="min-w-0">
        <p id={titleId} className="text-sm text-ink-soft">
          Your online visit:{' '}
          <span className={`text-base font-semibold ${tone.word}`}>
            {careStateLabels[care.state]}
          </span>
        </p>
        <p className="mt-1 text-[0.9375rem] text-ink">{careStateNext[care.state]}</p>
        {care.state === 'DECLINED' ? (
          <Link to={paths.messages} className={`${textLinkClass} mt-2 inline-block`}>
            Read your provider's note in Messages
          </Link>
        ) : null}
      </div>
    </div>
  );
}

/** The prescription as its patient reads it: medicine, dose, quantity, refills, dates, directions. */
export function PrescriptionDetails({
  prescription,
  titleId,
}: {
  prescription: PrescriptionView;
  titleId: string;
}) {
  const rows: [string, string][] = [
    ['Medicine', prescription.drug],
    ['Dose', prescription.dose],
    ['Quantity', String(prescription.quantity)],
    ['Refills left', prescription.refills_left === 0 ? 'None' : String(prescription.refills_left)],
    ['Valid until', usDateFromIso(prescription.valid_until)],
  ];
  return (
    <section aria-labelledby={titleId} className="rounded-2xl border border-line p-4">
      <h4 id={titleId} className="font-sans text-base font-semibold text-ink">
        Your prescription
      </h4>
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-3 text-[0.9375rem] sm:grid-cols-3">
        {rows.map(([term, value]) => (
          <div key={term} className="min-w-0">
            <dt className="text-sm text-muted">{term}</dt>
            <dd className="break-words text-ink">{value}</dd>
          </div>
        ))}
        <div className="col-span-2 sm:col-span-3">
          <dt className="text-sm text-muted">Directions</dt>
          <dd className="break-words whitespace-pre-line text-ink">
            {prescription.directions ??
              'Take as your provider told you. Ask your care team in Messages if you are unsure.'}
          </dd>
        </div>
      </dl>
    </section>
  );
}
