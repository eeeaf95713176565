import { useId } from 'react';
import { usDateFromIso } from '#shared/dates.ts';
import {
  LICENCE_WARNING_DAYS,
  type ExpiringLicence,
  type StateCoverage,
} from '#shared/operations.ts';
import { usStates } from '#shared/us-states.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { useStateCoverage } from '../operations.api.ts';

const stateName = (code: string) => usStates.find(([c]) => c === code)?.[1] ?? code;

const providersLabel = (n: number) =>
  n === 0 ? 'no provider' : n === 1 ? '1 provider' : `${n} providers`;

/** "Arizona", "Arizona and Utah", "Arizona, Nevada and Utah". */
function listOf(names: string[]): string {
  const last = names[names.length - 1] ?? '';
  return names.length <= 1 ? last : `${names.slice(0, -1).join(', ')} and ${last}`;
}

/**
 * The operations dashboard's note of where visits can be reviewed: each offered state with its
 * number of licensed providers. A state without one turns its patients away at eligibility, so it
 * is named first, in words, not by colour alone.
 */
export function ProviderCoverage() {
  const coverage = useStateCoverage();
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="mb-5 rounded-2xl border border-line bg-white p-4 shadow-[0_1px_2px_rgba(15,37,51,0.04)]"
    >
      <h2 id={headingId} className="font-sans text-[0.9375rem] font-semibold text-ink">
        Provider coverage
      </h2>
      <div className="mt-2">
        <QueryView query={coverage} loading="Loading provider coverage…" size="inline">
          {({ states, expiring_licences }) => (
            <>
              <CoverageList states={states} />
              <ExpiringLicences licences={expiring_licences} />
            </>
          )}
        </QueryView>
      </div>
    </section>
  );
}

function CoverageList({ states }: { states: StateCoverage[] }) {
  const uncovered = states.filter((s) => s.providers === 0).map((s) => stateName(s.state));
  return (
    <>
      {uncovered.length > 0 ? (
        <p className="rounded-xl border border-warning/30 bg-warning-soft px-3 py-2 text-[0.9375rem] text-warning">
          <strong className="font-semibold">No licensed provider in {listOf(uncovered)}.</strong>{' '}
          Patients there are told we can't offer online visits right now.
        </p>
      ) : (
        <p className="text-[0.9375rem] text-ink-soft">
          Every state we offer has at least one licensed provider.
        </p>
      )}
      <ul className="mt-3 flex flex-wrap gap-2 text-sm">
        {states.map((s) => (
          <li
            key={s.state}
            className={`rounded-full border px-3 py-1 ${
              s.providers === 0
                ? 'border-warning/40 bg-warning-soft text-warning'
                : 'border-line bg-surface text-ink-soft'
            }`}
          >
            <span className="font-semibold text-ink">{stateName(s.state)}</span>:{' '}
            {providersLabel(s.providers)}
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * Issue 29: licences that expire within LICENCE_WARNING_DAYS, soonest first, so operations can
 * ask for the renewal before a state loses its provider (an expired licence counts for nothing).
 */
function ExpiringLicences({ licences }: { licences: ExpiringLicence[] }) {
  if (licences.length === 0) return null;
  return (
    <div className="mt-4 border-t border-line pt-3">
      <h3 className="text-[0.9375rem] font-semibold text-ink">
        Licences expiring within {LICENCE_WARNING_DAYS} days
      </h3>
      <ul className="mt-2 space-y-1 text-[0.9375rem] text-ink-soft">
        {licences.map((l) => (
          <li key={`${l.provider}-${l.state}`}>
            <span className="font-semibold text-ink">{l.provider}</span>, {stateName(l.state)} (
            {l.number}): valid until{' '}
            <time dateTime={l.expires_on}>{usDateFromIso(l.expires_on)}</time>
          </li>
        ))}
      </ul>
    </div>
  );
}
