import { Link } from 'react-router';
import type { Renewal } from '#shared/renewals.ts';
import { buttonClass } from '#client/components/ui/button.ts';
import { mediumDate } from '#client/components/ui/order-status.tsx';

/** Why a prescription is due, in the patient's words. */
function dueBecause(renewal: Renewal): string {
  const fills =
    renewal.refills_remaining === 0
      ? 'No refills left'
      : renewal.refills_remaining === 1
        ? '1 refill left'
        : `${renewal.refills_remaining} refills left`;
  return `${fills}; valid until ${mediumDate(renewal.valid_until)}.`;
}

/**
 * Home's "Renew your prescription" (issue 29): each program whose prescription is running out,
 * with a way to renew it in a few minutes, or where the renewal stands.
 */
export function RenewalsCard({ renewals }: { renewals: Renewal[] }) {
  return (
    <section
      aria-labelledby="renewals-title"
      className="rounded-3xl border border-accent-200 bg-accent-50/60 p-5 sm:p-6"
    >
      <h2 id="renewals-title" className="text-xl text-ink">
        Renew your prescription
      </h2>
      <p className="mt-1 text-ink-soft">
        A few short questions (about five minutes) keep your refills coming without a gap. Nothing
        is charged for a renewal.
      </p>
      <ul className="mt-4 space-y-3">
        {renewals.map((renewal) => (
          <li
            key={renewal.category}
            className="flex flex-col gap-3 rounded-2xl border border-line bg-white p-4 sm:flex-row sm:items-center sm:justify-between"
          >
            <div>
              <p className="font-semibold text-ink">{renewal.medicine}</p>
              <p className="text-sm text-ink-soft">
                {renewal.program}. {dueBecause(renewal)}
              </p>
              {renewal.status === 'in_review' ? (
                <p className="mt-1 text-sm font-semibold text-accent-800">
                  Your answers are with your provider.
                </p>
              ) : null}
            </div>
            {renewal.status === 'in_review' ? null : (
              <Link
                to={renewal.href}
                className={`${buttonClass(renewal.status === 'due' ? 'primary' : 'secondary')} shrink-0 self-start sm:self-auto`}
              >
                {renewal.status === 'due' ? 'Renew your prescription' : 'Continue your renewal'}{' '}
                <span className="sr-only">for {renewal.medicine}</span>
              </Link>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
