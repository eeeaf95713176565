import type { AppContext } from '#server/context.ts';
import { AppError } from '#server/lib/errors.ts';
import {
  canTransition,
  pharmacyStepNames,
  type PharmacyStep,
  type PharmacyTimeline,
} from '#shared/orders.ts';
import { markDelivered, shipOrder } from './orders.operations.ts';
import * as q from './orders.pharmacy.queries.ts';
import { selectStaffOrder } from './orders.staff.queries.ts';

/**
 * Issue 29: where an order's medicine is. The pharmacy feature keeps each step the pharmacy reports
 * here (orders own an order's timeline), and the order follows: shipped with the carrier's tracking
 * number, then delivered, with the customer told as when operations do it by hand.
 */

/** Keeps a step in the caller's transaction; false when the order had it already. */
export function recordPharmacyStep(
  tx: AppContext,
  step: { orderId: number; step: PharmacyStep; at: string; detail: string | null },
): Promise<boolean> {
  return q.insertStep(tx.db, {
    order_id: step.orderId,
    step: step.step,
    at: step.at,
    detail: step.detail,
  });
}

/** The timelines of these orders (only those the pharmacy has a step of), steps in their order. */
export async function pharmacyTimelines(
  ctx: AppContext,
  orderIds: number[],
): Promise<Map<number, PharmacyTimeline>> {
  const timelines = new Map<number, PharmacyTimeline>();
  const rank = (step: PharmacyStep) => pharmacyStepNames.indexOf(step);
  for (const row of await q.selectSteps(ctx.db, orderIds)) {
    const timeline = timelines.get(row.order_id) ?? { steps: [], rejected_reason: null };
    timeline.steps.push({ step: row.step, at: row.at });
    if (row.step === 'rejected') timeline.rejected_reason = row.detail;
    timelines.set(row.order_id, timeline);
  }
  for (const timeline of timelines.values())
    timeline.steps.sort((a, b) => rank(a.step) - rank(b.step));
  return timelines;
}

/**
 * Moves the order as far as its steps say: shipped (with the tracking number the shipped step
 * carries), then delivered. A delivered step that came before its shipped step waits for it, so
 * the order never reads Delivered without its tracking number. Another change that got there first
 * (operations shipped it by hand, refunded it) is left as it is.
 */
export async function followPharmacy(ctx: AppContext, orderId: number): Promise<void> {
  const steps = await q.selectSteps(ctx.db, [orderId]);
  const shipped = steps.find((s) => s.step === 'shipped');
  if (!shipped) return;
  const order = await selectStaffOrder(ctx.db, orderId);
  if (!order) return;
  try {
    if (canTransition(order.status, 'SHIPPED'))
      await shipOrder(ctx, orderId, shipped.detail ?? '', null, null);
    if (steps.some((s) => s.step === 'delivered')) await markDelivered(ctx, orderId, null, null);
  } catch (error) {
    // Moved meanwhile (by hand, by another instance following the same step): nothing to do.
    if (!(error instanceof AppError && error.code === 'ORDER_STATE')) throw error;
  }
}

/** Follows the orders whose status is behind their steps, a batch at a time; true when more wait. */
export async function followOrdersBehind(ctx: AppContext, limit: number): Promise<boolean> {
  const ids = await q.selectOrdersBehind(ctx.db, limit);
  for (const id of ids) await followPharmacy(ctx, id);
  return ids.length === limit;
}

/** Where an order ships and whose it is, for a message to the pharmacy. */
export async function pharmacyShipping(ctx: AppContext, orderId: number) {
  const row = await q.selectShipping(ctx.db, orderId);
  return (
    row && {
      orderId: row.id,
      orderNumber: row.order_number,
      customerId: row.customer_id,
      address: {
        line1: row.ship_address,
        line2: row.ship_address2,
        city: row.ship_city,
        state: row.ship_state,
        zip: row.ship_zip,
      },
    }
  );
}

/** The statuses of these orders, by id. */
export async function orderStatusesOf(ctx: AppContext, orderIds: number[]) {
  return new Map((await q.selectStatuses(ctx.db, orderIds)).map((r) => [r.id, r.status]));
}
