import type { AppContext } from '#server/context.ts';
import { notFound } from '#server/lib/errors.ts';
import {
  careStateOf,
  ORDERS_PAGE_SIZE,
  type Order,
  type OrderHistory,
  type PaymentLine,
  type PharmacyTimeline,
  type VisitCare,
} from '#shared/orders.ts';
import { centsToAmount } from '#shared/money.ts';
import { treatmentWords } from '#shared/visits.ts';
import { paymentLines } from '#server/features/payments/payments.service.ts';
import { pharmacyTimelines } from './orders.pharmacy.ts';
import * as q from './orders.history.queries.ts';

/** Refills still to come: those of a running refill plan; none once it ended or was cancelled. */
function refillsLeft(plan: { refillsRemaining: number | null; status: string } | null): number {
  if (!plan || plan.status === 'CANCELLED' || plan.status === 'COMPLETED') return 0;
  return Math.max(0, plan.refillsRemaining ?? 0);
}

function toCare(row: q.VisitCareRow, order: q.OrderRow): VisitCare | null {
  const state = careStateOf(row.visitStatus, order.status);
  if (!state) return null;
  const p = row.prescription;
  if (!p || state === 'DECLINED' || state === 'UNDER_REVIEW') return { state, prescription: null };
  const words = treatmentWords(row.category, { drug: p.drug, dosage: p.dosage });
  return {
    state,
    prescription: {
      drug: words.drug ?? p.drug,
      dose: words.dosage ?? p.dosage,
      quantity: p.quantity,
      refills_left: refillsLeft(p.plan),
      valid_until: p.validUntil,
      directions: p.directions,
    },
  };
}

/**
 * The orders the pharmacy may have steps of: an online visit's and a refill's (a prescription).
 * A customer who buys only supplements is asked nothing more.
 */
function medicineOrders(rows: q.OrderRow[]): number[] {
  return rows
    .filter((row) => row.kind === 'visit' || row.items.some((i) => i.category !== 'supplements'))
    .map((row) => row.id);
}

function toOrder(
  row: q.OrderRow,
  care: q.VisitCareRow | undefined,
  payments: Map<number, PaymentLine[]>,
  pharmacy: Map<number, PharmacyTimeline>,
): Order {
  const atPharmacy = pharmacy.get(row.id);
  return {
    orders_id: row.id,
    order_number: row.orderNumber,
    order_status: row.status,
    order_date: row.createdAt,
    order_kind: row.kind,
    coupon_code: row.couponCode,
    order_total: centsToAmount(row.totalCents),
    order_total_cents: row.totalCents,
    refund_amount: centsToAmount(row.refundCents),
    refund_cents: row.refundCents,
    tracking_number: row.trackingNumber,
    decline_reason: row.declineReason,
    ...(row.confirmable ? { payment_confirmation: true } : {}),
    visit: care ? toCare(care, row) : null,
    order_items: row.items.map((item) => ({
      product_id: item.productId,
      product_name: item.productName,
      product_image: item.productImage,
      category: item.category,
      quantity: item.quantity,
      price_cents: item.unitPriceCents,
      frequency: item.frequency,
    })),
    shippingAddress: row.shipping,
    ship_to_partner:
      row.shipToPartnerFirstName === null ? null : { first_name: row.shipToPartnerFirstName },
    gift_for: row.giftForFirstName === null ? null : { first_name: row.giftForFirstName },
    payments: payments.get(row.id) ?? [],
    ...(atPharmacy ? { pharmacy: atPharmacy } : {}),
  };
}

export interface OrderHistoryPage {
  orderHistory: OrderHistory;
  hasMore: boolean;
  nextCursor: string | null;
  /** The online visits' orders still in care, on whatever page they are (Home's "Your treatment"). */
  treatment: Order[];
}

const inCare = (care: q.VisitCareRow) => {
  const state = careStateOf(care.visitStatus, care.orderStatus);
  return state !== null && state !== 'DECLINED';
};

