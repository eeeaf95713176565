import type { AppContext } from '#server/context.ts';
import { sessionUser } from '#server/features/auth/auth.service.ts';
import { emailHtml, emailSignature } from '#server/lib/email-layout.ts';
import { AppError, notFound } from '#server/plugins/errors.ts';
import { formatCents } from '#shared/money.ts';
import { canTransition, trackingUrl, type OrderStatus } from '#shared/orders.ts';
import { site } from '#shared/site.ts';
import type { StaffOrderDetail, StaffOrderSummary } from '#shared/staff.ts';
import * as q from './orders.queries.ts';

/**
 * The operations side of orders (staff console): fulfilment with tracking numbers, delivery,
 * refunds in part or in full, cancellation. Every move follows `canTransition`; every change is a
 * compare-and-set so two staff members cannot apply the same change twice.
 */

function summary(row: q.StaffOrderRow): StaffOrderSummary {
  return {
    orders_id: row.id,
    order_number: row.orderNumber,
    order_status: row.status,
    payment_status: row.paymentStatus,
    order_date: row.createdAt,
    total_cents: row.totalCents,
    refund_cents: row.refundCents,
    customer_name: row.customerName,
    customer_email: row.customerEmail,
    item_count: row.itemCount,
    tracking_number: row.trackingNumber,
  };
}

function actionsFor(row: q.StaffOrderRow): StaffOrderDetail['actions'] {
  const actions: StaffOrderDetail['actions'] = [];
  if (canTransition(row.status, 'SHIPPED')) actions.push('ship');
  if (canTransition(row.status, 'DELIVERED')) actions.push('deliver');
  if (row.chargeId && row.refundCents < row.totalCents && canTransition(row.status, 'REFUNDED'))
    actions.push('refund');
  if (canTransition(row.status, 'CANCELLED') && row.status !== 'PENDING_REVIEW')
    actions.push('cancel');
  return actions;
}

export async function staffOrders(
  ctx: AppContext,
  filter: { status?: OrderStatus; query?: string },
): Promise<StaffOrderSummary[]> {
  return (await q.selectStaffOrders(ctx.db, filter)).map(summary);
}

export async function staffOrder(ctx: AppContext, id: number): Promise<StaffOrderDetail> {
  const row = await q.selectStaffOrder(ctx.db, id);
  if (!row) throw notFound('We could not find that order.');
  const items = await q.selectStaffOrderItems(ctx.db, id);
  return {
    ...summary(row),
    customer_id: row.customerId,
    kind: row.kind,
    subtotal_cents: row.subtotalCents,
    discount_cents: row.discountCents,
    coupon_code: row.couponCode,
    items: items.map((i) => ({
      product_name: i.product_name,
      category: i.category,
      quantity: i.quantity,
      unit_price_cents: i.unit_price_cents,
    })),
    shipping: row.shipping,
    actions: actionsFor(row),
  };
}

async function load(ctx: AppContext, id: number): Promise<q.StaffOrderRow> {
  const row = await q.selectStaffOrder(ctx.db, id);
  if (!row) throw notFound('We could not find that order.');
  return row;
}

function refuse(row: q.StaffOrderRow, to: string): AppError {
  return new AppError(
    409,
    'ORDER_STATE',
    `Order ${row.orderNumber} is ${row.status.toLowerCase().replace('_', ' ')} and cannot be ${to}.`,
  );
}

