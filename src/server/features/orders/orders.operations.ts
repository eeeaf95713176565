import crypto from 'node:crypto';
import type { RefundResult } from '#server/adapters/payments.ts';
import type { AppContext } from '#server/context.ts';
import { sessionUser } from '#server/features/auth/auth.service.ts';
import { queueEmail, sendQueuedSoon } from '#server/features/outbox/outbox.service.ts';
import {
  outcomeOf,
  recordCall,
  refund,
  settleCall,
  type GatewayCall,
  type LedgerRow,
} from '#server/features/payments/payments.service.ts';
import type { Finishers } from '#server/features/payments/payments.jobs.ts';
import type { ProcessorRefund } from '#server/features/payments/payments.webhooks.ts';
import { auditAs, type StaffActor } from '#server/features/staff/staff.service.ts';
import { faultPoint } from '#server/lib/faults.ts';
import { absoluteLink } from '#server/lib/links.ts';
import { emailHtml, emailSignature } from '#server/lib/email-layout.ts';
import { AppError, notFound } from '#server/lib/errors.ts';
import { formatCents } from '#shared/money.ts';
import { canTransition, trackingUrl, type OrderStatus } from '#shared/orders.ts';
import { paths } from '#shared/paths.ts';
import { site } from '#shared/site.ts';
import {
  visitOrderLineName,
  type StaffOrderDetail,
  type StaffOrderSummary,
} from '#shared/operations.ts';
import * as q from './orders.staff.queries.ts';

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

/**
 * An order as orders know it for the console. Operations add what partners know of it (the link,
 * whom it ships to, a gift or plan) and what payments know of its payment at the processor
 * (disputes, fraud warnings) in `operations.orders.ts`, above these features.
 */
export interface StaffOrderCore {
  order: Omit<
    StaffOrderDetail,
    'partner' | 'ships_to_partner' | 'together' | 'disputes' | 'fraud_warnings' | 'processor'
  >;
  /** The partner the order ships to, whose name operations add. */
  shipToPartnerId: number | null;
}

export async function staffOrder(ctx: AppContext, id: number): Promise<StaffOrderCore> {
  const row = await q.selectStaffOrder(ctx.db, id);
  if (!row) throw notFound('We could not find that order.');
  const items = await q.selectStaffOrderItems(ctx.db, id);
  // Operations need no more than the program to answer a patient about a visit nobody has approved
  // (minimum necessary): what was asked for is the provider's to read until it is prescribed.
  const programOnly =
    row.kind === 'visit' && (await q.selectOrderVisitStatus(ctx.db, row)) !== 'APPROVED';
  const order = {
    ...summary(row),
    customer_id: row.customerId,
    kind: row.kind,
    subtotal_cents: row.subtotalCents,
    discount_cents: row.discountCents,
    coupon_code: row.couponCode,
    items: items.map((i) => ({
      product_name: programOnly ? visitOrderLineName(i.category) : i.product_name,
      category: i.category,
      quantity: i.quantity,
      unit_price_cents: i.unit_price_cents,
    })),
    shipping: row.shipping,
    actions: actionsFor(row),
  };
  return { order, shipToPartnerId: row.shipToPartnerId };
}

async function load(ctx: AppContext, id: number): Promise<q.StaffOrderRow> {
  const row = await q.selectStaffOrder(ctx.db, id);
  if (!row) throw notFound('We could not find that order.');
  return row;
}

function refuse(row: q.StaffOrderRow, to: string): AppError {
  return new AppError(
    'ORDER_STATE',
    `Order ${row.orderNumber} is ${row.status.toLowerCase().replace('_', ' ')} and cannot be ${to}.`,
  );
}

/**
 * Marks an order shipped with its tracking number and emails the customer the tracking link; the
 * staff member's audit entry is written with the change. `actor` null: the pharmacy shipped it
 * (its callback is the record; see orders.pharmacy.ts).
 */
