import { Link } from 'react-router';
import type { Flag } from '#shared/accounts.ts';
import { formatCents } from '#shared/money.ts';
import {
  pharmacyNow,
  pharmacyStepLabels,
  type Order,
  type PharmacyTimeline,
} from '#shared/orders.ts';
import { buttonClass, textLinkClass } from '#client/components/ui/button.ts';
import { paths } from '#shared/paths.ts';
import { TogetherCard } from '#client/features/partners/components/together-card.tsx';
import { RenewalsCard } from '../components/renewals-card.tsx';
import { ClosedVisitNotice } from '#client/features/visits/components/closed-visit.tsx';
import { useClosedVisits } from '#client/features/visits/visits.api.ts';
import type { ClosedVisit } from '#shared/visits.ts';
import { isLiveMemberLink } from '../account-nav.ts';
import { AccountHeader, useMemberData } from '../components/account-layout.tsx';
import { mediumDate, OrderStatusBadge } from '#client/components/ui/order-status.tsx';
import { CareStatus, PrescriptionDetails } from '../components/visit-care.tsx';

const RECENT_ORDERS = 3;

/** What each kind of flag asks the customer to do, as the link's words. */
const flagActions: Record<Flag['type'], string> = {
  payment_failed: 'Update payment method',
  payment_confirmation: 'Confirm your payment',
  card_expired: 'Update your card',
  card_expiring: 'Update your card',
  visit_incomplete: 'Finish your visit',
  unread_messages: 'Read your messages',
};

const cardClass =
  'rounded-3xl border border-line bg-white p-5 shadow-[0_1px_2px_rgba(15,37,51,0.04)] sm:p-6';

