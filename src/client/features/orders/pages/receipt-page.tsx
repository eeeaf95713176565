import { format, isValid, parseISO } from 'date-fns';
import { useParams } from 'react-router';
import { cartSubtotal, orderDiscount } from '#shared/cart.ts';
import { bottlesText, frequencies, type Frequency } from '#shared/catalog.ts';
import { dateFormats } from '#shared/constants.ts';
import { formatCents } from '#shared/money.ts';
import { hasReceipt, type Order } from '#shared/orders.ts';
import { site } from '#shared/site.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { useMemberData } from '#client/features/accounts/components/account-layout.tsx';
import { ApiError } from '#client/lib/api.ts';
import { NoReceipt, ReceiptSheet } from '../components/receipt-sheet.tsx';
import { useOrder } from '../orders.api.ts';

/** 'MM/DD/YYYY' (spec §9 short date) for an order's instant; anything unreadable as sent. */
function shortDate(value: string): string {
  const date = parseISO(value);
  return isValid(date) ? format(date, dateFormats.short) : value;
}

const isFrequency = (value: string): value is Frequency =>
  (frequencies as readonly string[]).includes(value);

/** What a receipt line brought, in bottles ('3 bottles every 3 months'). */
function lineAmount(item: Order['order_items'][number]): string | null {
  return isFrequency(item.frequency)
    ? bottlesText({ product_id: item.product_id, frequency: item.frequency }, item.quantity)
    : null;
}

/**
 * A store order's receipt, made to print: the site's header, footer and the account menu stay off
 * the paper, and it prints black on white on one page. Only the customer's own store orders have
 * one; any other order number reads as not found.
 */
export function ReceiptPage() {
  const { orderNumber = '' } = useParams();
  const { leadsId } = useMemberData();
  const order = useOrder(leadsId, orderNumber.trim());
  // Another customer's number, or one that is no order at all, reads as not found.
  if (orderNumber.trim() === '' || (order.error instanceof ApiError && order.error.status < 500))
    return <NotFound />;
  return (
    <QueryView query={order} loading="Loading your receipt…">
      {(found) => (hasReceipt(found) ? <Receipt order={found} /> : <NotFound />)}
    </QueryView>
  );
}

const NotFound = () => (
  <NoReceipt>We couldn't find a receipt for that order number in your account.</NoReceipt>
);

const cell = 'py-3 align-top print:py-1.5';

function TotalRow({ term, value, strong }: { term: string; value: string; strong?: boolean }) {
  return (
    <div
      className={`flex justify-between gap-6 ${strong ? 'border-t border-line pt-2 font-semibold text-ink print:border-black' : ''}`}
    >
      <dt className={strong ? 'text-ink' : 'text-ink-soft'}>{term}</dt>
      <dd className="text-right text-ink">{value}</dd>
    </div>
  );
}

function Receipt({ order }: { order: Order }) {
  const lines = order.order_items;
  const subtotal = cartSubtotal(lines);
  const discount = orderDiscount(lines, order.order_total_cents);
  const address = order.shippingAddress;
  return (
    <ReceiptSheet
      pageTitle="Receipt"
      orderNumber={order.order_number}
      title={`Receipt for order ${order.order_number}`}
      dateTerm="Date"
      date={<time dateTime={order.order_date}>{shortDate(order.order_date)}</time>}
    >
      <table className="mt-4 w-full text-left text-[0.9375rem]">
        <caption className="sr-only">Items</caption>
        <thead className="border-b border-line text-sm text-muted print:border-black">
          <tr>
            <th scope="col" className="py-2 pr-3 font-semibold">
              Item
            </th>
            <th
              scope="col"
              className="hidden py-2 pr-3 text-right font-semibold sm:table-cell print:table-cell"
            >
              Unit price
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-semibold">
              Qty
            </th>
            <th scope="col" className="py-2 text-right font-semibold">
              Total
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line print:divide-black/30">
          {lines.map((item, index) => {
            const amount = lineAmount(item);
            return (
              <tr key={`${item.product_id}-${index}`}>
                <td className={`${cell} pr-3`}>
                  <span className="font-medium text-ink">{item.product_name}</span>
                  {amount ? <span className="block text-sm text-muted">{amount}</span> : null}
                  <span className="block text-sm text-muted sm:hidden print:hidden">
                    {formatCents(item.price_cents)} each
                  </span>
                </td>
                <td
                  className={`${cell} hidden pr-3 text-right text-ink sm:table-cell print:table-cell`}
                >
                  {formatCents(item.price_cents)}
                </td>
                <td className={`${cell} pr-3 text-right text-ink`}>{item.quantity}</td>
                <td className={`${cell} text-right text-ink`}>
                  {formatCents(item.price_cents * item.quantity)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>

      <dl className="mt-2 ml-auto max-w-xs space-y-1.5 border-t border-line pt-4 text-[0.9375rem] print:border-black print:pt-2">
        <TotalRow term="Subtotal" value={formatCents(subtotal)} />
        {discount > 0 ? (
          <TotalRow
            term={`Discount${order.coupon_code ? ` (${order.coupon_code})` : ''}`}
            value={`−${formatCents(discount)}`}
          />
        ) : null}
        <TotalRow term="Shipping" value="Free" />
        <TotalRow term="Tax" value={formatCents(0)} />
        <TotalRow term="Total" value={formatCents(order.order_total_cents)} strong />
        {order.refund_cents > 0 ? (
          <TotalRow term="Refunded" value={formatCents(order.refund_cents)} />
        ) : null}
      </dl>

      {order.gift_for ? (
        <section aria-labelledby="receipt-gift-for" className="mt-6 print:mt-4">
          <h3 id="receipt-gift-for" className="font-sans text-sm font-semibold text-muted">
            Gift for
          </h3>
          <p className="mt-1 text-[0.9375rem] text-ink">
            {order.gift_for.first_name}, at the address they chose.
          </p>
        </section>
      ) : null}
      {address ? (
        <section aria-labelledby="receipt-ship-to" className="mt-6 print:mt-4">
          <h3 id="receipt-ship-to" className="font-sans text-sm font-semibold text-muted">
            Ship to
          </h3>
          {order.ship_to_partner ? (
            <p className="mt-1 text-[0.9375rem] font-semibold text-ink">
              Shipping to {order.ship_to_partner.first_name}
            </p>
          ) : null}
          <address className="mt-1 text-[0.9375rem] text-ink not-italic">
            {address.address}
            {address.address2 ? `, ${address.address2}` : ''}
            <br />
            {address.city}, {address.state} {address.zip}
            <br />
            {address.country === 'US' ? 'United States' : address.country}
          </address>
        </section>
      ) : null}

      <p className="mt-6 hidden text-sm print:block">
        Questions about this order? Write to {site.supportEmail}.
      </p>
    </ReceiptSheet>
  );
}