export async function shipOrder(
  ctx: AppContext,
  id: number,
  trackingNumber: string,
  actor: StaffActor | null,
  giftTo: number | null,
): Promise<StaffOrderCore> {
  const row = await load(ctx, id);
  if (!canTransition(row.status, 'SHIPPED')) throw refuse(row, 'shipped');
  const now = ctx.clock.now().toISOString();
  const { user, giftFrom } = await toldOfDelivery(ctx, row, giftTo);
  const link = trackingUrl(trackingNumber);
  const lines = [
    `Hello ${user.first_name},`,
    giftFrom
      ? `Good news: your gift from ${giftFrom} (order ${row.orderNumber}) is on its way. You can follow it with USPS tracking number ${trackingNumber}.`
      : `Good news: your order ${row.orderNumber} is on its way. You can follow it with USPS tracking number ${trackingNumber}.`,
  ];
  // The notice and the audit entry are written with the change: shipped, told and audited, or none.
  const shipped = await ctx.db.transaction().execute(async (trx) => {
    if (
      !(await q.updateOrderStatus(trx, id, row.status, {
        status: 'SHIPPED',
        trackingNumber,
        shippedAt: now,
        now,
      }))
    )
      return false;
    if (actor) await auditAs({ ...ctx, db: trx }, actor.staffId, audited('ship', row, actor));
    await queueEmail(
      { ...ctx, db: trx },
      {
        to: user.email,
        subject: `Your ${site.name} order ${row.orderNumber} has shipped`,
        text: [...lines, '', link, '', ...emailSignature].join('\n'),
        html: emailHtml(
          lines,
          { href: link, label: 'Track your package' },
          'Packages usually arrive in 3 to 5 business days.',
        ),
      },
    );
    return true;
  });
  if (!shipped) throw refuse(row, 'shipped');
  sendQueuedSoon(ctx);
  return staffOrder(ctx, id);
}

/**
 * Who is told that an order shipped or arrived: its customer, except for a gift's delivery, which
 * is its recipient's news (the tracking page shows where it goes, which the payer does not see).
 * `giftTo`: the recipient when the order is a gift (operations ask partners, who know gifts).
 */
async function toldOfDelivery(
  ctx: AppContext,
  row: q.StaffOrderRow,
  giftTo: number | null,
): Promise<{ user: { first_name: string; email: string }; giftFrom: string | null }> {
  if (giftTo === null) return { user: await sessionUser(ctx, row.customerId), giftFrom: null };
  const payer = await sessionUser(ctx, row.customerId);
  return { user: await sessionUser(ctx, giftTo), giftFrom: payer.first_name };
}

/**
 * Marks an order delivered and emails the customer a link to the order on Orders (nothing about
 * what it held: a visit's order is a prescription). `actor` null: the pharmacy's carrier delivered
 * it.
 */
export async function markDelivered(
  ctx: AppContext,
  id: number,
  actor: StaffActor | null,
  giftTo: number | null,
): Promise<StaffOrderCore> {
  const row = await load(ctx, id);
  if (!canTransition(row.status, 'DELIVERED')) throw refuse(row, 'marked delivered');
  const now = ctx.clock.now().toISOString();
  const { user, giftFrom } = await toldOfDelivery(ctx, row, giftTo);
  // A gift's recipient manages it on the partner page; its orders are on the payer's Orders page.
  const link = absoluteLink(ctx.env, giftFrom ? paths.partner : paths.order(row.orderNumber));
  const lines = [
    `Hello ${user.first_name},`,
    giftFrom
      ? `Your gift from ${giftFrom} (order ${row.orderNumber}) has been delivered. Sign in to see the gift on your partner page.`
      : `Your order ${row.orderNumber} has been delivered. Sign in to see it on the Orders page, where you can also ask us about it.`,
  ];
  // Delivered, told and audited, or none.
  const delivered = await ctx.db.transaction().execute(async (trx) => {
    if (
      !(await q.updateOrderStatus(trx, id, row.status, {
        status: 'DELIVERED',
        deliveredAt: now,
        now,
      }))
    )
      return false;
    if (actor) await auditAs({ ...ctx, db: trx }, actor.staffId, audited('deliver', row, actor));
    await queueEmail(
      { ...ctx, db: trx },
      {
        to: user.email,
        subject: `Your ${site.name} order ${row.orderNumber} has been delivered`,
        text: [
          ...lines,
          '',
          `${giftFrom ? 'See your gift' : 'See your order'}: ${link}`,
          '',
          ...emailSignature,
        ].join('\n'),
        html: emailHtml(
          lines,
          { href: link, label: giftFrom ? 'See your gift' : 'See your order' },
          'Not there? Reply to this email and we will help.',
        ),
      },
    );
    return true;
  });
  if (!delivered) throw refuse(row, 'marked delivered');
  sendQueuedSoon(ctx);
  return staffOrder(ctx, id);
}

/** The audit entry of a staff member's change to an order. */
function audited(action: string, row: q.StaffOrderRow, actor: StaffActor) {
  return {
    action,
    subjectType: 'order',
    subjectId: String(row.id),
    customerId: row.customerId,
    ip: actor.ip,
  };
}

/** The statuses a refund may start from (it may end the order as Refunded). */
const REFUNDABLE = (['PROCESSING', 'SHIPPED', 'DELIVERED'] as const).filter((status) =>
  canTransition(status, 'REFUNDED'),
);

function tooLarge(left: number): AppError {
  const message = `At most ${formatCents(Math.max(left, 0))} can be refunded.`;
  return new AppError('REFUND_TOO_LARGE', message, { amount_cents: message });
}