function NeedsAttention({ flags }: { flags: Flag[] }) {
  return (
    <section aria-labelledby="attention-title" className={cardClass}>
      <h2 id="attention-title" className="text-xl text-ink">
        Needs attention
      </h2>
      {flags.length === 0 ? (
        <p className="mt-3 flex items-center gap-2 text-ink-soft">
          <svg
            aria-hidden="true"
            viewBox="0 0 20 20"
            className="size-5 text-success"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            <path d="M4 10.5l4 4 8-9" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          You're all caught up. Nothing needs your attention.
        </p>
      ) : (
        <ul className="mt-4 space-y-3">
          {flags.map((flag) => (
            <li
              key={`${flag.type}-${flag.href}`}
              className="flex flex-col gap-3 rounded-2xl border border-danger/15 bg-danger-soft/60 p-4 sm:flex-row sm:items-center sm:justify-between"
            >
              <p className="flex gap-2.5 text-[0.9375rem] text-ink">
                <svg
                  aria-hidden="true"
                  viewBox="0 0 20 20"
                  className="mt-0.5 size-5 shrink-0 text-danger"
                  fill="currentColor"
                >
                  <path d="M10 1.75a8.25 8.25 0 1 0 0 16.5 8.25 8.25 0 0 0 0-16.5Zm0 4a.9.9 0 0 1 .9.9v3.9a.9.9 0 1 1-1.8 0V6.65a.9.9 0 0 1 .9-.9Zm0 8.6a1.1 1.1 0 1 1 0-2.2 1.1 1.1 0 0 1 0 2.2Z" />
                </svg>
                <span>{flag.message}</span>
              </p>
              {isLiveMemberLink(flag.href) ? (
                <Link
                  to={flag.href}
                  className={`${buttonClass('secondary')} shrink-0 self-start sm:self-auto`}
                >
                  {flagActions[flag.type]}
                </Link>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Online visits that closed as dead ends (ineligible, not a fit, or sent to a provider at the
 * patient's request): said briefly, with why and what to do instead — never "finish".
 */
function ClosedVisits({ visits }: { visits: ClosedVisit[] }) {
  return (
    <section aria-labelledby="closed-visits-title" className={cardClass}>
      <h2 id="closed-visits-title" className="text-xl text-ink">
        Your online visits
      </h2>
      <ul className="mt-4 space-y-3">
        {visits.map((visit) => (
          <li key={visit.visit_id}>
            <ClosedVisitNotice visit={visit} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function itemSummary(order: Order): string {
  const [first, ...rest] = order.order_items;
  if (!first) return 'No items';
  return rest.length === 0 ? first.product_name : `${first.product_name} and ${rest.length} more`;
}

function RecentOrders({ orders }: { orders: Order[] }) {
  // Orders link to their place on the Orders page once that page exists.
  const ordersLive = isLiveMemberLink(paths.orders);
  return (
    <section aria-labelledby="orders-title" className={cardClass}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 id="orders-title" className="text-xl text-ink">
          Recent orders
        </h2>
        {ordersLive && orders.length > 0 ? (
          <Link to={paths.orders} className={textLinkClass}>
            View all orders
          </Link>
        ) : null}
      </div>
      {orders.length === 0 ? (
        <div className="mt-3">
          <p className="text-ink-soft">
            You haven't placed an order yet. Our gummies for sleep, hair and immunity ship free.
          </p>
          <Link
            to={{ pathname: paths.home, hash: '#supplements' }}
            className={`${buttonClass('primary')} mt-4`}
          >
            Shop supplements
          </Link>
        </div>
      ) : (
        <ul className="mt-4 divide-y divide-line">
          {orders.map((order) => {
            const image = order.order_items[0]?.product_image;
            return (
              <li key={order.order_number} className="flex gap-4 py-4 first:pt-0 last:pb-0">
                {image ? (
                  <img
                    src={image}
                    alt=""
                    width={56}
                    height={56}
                    loading="lazy"
                    className="size-14 shrink-0 rounded-xl bg-surface object-cover ring-1 ring-line"
                  />
                ) : null}
                <div className="min-w-0 flex-1">
                  <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1">
                    <h3 className="font-sans text-base font-semibold text-ink">
                      {ordersLive ? (
                        <Link
                          to={{ pathname: paths.orders, hash: `#${order.order_number}` }}
                          className="underline-offset-4 hover:text-accent-800 hover:underline"
                        >
                          Order #{order.order_number}
                        </Link>
                      ) : (
                        `Order #${order.order_number}`
                      )}
                    </h3>
                    <p className="font-semibold text-ink">{formatCents(order.order_total_cents)}</p>
                  </div>
                  <p className="mt-0.5 truncate text-sm text-ink-soft">{itemSummary(order)}</p>
                  <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1.5 text-sm text-muted">
                    <time dateTime={order.order_date}>{mediumDate(order.order_date)}</time>
                    <OrderStatusBadge status={order.order_status} />
                  </div>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/**
 * The patient's online visits that are under review or approved: where each stands, what happens
 * next and, once approved, the prescription with its directions. A declined visit is on Orders.
 */
function YourTreatment({ orders }: { orders: Order[] }) {
  const ordersLive = isLiveMemberLink(paths.orders);
  return (
    <section aria-labelledby="treatment-title" className={cardClass}>
      <h2 id="treatment-title" className="text-xl text-ink">
        Your treatment
      </h2>
      <ul className="mt-4 space-y-6">
        {orders.map((order) => {
          const care = order.visit;
          if (!care) return null;
          const id = `home-${order.order_number}`;
          return (
            <li key={order.order_number} className="space-y-4">
              <CareStatus care={care} titleId={`${id}-care`} />
              {care.prescription ? (
                <PrescriptionDetails
                  prescription={care.prescription}
                  titleId={`${id}-prescription`}
                />
              ) : null}
              {order.pharmacy ? <MedicineNow timeline={order.pharmacy} /> : null}
              {ordersLive ? (
                <p className="text-[0.9375rem]">
                  <Link
                    to={{ pathname: paths.orders, hash: `#${order.order_number}` }}
                    className={textLinkClass}
                  >
                    See order #{order.order_number}
                  </Link>
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/**
 * Issue 29: where the medicine is, in one line (each step is on the order): "Your medicine: Filled
 * by the pharmacist on Nov 21, 2026." A fill the pharmacy could not make says why.
 */
function MedicineNow({ timeline }: { timeline: PharmacyTimeline }) {
  const now = pharmacyNow(timeline);
  if (!now) return null;
  return (
    <p className="text-[0.9375rem] text-ink-soft">
      <span className="font-semibold text-ink">Your medicine:</span> {pharmacyStepLabels[now.step]}{' '}
      on <time dateTime={now.at}>{mediumDate(now.at)}</time>.
      {now.step === 'rejected' && timeline.rejected_reason
        ? ` ${timeline.rejected_reason} Your provider will write to you in Messages.`
        : null}
    </p>
  );
}

/** Visit orders Home shows: under review, or approved with a prescription. */
function inTreatment(order: Order): boolean {
  return order.visit !== null && order.visit.state !== 'DECLINED';
}

/**
 * /dashboard, the member area's Home: a greeting, what needs attention, the patient's treatment
 * (when they have one), the latest orders.
 */
export function DashboardPage() {
  const { basics, patientData, leadsId } = useMemberData();
  // Secondary news: shown once it is here; Home never waits for it.
  const closed = useClosedVisits();
  const recent = Object.values(patientData.lander.order_history)
    .sort((a, b) => b.order_date.localeCompare(a.order_date))
    .slice(0, RECENT_ORDERS);
  // The visits' orders in care, on whatever page of the history they are.
  const treatment = patientData.lander.treatment
    .filter(inTreatment)
    .sort((a, b) => b.order_date.localeCompare(a.order_date));
  return (
    <>
      <AccountHeader
        title={`Hi, ${basics.first_name}`}
        documentTitle="Home"
        subtitle="Here's what needs your attention and your latest orders."
        link={{ to: paths.accounts, label: 'Account settings' }}
      />
      <div className="space-y-6">
        <NeedsAttention flags={basics.flags} />
        {patientData.lander.renewals.length > 0 ? (
          <RenewalsCard renewals={patientData.lander.renewals} />
        ) : null}
        {treatment.length > 0 ? <YourTreatment orders={treatment} /> : null}
        {closed.data && closed.data.length > 0 ? <ClosedVisits visits={closed.data} /> : null}
        <RecentOrders orders={recent} />
        <TogetherCard leadsId={leadsId} />
      </div>
    </>
  );
}
