import type { AppContext } from '#server/context.ts';
import type { Order, OrderHistory } from '#shared/orders.ts';
import { centsToAmount } from '#shared/money.ts';
import * as q from './orders.history.queries.ts';

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