/**
 * Refunds part or all of what is left; a full refund makes the order Refunded. Exactly once and
 * never more than was captured, whatever runs at the same time: the amount is reserved first by one
 * conditional update (captured minus refunded and reserved), the gateway is asked with this refund's
 * own key, and its answer moves the reservation into the order's refunds, with the ledger and one
 * audit entry, in one transaction (or gives it back when the gateway refused).
 */
export async function refundOrder(
  ctx: AppContext,
  id: number,
  amountCents: number,
  reason: string,
  actor: StaffActor,
): Promise<StaffOrderCore> {
  const row = await load(ctx, id);
  if (!row.chargeId || row.refundCents >= row.totalCents || !canTransition(row.status, 'REFUNDED'))
    throw refuse(row, 'refunded');
  const left = row.totalCents - row.refundCents - row.refundReservedCents;
  if (amountCents > left) throw tooLarge(left);
  const call: GatewayCall = {
    purpose: 'refund',
    idempotencyKey: `refund:${row.id}:${crypto.randomUUID()}`,
    amountCents,
    orderId: row.id,
    sourceRef: row.chargeId,
    staffId: actor.staffId,
    staffIp: actor.ip,
    // Kept with the money's record, for whoever reviews refunds; the customer is told the amount.
    details: { reason },
  };
  if (!(await reserve(ctx, call, REFUNDABLE))) {
    // Another refund got there first: say what is left now.
    const now = await load(ctx, id);
    if (!canTransition(now.status, 'REFUNDED')) throw refuse(now, 'refunded');
    throw tooLarge(now.totalCents - now.refundCents - now.refundReservedCents);
  }
  await giveBack(ctx, call, row.customerId);
  return staffOrder(ctx, id);
}

/** Cancels an order that has not shipped; what was paid goes back in full. */
export async function cancelOrder(
  ctx: AppContext,
  id: number,
  actor: StaffActor,
): Promise<StaffOrderCore> {
  const row = await load(ctx, id);
  if (!canTransition(row.status, 'CANCELLED')) throw refuse(row, 'cancelled');
  // A visit's card is only held until its provider decides; the decision releases or takes it.
  // Cancelled here, the order would end with the hold still on the patient's card.
  if (row.status === 'PENDING_REVIEW' || row.paymentStatus === 'authorized')
    throw new AppError(
      'ORDER_STATE',
      `Order ${row.orderNumber} is waiting for a provider's decision; declining it releases the hold on the card.`,
    );
  const left = row.totalCents - row.refundCents;
  const paid = row.paymentStatus === 'paid' || row.paymentStatus === 'partially_refunded';
  if (row.chargeId && paid && left > 0) {
    const call: GatewayCall = {
      purpose: 'cancel',
      idempotencyKey: `cancel:${row.id}:${crypto.randomUUID()}`,
      amountCents: left,
      orderId: row.id,
      sourceRef: row.chargeId,
      staffId: actor.staffId,
      staffIp: actor.ip,
    };
    if (!(await reserve(ctx, call, [row.status])))
      throw new AppError(
        'ORDER_CHANGED',
        'This order just changed. Please review it and try again.',
      );
    await giveBack(ctx, call, row.customerId);
    return staffOrder(ctx, id);
  }
  const now = ctx.clock.now().toISOString();
  const moved = await ctx.db.transaction().execute(async (trx) => {
    if (!(await q.updateOrderStatus(trx, id, row.status, { status: 'CANCELLED', now })))
      return false;
    await auditAs({ ...ctx, db: trx }, actor.staffId, audited('cancel', row, actor));
    return true;
  });
  if (!moved) throw refuse(row, 'cancelled');
  return staffOrder(ctx, id);
}

/** The reservation and the ledger's record of the call appear together or not at all. */
function reserve(
  ctx: AppContext,
  call: GatewayCall,
  fromStatuses: readonly OrderStatus[],
): Promise<boolean> {
  return ctx.db.transaction().execute(async (trx) => {
    const reserved = await q.reserveRefund(
      trx,
      call.orderId ?? 0,
      call.amountCents,
      fromStatuses,
      ctx.clock.now().toISOString(),
    );
    if (reserved) await recordCall({ ...ctx, db: trx }, 'refund', call);
    return reserved;
  });
}

/** Asks the gateway for a reserved refund and records its answer; a refusal answers 402. */
async function giveBack(ctx: AppContext, call: GatewayCall, customerId: number): Promise<void> {
  const result = await refund(ctx, call);
  await settleRefund(ctx, call, customerId, result);
  sendQueuedSoon(ctx);
  faultPoint(ctx.env, `${call.purpose}:after-commit`);
  if (!result.ok) throw new AppError('REFUND_FAILED', result.message);
}

/**
 * The gateway's answer to a reserved refund, applied once (the ledger row settles from started
 * only): the ledger, the order's refunds and the audit entry of the staff member who asked, together.
 */
