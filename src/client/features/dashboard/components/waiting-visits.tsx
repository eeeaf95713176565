import { useId } from 'react';
import { waitedLabel, type Dashboard } from '#shared/dashboard.ts';

/** How many of the oldest waiting visits get a bar; the rest are counted. */
const SHOWN = 10;

const visitsLabel = (n: number) => (n === 1 ? '1 visit' : `${n} visits`);

/**
 * The visits waiting for a provider now, oldest first, each a bar of how long it has waited with
 * the review target marked: past the mark is late, said in words as well as by colour. Nothing
 * about the patient — the wait is the operator's concern; the visit is the provider's.
 */
export function WaitingVisits({ visits }: { visits: Dashboard['visits'] }) {
  const titleId = useId();
  const targetMinutes = visits.target_hours * 60;
  const shown = visits.oldest.slice(0, SHOWN);
  const longest = Math.max(targetMinutes * 1.25, ...shown.map((v) => v.waited_minutes));
  const at = (minutes: number) => `${Math.min(100, (minutes / longest) * 100)}%`;
  const oldest = visits.oldest[0];
  return (
    <section
      aria-labelledby={titleId}
      className="min-w-0 rounded-2xl border border-line bg-white p-4 shadow-[0_1px_2px_rgba(15,37,51,0.04)] sm:p-5"
    >
      <h2 id={titleId} className="font-sans text-base font-semibold text-ink">
        Visits waiting for review
      </h2>
      <p className="mt-1 text-[0.9375rem] text-ink-soft">
        {visits.waiting === 0
          ? `No visit is waiting. The target is a decision within ${visits.target_hours} hours.`
          : `${visitsLabel(visits.waiting)} waiting; ${visits.over_target} past the ${visits.target_hours}-hour target.${
              oldest ? ` The oldest has waited ${waitedLabel(oldest.waited_minutes)}.` : ''
            }`}
      </p>
      {shown.length > 0 ? (
        <>
          <p className="mt-3 flex items-center gap-2 text-xs text-muted" aria-hidden="true">
            <span className="inline-block h-3 w-0.5 bg-ink" /> {visits.target_hours}-hour target
          </p>
          <ol className="mt-2 space-y-2" aria-label="Oldest waiting visits">
            {shown.map((visit, i) => {
              const late = visit.waited_minutes > targetMinutes;
              return (
                <li key={`${visit.submitted_at}-${i}`} className="text-sm">
                  <div className="flex justify-between gap-2">
                    <span className="text-ink tabular-nums">
                      Waited {waitedLabel(visit.waited_minutes)}
                    </span>
                    <span className={late ? 'font-semibold text-danger' : 'text-success'}>
                      {late ? 'Past target' : 'Within target'}
                    </span>
                  </div>
                  <div className="relative mt-1 h-3 rounded-full bg-line/60" aria-hidden="true">
                    <div
                      className={`h-3 rounded-full ${late ? 'bg-danger' : 'bg-accent-600'}`}
                      style={{ width: `max(0.375rem, ${at(visit.waited_minutes)})` }}
                    />
                    <div
                      className="absolute -top-1 h-5 w-0.5 bg-ink"
                      style={{ left: at(targetMinutes) }}
                    />
                  </div>
                </li>
              );
            })}
          </ol>
          {visits.waiting > shown.length ? (
            <p className="mt-3 text-sm text-ink-soft">
              And {visitsLabel(visits.waiting - shown.length)} more, waiting less long.
            </p>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
