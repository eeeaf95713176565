import type { ReactNode } from 'react';
import { format, parseISO } from 'date-fns';
import { dateFormats } from '#shared/constants.ts';
import { usDateFromIso } from '#shared/dates.ts';
import type { ChartDecision } from '#shared/reviews.ts';

const when = (iso: string) => format(parseISO(iso), dateFormats.long);

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="py-2.5 first:pt-0 last:pb-0 sm:grid sm:grid-cols-[10rem_minmax(0,1fr)] sm:gap-4">
      <dt className="text-sm text-muted">{term}</dt>
      <dd className="mt-0.5 text-[0.9375rem] break-words text-ink sm:mt-0">{children}</dd>
    </div>
  );
}

/**
 * A decided visit's clinical record (issue 29): who decided and when, whether the photo ID was
 * opened before it, and what was prescribed, or the reason the patient was given.
 */
export function DecisionRecord({ decision }: { decision: ChartDecision }) {
  const { prescription } = decision;
  const approved = decision.outcome === 'approved';
  return (
    <section
      aria-labelledby="decision-record-title"
      className="rounded-2xl border border-line bg-white p-5 shadow-[0_1px_2px_rgba(15,37,51,0.04)]"
    >
      <h2 id="decision-record-title" className="font-sans text-base font-semibold text-ink">
        {approved ? 'Approved' : 'Declined'}
      </h2>
      <dl className="mt-3 divide-y divide-line">
        <Row term="Decided by">
          {decision.provider},{' '}
          <time dateTime={decision.decided_at}>{when(decision.decided_at)}</time>
        </Row>
        <Row term="Photo ID">
          {decision.photo_id_viewed_at ? (
            <>
              Opened by a provider before the decision,{' '}
              <time dateTime={decision.photo_id_viewed_at}>
                {when(decision.photo_id_viewed_at)}
              </time>
            </>
          ) : (
            'Not opened before the decision'
          )}
        </Row>
        {prescription ? (
          <>
            <Row term="Medicine">{prescription.medicine}</Row>
            <Row term="Quantity">{prescription.quantity}</Row>
            <Row term="Refills">{prescription.refills}</Row>
            <Row term="Directions">{prescription.directions ?? 'Not recorded'}</Row>
            <Row term="Valid until">
              <time dateTime={prescription.valid_until}>
                {usDateFromIso(prescription.valid_until)}
              </time>
            </Row>
          </>
        ) : null}
        {approved && !prescription ? <Row term="Prescription">Not recorded</Row> : null}
        {decision.reason ? <Row term="Reason given">{decision.reason}</Row> : null}
      </dl>
    </section>
  );
}