async function settleRefund(
  ctx: AppContext,
  call: GatewayCall,
  customerId: number,
  result: RefundResult,
): Promise<void> {
  const orderId = call.orderId ?? 0;
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    if (!(await settleCall(tx, call.idempotencyKey, outcomeOf(result)))) return;
    if (!result.ok) {
      await q.freeRefundReservation(trx, orderId, call.amountCents, now);
      return;
    }
    await q.applyReservedRefund(trx, orderId, call.amountCents, call.purpose === 'cancel', now);
    await sendRefundReceipt(tx, orderId, customerId, call);
    if (call.staffId !== null && call.staffId !== undefined)
      await auditAs(tx, call.staffId, {
        action: call.purpose,
        subjectType: 'order',
        subjectId: String(orderId),
        customerId,
        ip: call.staffIp ?? '',
      });
  });
}

/**
 * A refund the payment processor made without us (in Stripe's Dashboard), written down as it
 * happened: a settled ledger call keyed by the processor's refund id, the order's refunds, the
 * customer's receipt and an audit entry naming the processor, together and once. Nothing is
 * refused, since the money has already gone back: the order shows it as it moved. False when it
 * was recorded before.
 */
export async function recordProcessorRefund(
  ctx: AppContext,
  refunded: ProcessorRefund,
): Promise<boolean> {
  const call: GatewayCall = {
    purpose: refunded.purpose,
    idempotencyKey: `stripe-refund:${refunded.refundId}`,
    amountCents: refunded.amountCents,
    orderId: refunded.orderId,
    sourceRef: refunded.paymentRef,
    staffId: refunded.actor.staffId,
    staffIp: refunded.actor.ip,
  };
  const now = ctx.clock.now().toISOString();
  const recorded = await ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    const row = await q.selectStaffOrder(trx, refunded.orderId);
    if (!row) return false;
    await recordCall(tx, 'refund', call);
    if (!(await settleCall(tx, call.idempotencyKey, { ok: true, ref: refunded.refundId })))
      return false;
    await q.applyProcessorRefund(
      trx,
      row.id,
      refunded.amountCents,
      canTransition(row.status, 'REFUNDED'),
      now,
    );
    await sendRefundReceipt(tx, row.id, row.customerId, call);
    await auditAs(tx, refunded.actor.staffId, audited(refunded.purpose, row, refunded.actor));
    return true;
  });
  if (recorded) sendQueuedSoon(ctx);
  return recorded;
}

/**
 * The customer's receipt for a refund (or a cancellation's), queued with the refund itself, so each
 * refund has exactly one. What the order held is not named: a visit's order is a prescription.
 */
async function sendRefundReceipt(
  ctx: AppContext,
  orderId: number,
  customerId: number,
  call: GatewayCall,
): Promise<void> {
  const order = await q.selectStaffOrder(ctx.db, orderId);
  if (!order) return;
  const user = await sessionUser(ctx, customerId);
  const link = absoluteLink(ctx.env, paths.order(order.orderNumber));
  const amount = formatCents(call.amountCents);
  const lines = [
    `Hello ${user.first_name},`,
    call.purpose === 'cancel'
      ? `We cancelled your order ${order.orderNumber} and refunded ${amount} to the card it was paid with.`
      : `We refunded ${amount} of your order ${order.orderNumber} to the card it was paid with.`,
    'Banks usually take 5 to 10 business days to show a refund on your statement.',
  ];
  await queueEmail(ctx, {
    to: user.email,
    subject: `Your ${site.name} refund for order ${order.orderNumber}`,
    text: [...lines, '', `See your order: ${link}`, '', ...emailSignature].join('\n'),
    html: emailHtml(
      lines,
      { href: link, label: 'See your order' },
      'Questions? Just reply to this email or write to us.',
    ),
  });
}

/**
 * For the reconciler: finishes a refund a crash interrupted after its reservation. Asking the
 * gateway again with the refund's own key either finds the refund it made or makes it now; the
 * answer is settled as the request would have.
 */
export async function finishInterruptedRefund(ctx: AppContext, call: LedgerRow): Promise<void> {
  const order = await q.selectStaffOrder(ctx.db, call.orderId ?? 0);
  if (!order) return;
  const asked: GatewayCall = {
    purpose: call.purpose,
    idempotencyKey: call.idempotencyKey,
    amountCents: call.amountCents,
    orderId: call.orderId,
    sourceRef: call.sourceRef,
    staffId: call.staffId,
    staffIp: call.staffIp,
  };
  await settleRefund(ctx, asked, order.customerId, await refund(ctx, asked));
}

/** What the payment reconciler runs for staff refunds and cancellations (registered at start). */
export const ordersFinishers: Finishers = {
  refund: finishInterruptedRefund,
  cancel: finishInterruptedRefund,
};