/** Marks an order shipped with its tracking number and e-mails the customer the tracking link. */
export async function shipOrder(
  ctx: AppContext,
  id: number,
  trackingNumber: string,
): Promise<StaffOrderDetail> {
  const row = await load(ctx, id);
  if (!canTransition(row.status, 'SHIPPED')) throw refuse(row, 'shipped');
  const now = ctx.clock.now().toISOString();
  if (
    !(await q.updateOrderStatus(ctx.db, id, row.status, {
      status: 'SHIPPED',
      trackingNumber,
      shippedAt: now,
      now,
    }))
  )
    throw refuse(row, 'shipped');
  const user = await sessionUser(ctx, row.customerId);
  const link = trackingUrl(trackingNumber);
  const lines = [
    `Hello ${user.first_name},`,
    `Good news: your order ${row.orderNumber} is on its way. You can follow it with USPS tracking number ${trackingNumber}.`,
  ];
  await ctx.mailer.send({
    to: user.email,
    subject: `Your ${site.name} order ${row.orderNumber} has shipped`,
    text: [...lines, '', link, '', ...emailSignature].join('\n'),
    html: emailHtml(
      lines,
      { href: link, label: 'Track your package' },
      'Packages usually arrive in 3 to 5 business days.',
    ),
  });
  return staffOrder(ctx, id);
}

export async function markDelivered(ctx: AppContext, id: number): Promise<StaffOrderDetail> {
  const row = await load(ctx, id);
  if (!canTransition(row.status, 'DELIVERED')) throw refuse(row, 'marked delivered');
  const now = ctx.clock.now().toISOString();
  if (
    !(await q.updateOrderStatus(ctx.db, id, row.status, {
      status: 'DELIVERED',
      deliveredAt: now,
      now,
    }))
  )
    throw refuse(row, 'marked delivered');
  return staffOrder(ctx, id);
}

/** Refunds part or all of what is left; a full refund makes the order Refunded. */
export async function refundOrder(
  ctx: AppContext,
  id: number,
  amountCents: number,
): Promise<StaffOrderDetail> {
  const row = await load(ctx, id);
  const left = row.totalCents - row.refundCents;
  if (!row.chargeId || left <= 0 || !canTransition(row.status, 'REFUNDED'))
    throw refuse(row, 'refunded');
  if (amountCents > left) {
    throw new AppError(400, 'REFUND_TOO_LARGE', `At most ${formatCents(left)} can be refunded.`, {
      amount_cents: `At most ${formatCents(left)} can be refunded.`,
    });
  }
  const result = await ctx.payments.refund(
    {
      chargeId: row.chargeId,
      amountCents,
      idempotencyKey: `refund:${row.id}:${row.refundCents}:${amountCents}`,
    },
    ctx.clock.now(),
  );
  if (!result.ok) throw new AppError(402, 'REFUND_FAILED', result.message);
  const full = amountCents === left;
  if (
    !(await q.addRefund(
      ctx.db,
      id,
      row.refundCents,
      amountCents,
      full,
      ctx.clock.now().toISOString(),
    ))
  ) {
    throw new AppError(
      409,
      'ORDER_CHANGED',
      'This order just changed. Please review it and try again.',
    );
  }
  return staffOrder(ctx, id);
}

/** Cancels an order that has not shipped; what was paid goes back in full. */
export async function cancelOrder(ctx: AppContext, id: number): Promise<StaffOrderDetail> {
  const row = await load(ctx, id);
  if (!canTransition(row.status, 'CANCELLED')) throw refuse(row, 'cancelled');
  const left = row.totalCents - row.refundCents;
  if (row.chargeId && row.paymentStatus === 'paid' && left > 0) {
    const result = await ctx.payments.refund(
      { chargeId: row.chargeId, amountCents: left, idempotencyKey: `cancel:${row.id}` },
      ctx.clock.now(),
    );
    if (!result.ok) throw new AppError(402, 'REFUND_FAILED', result.message);
  }
  const paid = row.paymentStatus === 'paid' && left > 0;
  const now = ctx.clock.now().toISOString();
  const moved = await q.updateOrderStatus(ctx.db, id, row.status, {
    status: 'CANCELLED',
    now,
    ...(paid ? { paymentStatus: 'refunded', refundCents: row.totalCents } : {}),
  });
  if (!moved) throw refuse(row, 'cancelled');
  return staffOrder(ctx, id);
}
