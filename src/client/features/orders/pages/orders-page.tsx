import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { bottlesText, categoryLabel } from '#shared/catalog.ts';
import { messages } from '#shared/wording.ts';
import { formatCents } from '#shared/money.ts';
import {
  hasCareReceipt,
  hasReceipt,
  isStoreOrder,
  paymentLineLabels,
  trackingUrl,
  type Order,
  type PaymentLine,
} from '#shared/orders.ts';
import { buttonClass, textLinkClass } from '#client/components/ui/button.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
import {
  AccountHeader,
  useMemberData,
} from '#client/features/accounts/components/account-layout.tsx';
import { mediumDate, OrderStatusBadge } from '#client/components/ui/order-status.tsx';
import {
  CareStatus,
  PrescriptionDetails,
} from '#client/features/accounts/components/visit-care.tsx';
import { paths } from '#shared/paths.ts';
import { setLeadsId } from '#client/lib/app-state.ts';
import { ApiError } from '#client/lib/api.ts';
import { startProgram } from '#client/features/visits/visits.api.ts';
import { showToast } from '#client/components/ui/toast.tsx';
import type { PendingOrder } from '#shared/visits.ts';
import { usePendingOrders } from '#client/features/visits/visits.api.ts';
import { useOrder, useOrdersDetails } from '../orders.api.ts';
import { BuyAgainButton } from '../components/buy-again-button.tsx';
import { PharmacyProgress } from '../components/pharmacy-progress.tsx';

/**
 * What an order line brought. A supplement plan's line says its bottles ('3 bottles every 3
 * months'); a one-time line keeps its count, as order history does not tell a bottle from the
 * bundle (three bottles), and prescriptions are not bottles.
 */
function itemAmount({ category, frequency, quantity }: Order['order_items'][number]): string {
  const plan = frequency === 'MONTHLY' || frequency === 'QUARTERLY' ? frequency : null;
  return category === 'supplements' && plan
    ? bottlesText({ frequency: plan }, quantity)
    : `Qty ${quantity}`;
}

const cardClass =
  'rounded-3xl border border-line bg-white p-5 shadow-[0_1px_2px_rgba(15,37,51,0.04)] sm:p-6';

/** The order number a URL hash names ('' for none, or for one that is not text). */
function hashOrderNumber(hash: string): string {
  try {
    return decodeURIComponent(hash.slice(1)).trim();
  } catch {
    return '';
  }
}

/**
 * Spec §2 Orders page: past orders, a page at a time ("Load more orders"), each anchored by its
 * order number. A URL hash naming one of the customer's orders scrolls to it — an order not yet
 * loaded is fetched by its number and shown above the list; any other hash goes back to /orders.
 * The order whose payment failed carries the payment-failure notice.
 */
export function OrdersPage() {
  const { leadsId, patientData } = useMemberData();
  const details = useOrdersDetails(leadsId);
  const pending = usePendingOrders(leadsId);
  const location = useLocation();
  const navigate = useNavigate();
  const scrolled = useRef<string | null>(null);
  const failedOrderId = patientData.billingFlag?.orders_id;
  const hashNumber = location.hash ? hashOrderNumber(location.hash) : '';
  const orders = useMemo(
    () => (details.data?.pages ?? []).flatMap((page) => Object.values(page.order_history)),
    [details.data],
  );
  const inList = hashNumber !== '' && orders.some((order) => order.order_number === hashNumber);
  const linked = useOrder(leadsId, hashNumber, {
    enabled: details.isSuccess && hashNumber !== '' && !inList,
  });
  const linkedMissing =
    linked.error instanceof ApiError && linked.error.status >= 400 && linked.error.status < 500;

  useEffect(() => {
    if (!details.data || !location.hash) return;
    if (hashNumber === '' || (!inList && linkedMissing)) {
      void navigate(paths.orders, { replace: true });
      return;
    }
    if (!inList && !linked.data) return;
    if (scrolled.current === hashNumber) return;
    scrolled.current = hashNumber;
    const element = document.getElementById(hashNumber);
    element?.scrollIntoView({ block: 'start' });
    element?.focus({ preventScroll: true });
  }, [details.data, location.hash, hashNumber, inList, linked.data, linkedMissing, navigate]);

  return (
    <>
      <AccountHeader
        title="Orders"
        subtitle="Track deliveries and see everything you have ordered."
      />
      <QueryView query={details} loading="Loading your orders…">
        {() => (
          <>
            {pending.data && pending.data.length > 0 ? (
              <PendingOrders orders={pending.data} leadsId={leadsId} />
            ) : null}
            {hashNumber !== '' && !inList ? (
              <LinkedOrder query={linked} failedOrderId={failedOrderId} />
            ) : null}
            <PastOrders
              orders={orders}
              failedOrderId={failedOrderId}
              pageCount={details.data?.pages.length ?? 0}
              hasMore={details.hasNextPage}
              loadingMore={details.isFetchingNextPage}
              loadMoreFailed={details.isFetchNextPageError}
              onLoadMore={() => void details.fetchNextPage()}
            />
          </>
        )}
      </QueryView>
    </>
  );
}