/**
 * Spec §3 "Order history": one page of the customer's orders keyed by order number, newest first;
 * `cursor` (the last order number of the page before) asks for the next. A visit's order also says
 * where the visit stands and, once approved, the prescription. A cursor that is not one of the
 * customer's own orders is not found.
 */
export async function orderHistoryPage(
  ctx: AppContext,
  customerId: number,
  { cursor, limit = ORDERS_PAGE_SIZE }: { cursor?: string | undefined; limit?: number | undefined },
): Promise<OrderHistoryPage> {
  let after: q.OrderKey | null = null;
  if (cursor !== undefined) {
    after = (await q.selectOrderKey(ctx.db, customerId, cursor)) ?? null;
    if (!after) throw notFound('We could not find that order.');
  }
  // One more than the page: whether older orders follow, without counting them.
  const rows = await q.selectOrdersPage(ctx.db, customerId, after, limit + 1);
  const page = rows.slice(0, limit);
  const care = new Map(
    (await q.selectVisitCareOf(ctx.db, customerId)).map((c) => [c.orderId, c] as const),
  );
  const onPage = new Map(page.map((row) => [row.id, row] as const));
  const elsewhere = [...care.values()]
    .filter((c) => inCare(c) && !onPage.has(c.orderId))
    .map((c) => c.orderId);
  const others = new Map(
    (await q.selectOrdersByIds(ctx.db, customerId, elsewhere)).map((row) => [row.id, row] as const),
  );
  const inTreatment = [...page, ...others.values()]
    .filter((row) => {
      const c = care.get(row.id);
      return c !== undefined && inCare(c);
    })
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
  const rowsShown = [...page, ...others.values()];
  const [payments, pharmacy] = await Promise.all([
    paymentLines(
      ctx,
      rowsShown.map((row) => row.id),
    ),
    pharmacyTimelines(ctx, medicineOrders(rowsShown)),
  ]);
  const treatment = inTreatment.map((row) => toOrder(row, care.get(row.id), payments, pharmacy));
  const last = page[page.length - 1];
  const hasMore = rows.length > limit;
  return {
    orderHistory: Object.fromEntries(
      page.map((row) => [row.orderNumber, toOrder(row, care.get(row.id), payments, pharmacy)]),
    ),
    hasMore,
    nextCursor: hasMore && last ? last.orderNumber : null,
    treatment,
  };
}

/** One of the customer's own orders by its number, on whatever page it is; anyone else's is not found. */
export async function orderByNumber(
  ctx: AppContext,
  customerId: number,
  orderNumber: string,
): Promise<Order> {
  const row = await q.selectOrderByNumber(ctx.db, customerId, orderNumber);
  if (!row) throw notFound('We could not find that order.');
  const [care] = await q.selectVisitCareOf(ctx.db, customerId, row.id);
  const [payments, pharmacy] = await Promise.all([
    paymentLines(ctx, [row.id]),
    pharmacyTimelines(ctx, medicineOrders([row])),
  ]);
  return toOrder(row, care, payments, pharmacy);
}

/** Whether the customer has ordered before (for first-order-only coupons). */
export async function hasPlacedOrder(ctx: AppContext, customerId: number): Promise<boolean> {
  return (await q.countPlacedOrders(ctx.db, customerId)) > 0;
}

export type { StoreOrderRow } from './orders.history.queries.ts';

/**
 * The customer's newest shop orders with their lines, for the partner they share their orders with
 * (issue 16): the partners feature decides whether they may see them; this says what they are.
 */
export function recentStoreOrdersOf(ctx: AppContext, customerId: number) {
  return q.selectRecentStoreOrders(ctx.db, customerId);
}

/** The subscription an order renews, if any: operations ask whose gift or plan it is. */
export function subscriptionRenewedBy(ctx: AppContext, orderId: number): Promise<number | null> {
  return q.selectRenewedSubscriptionId(ctx.db, orderId);
}
