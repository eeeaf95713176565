import type { AppContext } from '#server/context.ts';
import * as orders from '#server/features/orders/orders.operations.ts';
import {
  partnerForStaff,
  shipsToPartnerForStaff,
} from '#server/features/partners/partners.service.ts';
import { togetherForStaff } from '#server/features/partners/partners.together.ts';
import { processorViewForStaff } from '#server/features/payments/payments.webhooks.ts';
import type { StaffActor } from '#server/features/staff/staff.service.ts';
import { processorForStaff } from './operations.processor.ts';
import type { StaffOrderDetail } from '#shared/operations.ts';

/**
 * The staff order view, composed here: orders know the order and move it; partners know the link,
 * whom a store order ships to and whether a renewal is a gift or a plan; payments know what the
 * processor told of its payment (disputes, fraud warnings), and the processor itself is asked how
 * the payment stands there. Operations sit above them all, so none imports another for the
 * console.
 */

async function withPartners(
  ctx: AppContext,
  core: orders.StaffOrderCore,
): Promise<StaffOrderDetail> {
  return {
    ...core.order,
    partner: await partnerForStaff(ctx, core.order.customer_id),
    ships_to_partner:
      core.shipToPartnerId === null
        ? null
        : await shipsToPartnerForStaff(ctx, core.shipToPartnerId),
    together: await togetherForStaff(ctx, core.order.orders_id),
    ...(await processorViewForStaff(ctx, core.order.orders_id)),
    processor: await processorForStaff(ctx, core.order.orders_id),
  };
}

/** A gift's recipient, who is told of its shipping and delivery instead of the payer. */
async function giftTo(ctx: AppContext, orderId: number): Promise<number | null> {
  const together = await togetherForStaff(ctx, orderId);
  return together?.kind === 'gift' ? together.partner_id : null;
}

export const staffOrders = orders.staffOrders;

export async function staffOrder(ctx: AppContext, id: number): Promise<StaffOrderDetail> {
  return withPartners(ctx, await orders.staffOrder(ctx, id));
}

export async function shipOrder(
  ctx: AppContext,
  id: number,
  trackingNumber: string,
  actor: StaffActor,
): Promise<StaffOrderDetail> {
  const core = await orders.shipOrder(ctx, id, trackingNumber, actor, await giftTo(ctx, id));
  return withPartners(ctx, core);
}

export async function markDelivered(
  ctx: AppContext,
  id: number,
  actor: StaffActor,
): Promise<StaffOrderDetail> {
  return withPartners(ctx, await orders.markDelivered(ctx, id, actor, await giftTo(ctx, id)));
}

export async function refundOrder(
  ctx: AppContext,
  id: number,
  amountCents: number,
  reason: string,
  actor: StaffActor,
): Promise<StaffOrderDetail> {
  return withPartners(ctx, await orders.refundOrder(ctx, id, amountCents, reason, actor));
}

export async function cancelOrder(
  ctx: AppContext,
  id: number,
  actor: StaffActor,
): Promise<StaffOrderDetail> {
  return withPartners(ctx, await orders.cancelOrder(ctx, id, actor));
}
