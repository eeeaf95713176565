import { useState, type ReactNode } from 'react';
import { Navigate, useLocation, useParams } from 'react-router';
import { categoryLabel } from '#shared/catalog.ts';
import { formatCents } from '#shared/money.ts';
import { trackingUrl, type OrderStatus } from '#shared/orders.ts';
import type { StaffOrderDetail } from '#shared/operations.ts';
import { buttonClass } from '#client/components/ui/button.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { OrderStatusBadge } from '#client/components/ui/order-status.tsx';
import { paths } from '#shared/paths.ts';
import {
  OrderActionDialog,
  orderActionLabels,
  refundableCents,
  type OrderActionName,
} from '../components/order-action-dialog.tsx';
import { DisputeList, FraudWarningNotice } from '../components/payment-disputes.tsx';
import { ProcessorDetails } from '../components/payment-processor.tsx';
import { BackLink, StaffHeader } from '#client/features/staff/components/staff-frame.tsx';
import { useStaff } from '#client/features/staff/components/staff-layout.tsx';
import { longDateTime, paymentStatusLabel } from '#client/components/ui/staff-order-status.tsx';
import { useStaffOrder } from '../operations.api.ts';

const panelClass =
  'rounded-2xl border border-line bg-white p-5 shadow-[0_1px_2px_rgba(15,37,51,0.04)]';

function Panel({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className={panelClass}>
      <h2 id={id} className="font-sans text-base font-semibold text-ink">
        {title}
      </h2>
      <div className="mt-3">{children}</div>
    </section>
  );
}

/** /staff/orders/:id: one order for operations, with the changes its status allows. */
export function StaffOrderPage() {
  const staff = useStaff();
  const params = useParams();
  const location = useLocation();
  const id = Number(params.id);
  const order = useStaffOrder(id, { enabled: staff.role === 'operations' });
  const listSearch = (location.state as { listSearch?: string } | null)?.listSearch ?? '';
  const back = <BackLink to={`${paths.staff}${listSearch}`}>All orders</BackLink>;

  if (staff.role !== 'operations') return <Navigate to={paths.staff} replace />;
  if (!Number.isInteger(id) || id <= 0) {
    return (
      <>
        {back}
        <StaffHeader title="Order not found" />
        <p className="text-ink-soft">There is no order at this address.</p>
      </>
    );
  }
  return (
    <>
      {back}
      <QueryView query={order} loading="Loading the order…">
        {(data) => <OrderDetail order={data} />}
      </QueryView>
    </>
  );
}

const nextStep: Partial<Record<OrderStatus, string>> = {
  PENDING_REVIEW: 'Waiting for a provider to review the visit.',
  PROCESSING: 'Paid and ready to pack. Mark it shipped with the USPS tracking number.',
  SHIPPED: 'On its way. Mark it delivered once it arrives.',
  PAYMENT_FAILED: 'The payment failed; the customer has been asked to update their card.',
};