/**
 * The order a link names (an email's "See your order"), when it is older than the orders loaded:
 * shown on its own above the list until "Load more orders" reaches it.
 */
function LinkedOrder({
  query,
  failedOrderId,
}: {
  query: ReturnType<typeof useOrder>;
  failedOrderId: number | undefined;
}) {
  // A number that is not the customer's goes back to /orders (the page's effect does that).
  if (query.error instanceof ApiError && query.error.status < 500) return null;
  return (
    <section aria-labelledby="linked-order-title" className="mb-10">
      <h2 id="linked-order-title" className="mb-4 text-2xl text-ink">
        Order from your link
      </h2>
      <QueryView query={query} loading="Loading the order…">
        {(order) => <OrderCard order={order} paymentFailed={order.orders_id === failedOrderId} />}
      </QueryView>
    </section>
  );
}

function PastOrders({
  orders,
  failedOrderId,
  pageCount,
  hasMore,
  loadingMore,
  loadMoreFailed,
  onLoadMore,
}: {
  orders: Order[];
  pageCount: number;
  failedOrderId: number | undefined;
  hasMore: boolean;
  loadingMore: boolean;
  loadMoreFailed: boolean;
  onLoadMore: () => void;
}) {
  return (
    <section aria-labelledby="past-orders-title">
      <h2 id="past-orders-title" className="mb-4 text-2xl text-ink">
        Past orders
      </h2>
      {orders.length === 0 ? (
        <div className={cardClass}>
          <p className="text-ink-soft">You haven't placed an order yet.</p>
          <Link
            to={{ pathname: paths.home, hash: '#supplements' }}
            className={`${buttonClass('primary')} mt-4`}
          >
            Shop supplements
          </Link>
        </div>
      ) : (
        <>
          <ol className="space-y-5">
            {orders.map((order) => (
              <li key={order.order_number}>
                <OrderCard order={order} paymentFailed={order.orders_id === failedOrderId} />
              </li>
            ))}
          </ol>
          <div className="mt-6 flex flex-col items-center gap-3 text-center">
            <p aria-live="polite" className="text-sm text-muted">
              {hasMore
                ? `Showing your latest ${orders.length} orders.`
                : pageCount > 1
                  ? `Showing all ${orders.length} of your orders.`
                  : null}
            </p>
            {loadMoreFailed ? (
              <p role="alert" className="text-[0.9375rem] text-danger">
                We couldn't load more orders. Please try again.
              </p>
            ) : null}
            {hasMore ? (
              <button
                type="button"
                className={buttonClass('secondary')}
                disabled={loadingMore}
                onClick={onLoadMore}
              >
                {loadingMore ? 'Loading more orders…' : 'Load more orders'}
              </button>
            ) : null}
          </div>
        </>
      )}
    </section>
  );
}

/**
 * Spec §2 Pending orders: each unfinished online visit with its product and a Finish button, which
 * asks the server where the visit stands (spec §4 "Finishing a pending order") and goes there.
 */
