import { Link } from 'react-router';
import { usDateFromIso } from '#shared/dates.ts';
import type { ActivePrescriptions as ActivePrescriptionList } from '#shared/messages.ts';
import { paths } from '#shared/paths.ts';

/**
 * What the patient takes now, beside every message of theirs a provider reads (issue 29): each
 * prescription still valid, with its directions and the chart it came from.
 */
export function ActivePrescriptions({
  prescriptions,
  className = '',
}: {
  prescriptions: ActivePrescriptionList;
  className?: string;
}) {
  return (
    <section
      aria-labelledby="active-prescriptions-title"
      className={`rounded-2xl border border-line bg-white p-5 shadow-[0_1px_2px_rgba(15,37,51,0.04)] ${className}`}
    >
      <h2 id="active-prescriptions-title" className="font-sans text-base font-semibold text-ink">
        Active prescriptions
      </h2>
      {prescriptions.length === 0 ? (
        <p className="mt-2 text-[0.9375rem] text-ink-soft">None valid today.</p>
      ) : (
        <ul className="mt-2 divide-y divide-line">
          {prescriptions.map((rx) => (
            <li
              key={`${rx.visit_id}-${rx.medicine}`}
              className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 py-2.5 first:pt-0 last:pb-0"
            >
              <div className="min-w-0">
                <p className="font-medium text-ink">{rx.medicine}</p>
                {rx.directions ? (
                  <p className="text-[0.9375rem] text-ink-soft">{rx.directions}</p>
                ) : null}
                <p className="text-sm text-muted">
                  {rx.refills} {rx.refills === 1 ? 'refill' : 'refills'} prescribed · valid until{' '}
                  {usDateFromIso(rx.valid_until)}
                </p>
              </div>
              <Link
                to={paths.staffVisit(rx.visit_id)}
                className="shrink-0 text-sm font-semibold text-accent-800 underline underline-offset-4"
              >
                Chart
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
