import type { AppContext } from '#server/context.ts';
import { careStateOf, type Order, type OrderHistory, type VisitCare } from '#shared/orders.ts';
import { centsToAmount } from '#shared/money.ts';
import { treatmentWords } from '#shared/visits.ts';
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

function toOrder(row: q.OrderRow, care: q.VisitCareRow | undefined): Order {
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
  };
}

/**
 * Spec §3 "Order history": the customer's orders keyed by order number, newest first. A visit's
 * order also says where the visit stands and, once approved, the prescription.
 */
export async function orderHistory(ctx: AppContext, customerId: number): Promise<OrderHistory> {
  const rows = await q.selectOrdersOf(ctx.db, customerId);
  const care = new Map(
    (await q.selectVisitCareOf(ctx.db, customerId)).map((c) => [c.orderId, c] as const),
  );
  return Object.fromEntries(rows.map((row) => [row.orderNumber, toOrder(row, care.get(row.id))]));
}

/** Spec §3 `billingFlag`: the order whose payment failed, while it stays unpaid. */
export async function billingFlag(
  ctx: AppContext,
  customerId: number,
): Promise<{ orders_id: number; order_number: string } | null> {
  const order = await q.selectUnpaidOrder(ctx.db, customerId);
  return order ? { orders_id: order.id, order_number: order.orderNumber } : null;
}

/** Whether the customer has ordered before (for first-order-only coupons). */
export async function hasPlacedOrder(ctx: AppContext, customerId: number): Promise<boolean> {
  return (await q.countPlacedOrders(ctx.db, customerId)) > 0;
}