function PendingOrders({ orders, leadsId }: { orders: PendingOrder[]; leadsId: string }) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState<number | null>(null);
  const finish = async (order: PendingOrder) => {
    setBusy(order.visit_id);
    try {
      const result = await startProgram(leadsId, order.product_category);
      setLeadsId(result.leads_id);
      void navigate(result.destination);
    } catch (error) {
      showToast({
        kind: 'error',
        title:
          error instanceof ApiError
            ? error.message
            : 'Unable to start consultation, please try again later.',
      });
      setBusy(null);
    }
  };
  return (
    <section aria-labelledby="pending-orders-title" className="mb-10">
      <h2 id="pending-orders-title" className="mb-4 text-2xl text-ink">
        Pending orders
      </h2>
      <ul className={`${cardClass} divide-y divide-line py-2!`}>
        {orders.map((order) => (
          <li
            key={order.visit_id}
            className="flex flex-wrap items-center justify-between gap-3 py-4"
          >
            <div>
              <p className="font-medium text-ink">{order.product}</p>
              <p className="text-sm text-muted">
                Started <time dateTime={order.started_at}>{mediumDate(order.started_at)}</time>
              </p>
            </div>
            <button
              type="button"
              className={buttonClass('primary')}
              disabled={busy === order.visit_id}
              aria-label={`Finish ${order.product}`}
              onClick={() => void finish(order)}
            >
              Finish
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function OrderCard({ order, paymentFailed }: { order: Order; paymentFailed: boolean }) {
  const address = order.shippingAddress;
  const headingId = `order-${order.order_number}-title`;
  return (
    <article
      id={order.order_number}
      tabIndex={-1}
      aria-labelledby={headingId}
      className={`${cardClass} scroll-mt-24 outline-none focus-visible:ring-2 focus-visible:ring-accent-600`}
    >
      <header className="flex flex-wrap items-start justify-between gap-3 border-b border-line pb-4">
        <div>
          <h3 id={headingId} className="font-sans text-lg font-semibold text-ink">
            Order {order.order_number}
          </h3>
          <p className="mt-0.5 text-sm text-muted">
            Placed <time dateTime={order.order_date}>{mediumDate(order.order_date)}</time>
          </p>
        </div>
        <OrderStatusBadge status={order.order_status} />
      </header>

      {order.visit ? (
        <div className="mt-4 space-y-4">
          <CareStatus care={order.visit} titleId={`order-${order.order_number}-care`} />
          {order.visit.prescription ? (
            <PrescriptionDetails
              prescription={order.visit.prescription}
              titleId={`order-${order.order_number}-prescription`}
            />
          ) : null}
        </div>
      ) : null}

      {order.pharmacy ? (
        <div className="mt-4">
          <PharmacyProgress
            timeline={order.pharmacy}
            titleId={`order-${order.order_number}-pharmacy`}
          />
        </div>
      ) : null}

      {paymentFailed ? (
        <div role="alert" className="mt-4 rounded-2xl border border-danger/20 bg-danger-soft p-4">
          <p className="text-[0.9375rem] text-ink">{messages.paymentFailureNotice}</p>
          {order.payment_confirmation ? (
            <>
              <p className="mt-2 text-[0.9375rem] text-ink">
                Your bank wants you to confirm this payment before it goes through.
              </p>
              <Link
                to={paths.confirmPayment(order.order_number)}
                className={`${buttonClass('primary')} mt-3`}
              >
                Confirm your payment
              </Link>
            </>
          ) : (
            <Link to={paths.editPaymentMethod} className={`${buttonClass('primary')} mt-3`}>
              Update payment method
            </Link>
          )}
        </div>
      ) : null}

      {order.decline_reason ? (
        <p className="mt-4 rounded-2xl bg-surface p-4 text-[0.9375rem] text-ink-soft">
          <span className="font-semibold text-ink">Note from your provider: </span>
          {order.decline_reason}
        </p>
      ) : null}

      <ul className="mt-4 divide-y divide-line">
        {order.order_items.map((item, index) => (
          <li key={`${item.product_name}-${index}`} className="flex items-center gap-4 py-3">
            <img
              src={item.product_image}
              alt=""
              width={56}
              height={56}
              className="size-14 shrink-0 rounded-xl bg-surface object-cover ring-1 ring-line"
            />
            <div className="min-w-0 flex-1">
              <p className="font-medium text-ink">{item.product_name}</p>
              <p className="text-sm text-muted">
                {categoryLabel(item.category)} · {itemAmount(item)}
              </p>
            </div>
            <p className="text-[0.9375rem] text-ink">
              {formatCents(item.price_cents * item.quantity)}
            </p>
          </li>
        ))}
      </ul>

      <dl className="mt-4 grid gap-4 border-t border-line pt-4 text-[0.9375rem] sm:grid-cols-3">
        <div>
          <dt className="text-sm text-muted">Total</dt>
          <dd className="font-semibold text-ink">{formatCents(order.order_total_cents)}</dd>
          {holdReleased(order) ? (
            <dd className="text-sm text-ink-soft">Not charged — the hold was released</dd>
          ) : null}
          {order.refund_cents > 0 ? (
            <dd className="text-sm text-ink-soft">Refunded {formatCents(order.refund_cents)}</dd>
          ) : null}
        </div>
        {order.gift_for ? (
          <div>
            <dt className="text-sm text-muted">Gift for</dt>
            <dd className="text-ink">
              <span className="font-semibold">{order.gift_for.first_name}</span>
              <br />
              Shipping news and tracking go to {order.gift_for.first_name}.
            </dd>
          </div>
        ) : null}
        {address ? (
          <div>
            <dt className="text-sm text-muted">Ship to</dt>
            <dd className="text-ink">
              {order.ship_to_partner ? (
                <>
                  <span className="font-semibold">
                    Shipping to {order.ship_to_partner.first_name}
                  </span>
                  <br />
                </>
              ) : null}
              {address.address}
              {address.address2 ? `, ${address.address2}` : ''}
              <br />
              {address.city}, {address.state} {address.zip}
            </dd>
          </div>
        ) : null}
        {order.tracking_number ? (
          <div>
            <dt className="text-sm text-muted">Tracking</dt>
            <dd>
              <a
                href={trackingUrl(order.tracking_number)}
                target="_blank"
                rel="noopener noreferrer"
                className="font-medium break-all text-accent-800 underline underline-offset-4"
              >
                {order.tracking_number}
                <span className="sr-only"> (USPS tracking, opens in a new tab)</span>
              </a>
            </dd>
          </div>
        ) : null}
      </dl>
      {order.payments.length > 0 ? (
        <Payments lines={order.payments} titleId={`order-${order.order_number}-payments`} />
      ) : null}
      <div className="mt-4 flex flex-wrap items-start justify-between gap-4 border-t border-line pt-4 text-[0.9375rem]">
        <p className="flex flex-wrap gap-x-6 gap-y-2">
          <Link
            to={`${paths.messages}?order=${encodeURIComponent(order.order_number)}`}
            className={textLinkClass}
          >
            Ask about this order
            <span className="sr-only"> ({order.order_number})</span>
          </Link>
          {hasReceipt(order) ? (
            <Link to={paths.orderReceipt(order.order_number)} className={textLinkClass}>
              Receipt
              <span className="sr-only"> ({order.order_number})</span>
            </Link>
          ) : hasCareReceipt(order) ? (
            <Link to={paths.careReceipt(order.order_number)} className={textLinkClass}>
              Receipt for HSA/FSA
              <span className="sr-only"> ({order.order_number})</span>
            </Link>
          ) : null}
        </p>
        {/* An unpaid order is put right with a card, not bought a second time. */}
        {isStoreOrder(order) && !paymentFailed && order.order_status !== 'PAYMENT_FAILED' ? (
          <BuyAgainButton order={order} />
        ) : null}
      </div>
    </article>
  );
}

/**
 * Issue 26: every charge, hold and refund of the order, as its payment ledger settled them, oldest
 * first. A refund or a released hold is money back (or never taken): it reads with a minus sign.
 */
function Payments({ lines, titleId }: { lines: PaymentLine[]; titleId: string }) {
  return (
    <section aria-labelledby={titleId} className="mt-4 border-t border-line pt-4">
      <h4 id={titleId} className="text-sm text-muted">
        Payments
      </h4>
      <ul className="mt-2 space-y-2 text-[0.9375rem]">
        {lines.map((line, index) => (
          <li key={index} className="flex flex-wrap items-baseline justify-between gap-x-4">
            <span className="text-ink">
              {paymentLineLabels[line.kind]}
              <span className="text-muted">
                {' · '}
                <time dateTime={line.date}>{mediumDate(line.date)}</time>
              </span>
            </span>
            <span
              className={
                line.kind === 'declined' || line.kind === 'released'
                  ? 'text-ink-soft'
                  : 'font-medium text-ink'
              }
            >
              {line.kind === 'refunded' ? '−' : ''}
              {formatCents(line.amount_cents)}
              {line.kind === 'declined' ? <span className="sr-only"> (not charged)</span> : null}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * A visit's card is only held until a provider decides: declined, or closed before a decision, the
 * hold goes back and nothing was charged (issue 26: the total alone read as a charge).
 */
function holdReleased(order: Order): boolean {
  if (order.order_kind !== 'visit') return false;
  return (
    order.order_status === 'DECLINED' ||
    (order.order_status === 'CANCELLED' && order.refund_cents === 0)
  );
}
