import type { AppContext } from '#server/context.ts';
import type { Order, OrderHistory } from '#shared/orders.ts';
import { centsToAmount } from '#shared/money.ts';
import * as q from './orders.queries.ts';

function toOrder(row: q.OrderRow): Order {
  return {
    orders_id: row.id,
    order_number: row.orderNumber,
    order_status: row.status,
    order_date: row.createdAt,
    order_total: centsToAmount(row.totalCents),
    order_total_cents: row.totalCents,
    refund_amount: centsToAmount(row.refundCents),
    refund_cents: row.refundCents,
    tracking_number: row.trackingNumber,
    decline_reason: row.declineReason,
    order_items: row.items.map((item) => ({
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

/** Spec §3 "Order history": the customer's orders keyed by order number, newest first. */
export async function orderHistory(ctx: AppContext, customerId: number): Promise<OrderHistory> {
  const rows = await q.selectOrdersOf(ctx.db, customerId);
  return Object.fromEntries(rows.map((row) => [row.orderNumber, toOrder(row)]));
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

export type { NewOrder, OrderAttempt, UnpaidOrder } from './orders.queries.ts';

export function createPendingOrder(ctx: AppContext, order: q.NewOrder) {
  return q.insertPendingOrder(ctx.db, order);
}

export function orderAttempt(ctx: AppContext, idempotencyKey: string) {
  return q.selectOrderByKey(ctx.db, idempotencyKey);
}

export function orderLines(ctx: AppContext, orderId: number) {
  return q.selectOrderLines(ctx.db, orderId);
}

export function markOrderPaid(ctx: AppContext, orderId: number, chargeId: string) {
  return q.markOrderPaid(ctx.db, orderId, chargeId, ctx.clock.now().toISOString());
}

/** Removes an order still pending payment; true when this call removed it. */
export function discardOrderAttempt(ctx: AppContext, orderId: number) {
  return q.deletePendingOrder(ctx.db, orderId);
}

export function orderForPayment(ctx: AppContext, orderId: number) {
  return q.selectOrderForPayment(ctx.db, orderId);
}

export function dueRetries(ctx: AppContext, limit: number, after?: { at: string; id: number }) {
  return q.selectDueRetries(ctx.db, ctx.clock.now().toISOString(), limit, after);
}

export function unpaidOrdersOf(ctx: AppContext, customerId: number) {
  return q.selectUnpaidOrdersOf(ctx.db, customerId);
}

export function orderById(ctx: AppContext, id: number) {
  return q.selectOrderAttemptById(ctx.db, id);
}

export function recordPaymentFailure(
  ctx: AppContext,
  orderId: number,
  attemptsBefore: number,
  message: string,
  nextRetryAt: string | null,
) {
  return q.recordPaymentFailure(ctx.db, orderId, attemptsBefore, {
    message,
    nextRetryAt,
    now: ctx.clock.now().toISOString(),
  });
}

export function recordPayment(ctx: AppContext, orderId: number, chargeId: string) {
  return q.recordPayment(ctx.db, orderId, chargeId, ctx.clock.now().toISOString());
}

export function markAuthorized(ctx: AppContext, orderId: number, authorizationId: string) {
  return q.markAuthorized(ctx.db, orderId, authorizationId, ctx.clock.now().toISOString());
}

export function visitOrder(ctx: AppContext, orderId: number) {
  return q.selectVisitOrder(ctx.db, orderId);
}

export function markCaptured(ctx: AppContext, orderId: number, chargeId: string) {
  return q.markCaptured(ctx.db, orderId, chargeId, ctx.clock.now().toISOString());
}

export function markDeclined(ctx: AppContext, orderId: number, reason: string) {
  return q.markDeclined(ctx.db, orderId, reason, ctx.clock.now().toISOString());
}
