import { Link, Navigate } from 'react-router';
import { pharmacyStepLabels } from '#shared/orders.ts';
import { PHARMACY_STUCK_HOURS, type PharmacyQueueItem } from '#shared/pharmacy.ts';
import { paths } from '#shared/paths.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { longDateTime } from '#client/components/ui/staff-order-status.tsx';
import { textLinkClass } from '#client/components/ui/button.ts';
import { StaffHeader } from '#client/features/staff/components/staff-frame.tsx';
import { useStaff } from '#client/features/staff/components/staff-layout.tsx';
import { usePharmacyQueue } from '../pharmacy.api.ts';

const cardClass =
  'rounded-2xl border border-line bg-white p-4 shadow-[0_1px_2px_rgba(15,37,51,0.04)] sm:p-5';

function summary(orders: PharmacyQueueItem[] | undefined): string {
  if (orders === undefined) return 'Prescriptions and refills on their way through the pharmacy.';
  if (orders.length === 0) return 'Every prescription sent to the pharmacy has been delivered.';
  const stuck = orders.filter((o) => o.stuck).length;
  const moving = orders.length - stuck;
  return [
    stuck > 0 ? `${stuck} ${stuck === 1 ? 'needs' : 'need'} attention` : null,
    moving > 0 ? `${moving} on ${moving === 1 ? 'its' : 'their'} way` : null,
  ]
    .filter(Boolean)
    .join('; ')
    .concat('.');
}

/** Where an order stands, in words: its last step, or why it has not been sent. */
function stepText(order: PharmacyQueueItem): string {
  if (order.step) return pharmacyStepLabels[order.step];
  if (order.message_status === 'failed') return 'Refused by the pharmacy';
  return order.attempts > 0 ? 'Not yet sent: the pharmacy did not take it' : 'Waiting to be sent';
}

/**
 * /staff/pharmacy (issue 29): every prescription and refill on its way through the pharmacy and not
 * delivered yet, for operations staff. Stuck ones first: more than a day at one step (a week once
 * the carrier has it), refused by the pharmacy, or rejected by it. No medicine or patient is named:
 * the order number leads to the order, where operations see what they may.
 */
export function StaffPharmacyPage() {
  const staff = useStaff();
  const queue = usePharmacyQueue({ enabled: staff.role === 'operations' });
  if (staff.role !== 'operations') return <Navigate to={paths.staff} replace />;
  return (
    <>
      <StaffHeader title="Pharmacy" subtitle={<p>{summary(queue.data)}</p>} />
      <QueryView query={queue} loading="Loading the pharmacy queue…">
        {(orders) =>
          orders.length === 0 ? (
            <section className="max-w-2xl rounded-3xl border border-line bg-white p-6 shadow-[0_1px_2px_rgba(15,37,51,0.04)] sm:p-8">
              <h2 className="text-xl text-ink">Nothing on its way</h2>
              <p className="mt-2 text-ink-soft">
                When a provider approves a visit or a refill is paid, its prescription goes to the
                pharmacy and appears here until it is delivered. Anything waiting more than{' '}
                {PHARMACY_STUCK_HOURS} hours at one step is flagged.
              </p>
            </section>
          ) : (
            <ul className="max-w-3xl space-y-3">
              {orders.map((order) => (
                <li key={`${order.kind}-${order.order_id}`}>
                  <PharmacyItem order={order} />
                </li>
              ))}
            </ul>
          )
        }
      </QueryView>
    </>
  );
}

function PharmacyItem({ order }: { order: PharmacyQueueItem }) {
  const titleId = `pharmacy-order-${order.order_id}`;
  return (
    <article className={cardClass} aria-labelledby={titleId}>
      <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
        <h2 id={titleId} className="min-w-0 text-base font-semibold text-ink">
          <Link to={paths.staffOrder(order.order_id)} className={textLinkClass}>
            Order {order.order_number}
          </Link>{' '}
          <span className="font-normal text-muted">
            · {order.kind === 'NewRx' ? 'New prescription' : 'Refill'}
          </span>
        </h2>
        {order.stuck ? (
          <span className="shrink-0 rounded-full bg-danger-soft px-2.5 py-0.5 text-sm font-medium text-danger">
            Needs attention
          </span>
        ) : (
          <span className="shrink-0 rounded-full bg-accent-50 px-2.5 py-0.5 text-sm font-medium text-accent-900">
            On its way
          </span>
        )}
      </div>
      <p className="mt-1 text-sm text-ink">
        {stepText(order)} since <time dateTime={order.since}>{longDateTime(order.since)}</time>
      </p>
      {order.rejected_reason ? (
        <p className="mt-1 text-sm text-ink-soft">Pharmacy’s reason: {order.rejected_reason}</p>
      ) : null}
      {order.last_error && order.message_status !== 'sent' ? (
        <p className="mt-1 text-sm text-ink-soft">
          {order.attempts} {order.attempts === 1 ? 'attempt' : 'attempts'} · Last error:{' '}
          {order.last_error}
        </p>
      ) : null}
    </article>
  );
}