function OrderDetail({ order }: { order: StaffOrderDetail }) {
  const [action, setAction] = useState<OrderActionName | null>(null);
  const left = refundableCents(order);
  const address = order.shipping;
  return (
    <>
      <StaffHeader
        title={`Order ${order.order_number}`}
        subtitle={
          <p className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
            <OrderStatusBadge status={order.order_status} />
            <span>
              Placed <time dateTime={order.order_date}>{longDateTime(order.order_date)}</time>
            </span>
          </p>
        }
      />

      <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
        <div className="space-y-5">
          {/* What the processor reported comes before the actions: a payment reported as fraud
              may be better refunded than shipped, and a dispute's deadline must not be missed. */}
          {order.fraud_warnings.length > 0 ? (
            <FraudWarningNotice warnings={order.fraud_warnings} />
          ) : null}
          {order.disputes.length > 0 ? (
            <Panel id="disputes-title" title="Payment disputes">
              <DisputeList disputes={order.disputes} />
            </Panel>
          ) : null}
          <section
            id="order-actions"
            tabIndex={-1}
            aria-labelledby="actions-title"
            className={`${panelClass} outline-none focus-visible:ring-2 focus-visible:ring-accent-600`}
          >
            <h2 id="actions-title" className="font-sans text-base font-semibold text-ink">
              Actions
            </h2>
            <p className="mt-1 text-[0.9375rem] text-ink-soft">
              {nextStep[order.order_status] ??
                (order.actions.length > 0
                  ? 'Choose what to do with this order.'
                  : 'Nothing more can be done with this order.')}
            </p>
            {order.actions.length > 0 ? (
              <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:flex-wrap">
                {order.actions.map((name) => (
                  <button
                    key={name}
                    type="button"
                    aria-haspopup="dialog"
                    onClick={() => setAction(name)}
                    className={
                      name === 'cancel'
                        ? `${buttonClass('secondary')} border-danger/40! text-danger! hover:bg-danger-soft!`
                        : buttonClass(
                            name === 'ship' ||
                              (name === 'deliver' && !order.actions.includes('ship'))
                              ? 'primary'
                              : 'secondary',
                          )
                    }
                  >
                    {name === 'refund' && left > 0
                      ? `${orderActionLabels.refund} (up to ${formatCents(left)})`
                      : orderActionLabels[name]}
                  </button>
                ))}
              </div>
            ) : null}
          </section>

          <Panel id="items-title" title="Items">
            <ul className="divide-y divide-line">
              {order.items.map((item, index) => (
                <li
                  key={`${item.product_name}-${index}`}
                  className="flex items-start justify-between gap-4 py-3 first:pt-0"
                >
                  <div className="min-w-0">
                    <p className="font-medium text-ink">{item.product_name}</p>
                    <p className="text-sm text-muted">
                      {categoryLabel(item.category)} · {item.quantity} ×{' '}
                      {formatCents(item.unit_price_cents)}
                    </p>
                  </div>
                  <p className="shrink-0 text-ink">
                    {formatCents(item.unit_price_cents * item.quantity)}
                  </p>
                </li>
              ))}
            </ul>
            <dl className="mt-3 space-y-1.5 border-t border-line pt-3 text-[0.9375rem]">
              <div className="flex justify-between gap-4">
                <dt className="text-ink-soft">Subtotal</dt>
                <dd className="text-ink">{formatCents(order.subtotal_cents)}</dd>
              </div>
              {order.discount_cents > 0 ? (
                <div className="flex justify-between gap-4">
                  <dt className="text-ink-soft">
                    Discount{order.coupon_code ? ` (${order.coupon_code})` : ''}
                  </dt>
                  <dd className="text-ink">−{formatCents(order.discount_cents)}</dd>
                </div>
              ) : null}
              <div className="flex justify-between gap-4 font-semibold">
                <dt className="text-ink">Total</dt>
                <dd className="text-ink">{formatCents(order.total_cents)}</dd>
              </div>
              {order.refund_cents > 0 ? (
                <div className="flex justify-between gap-4">
                  <dt className="text-ink-soft">Refunded</dt>
                  <dd className="text-ink">−{formatCents(order.refund_cents)}</dd>
                </div>
              ) : null}
            </dl>
          </Panel>
        </div>

        <div className="space-y-5">
          <Panel id="customer-title" title="Customer">
            <p className="text-ink">{order.customer_name}</p>
            <p className="text-[0.9375rem] break-all">
              <a
                href={`mailto:${order.customer_email}`}
                className="text-accent-800 underline underline-offset-4"
              >
                {order.customer_email}
              </a>
            </p>
            <p className="mt-1 text-sm text-muted">Customer {order.customer_id}</p>
            <p className="mt-3 text-[0.9375rem] text-ink-soft">
              {order.partner
                ? `Linked partner: ${order.partner.first_name} (customer ${order.partner.customer_id})`
                : 'No linked partner'}
            </p>
            {order.together ? (
              <p className="mt-1 text-[0.9375rem] text-ink">
                {order.together.kind === 'gift'
                  ? `Gift subscription paid by this customer for ${order.together.partner_first_name} (customer ${order.together.partner_id}): ships to ${order.together.partner_first_name}'s address below.`
                  : `Couples' plan with ${order.together.partner_first_name} (customer ${order.together.partner_id}): both lines ship together to this customer.`}
              </p>
            ) : null}
          </Panel>
          <Panel id="shipping-title" title="Shipping address">
            {order.ships_to_partner ? (
              <p className="mb-3 rounded-2xl bg-accent-50 p-3 text-[0.9375rem] text-ink">
                Ships to the customer&apos;s partner, {order.ships_to_partner.first_name} (customer{' '}
                {order.ships_to_partner.customer_id}): the address they shared, as it was when the
                order was placed.
              </p>
            ) : null}
            <address className="text-[0.9375rem] text-ink not-italic">
              {address.address}
              {address.address2 ? (
                <>
                  <br />
                  {address.address2}
                </>
              ) : null}
              <br />
              {address.city}, {address.state} {address.zip}
              <br />
              {address.country}
            </address>
          </Panel>
          <Panel id="delivery-title" title="Payment and delivery">
            <dl className="space-y-3 text-[0.9375rem]">
              <div>
                <dt className="text-sm text-muted">Payment</dt>
                <dd className="text-ink">{paymentStatusLabel(order.payment_status)}</dd>
              </div>
              <div>
                <dt className="text-sm text-muted">Tracking</dt>
                <dd>
                  {order.tracking_number ? (
                    <a
                      href={trackingUrl(order.tracking_number)}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="font-mono text-sm break-all text-accent-800 underline underline-offset-4"
                    >
                      {order.tracking_number}
                      <span className="sr-only"> (USPS tracking, opens in a new tab)</span>
                    </a>
                  ) : (
                    <span className="text-ink-soft">Not shipped yet</span>
                  )}
                </dd>
              </div>
            </dl>
          </Panel>
          {order.processor ? (
            <Panel id="processor-title" title="Payment processor">
              <ProcessorDetails processor={order.processor} />
            </Panel>
          ) : null}
        </div>
      </div>

      <OrderActionDialog
        order={order}
        action={action}
        onClose={() => setAction(null)}
        // Shipping takes 'Mark shipped' away: focus then goes to what the order allows now.
        returnFocusTo={() => document.getElementById('order-actions')}
      />
    </>
  );
}
