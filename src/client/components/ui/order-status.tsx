import { format, isValid, parseISO } from 'date-fns';
import { dateFormats } from '#shared/constants.ts';
import { orderStatusLabels, orderStatuses, type OrderStatus } from '#shared/orders.ts';

/** 'MMM dd, yyyy' (spec §9) for an ISO date or instant; anything unreadable is shown as sent. */
export function mediumDate(value: string): string {
  const date = parseISO(value);
  return isValid(date) ? format(date, dateFormats.medium) : value;
}

const red = 'bg-danger-soft text-danger ring-danger/20';
const green = 'bg-success-soft text-success ring-success/20';
const grey = 'bg-surface text-muted ring-line';
const blue = 'bg-accent-50 text-accent-900 ring-accent-200';

const statusTones: Record<OrderStatus, string> = {
  PENDING_REVIEW: blue,
  PROCESSING: blue,
  SHIPPED: green,
  DELIVERED: green,
  DECLINED: red,
  PAYMENT_FAILED: red,
  REFUNDED: grey,
  CANCELLED: grey,
};

function isOrderStatus(value: string): value is OrderStatus {
  return (orderStatuses as readonly string[]).includes(value);
}

/** An order's status as a badge in the customer's words; 'Declined' is red (spec §2). */
export function OrderStatusBadge({ status }: { status: string }) {
  const known = isOrderStatus(status);
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-sm font-medium ring-1 ${
        known ? statusTones[status] : blue
      }`}
    >
      {known ? orderStatusLabels[status] : status}
    </span>
  );
}
