import { apiPaths, apiUrl } from '#shared/api.ts';
import { usDateFromIso } from '#shared/dates.ts';
import { orderStatusLabels, type OrderStatus } from '#shared/orders.ts';
import { scalpViewWords } from '#shared/renewals.ts';
import type { RenewalChart } from '#shared/reviews.ts';
import { longDateTime } from '#client/components/ui/staff-order-status.tsx';
import { ChartPanel as Section } from './chart-panel.tsx';

const day = (iso: string) => (/^\d{4}-\d{2}-\d{2}$/.test(iso) ? usDateFromIso(iso) : iso);

/**
 * A renewal's answers against the last visit's (issue 29): every question of the renewal, this
 * answer, the last one, and the changed ones marked — in words and not by colour alone.
 */
export function RenewalComparison({ renewal }: { renewal: RenewalChart }) {
  const changed = renewal.comparison.filter((row) => row.changed).length;
  return (
    <Section id="comparison-title" title="Answers since the last visit">
      <p className="-mt-1 mb-3 text-sm text-muted">
        {changed === 0
          ? 'No answer changed since the last visit.'
          : `${changed} ${changed === 1 ? 'answer' : 'answers'} changed since the last visit`}
        {renewal.previous_visit.submitted_at
          ? ` (sent ${longDateTime(renewal.previous_visit.submitted_at)}).`
          : '.'}
      </p>
      <dl className="divide-y divide-line">
        {renewal.comparison.map((row) => (
          <div
            key={row.linkId}
            className={`py-3 first:pt-0 ${row.changed ? '-mx-2 rounded-lg bg-warning-soft/60 px-2' : ''}`}
          >
            <dt className="text-sm text-muted">
              {row.question}
              {row.changed ? (
                <span className="ml-2 inline-flex rounded-full bg-warning-soft px-2 py-0.5 text-xs font-semibold text-ink ring-1 ring-warning/30">
                  Changed
                </span>
              ) : null}
            </dt>
            <dd className="mt-0.5 text-[0.9375rem] break-words text-ink">{row.answer}</dd>
            <dd className="text-sm text-ink-soft">Last visit: {row.previous ?? 'not asked'}</dd>
          </div>
        ))}
      </dl>
    </Section>
  );
}

/**
 * A Hair renewal's scalp photos (decision 023): the current one of each view, beside its label, each
 * opening at full size to look closer. Kept on the chart after the decision, as the answers are.
 */
export function RenewalScalpPhotos({ renewal }: { renewal: RenewalChart }) {
  return (
    <Section id="scalp-photos-title" title="Scalp photos">
      {renewal.scalp_photos.length === 0 ? (
        <p className="text-[0.9375rem] text-ink-soft">No scalp photos were added.</p>
      ) : (
        <ul className="grid grid-cols-1 gap-4 sm:grid-cols-3">
          {renewal.scalp_photos.map((photo) => {
            const src = apiUrl(apiPaths.visitUpload, { id: photo.upload_key });
            return (
              <li key={photo.view}>
                <figure>
                  <img
                    src={src}
                    alt={scalpViewWords[photo.view].alt}
                    className="aspect-square w-full rounded-xl bg-surface object-cover ring-1 ring-line"
                  />
                  <figcaption className="mt-1.5 text-sm text-ink">
                    {photo.label}
                    <a
                      href={src}
                      target="_blank"
                      rel="noreferrer"
                      className="mt-0.5 block text-sm font-medium text-accent-800 underline underline-offset-4 decoration-accent-300 hover:text-accent-900"
                    >
                      Open full size<span className="sr-only">: {photo.label.toLowerCase()}</span>
                    </a>
                  </figcaption>
                </figure>
              </li>
            );
          })}
        </ul>
      )}
    </Section>
  );
}

/** The prescription renewed, the program's earlier ones, and the fills of its plan. */
export function RenewalHistory({ renewal }: { renewal: RenewalChart }) {
  const { renews } = renewal;
  return (
    <>
      <Section id="renews-title" title="Prescription to renew">
        <p className="font-semibold text-ink">{renews.medicine}</p>
        <p className="text-[0.9375rem] text-ink-soft">
          {renews.quantity} a month · {renews.refills} {renews.refills === 1 ? 'refill' : 'refills'}{' '}
          · valid until {day(renews.valid_until)}
        </p>
        {renews.directions ? (
          <p className="mt-1 text-[0.9375rem] text-ink-soft">{renews.directions}</p>
        ) : null}
        <p className="mt-2 text-sm text-muted">
          No payment is held for a renewal: approving continues the patient's refill plan at its
          price and dates; declining ends it after the supply already paid for.
        </p>
      </Section>
      <Section id="prescriptions-title" title="Prescriptions">
        <ul className="space-y-2 text-[0.9375rem]">
          {renewal.prescriptions.map((p) => (
            <li key={`${p.written_on}-${p.medicine}-${p.valid_until}`}>
              <span className="text-ink">{p.medicine}</span>
              <span className="block text-sm text-ink-soft">
                Written {day(p.written_on)} · {p.refills} {p.refills === 1 ? 'refill' : 'refills'} ·
                until {day(p.valid_until)}
              </span>
            </li>
          ))}
        </ul>
      </Section>
      <Section id="fills-title" title="Fills">
        {renewal.fills.length === 0 ? (
          <p className="text-[0.9375rem] text-ink-soft">No fills yet.</p>
        ) : (
          <ul className="space-y-2 text-[0.9375rem]">
            {renewal.fills.map((fill) => (
              <li key={fill.order_number} className="flex justify-between gap-3">
                <span className="text-ink">
                  {fill.order_number}
                  <span className="block text-sm text-ink-soft">
                    {longDateTime(fill.placed_at)}
                  </span>
                </span>
                <span className="text-sm text-ink-soft">
                  {orderStatusLabels[fill.status as OrderStatus] ?? fill.status}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </>
  );
}
