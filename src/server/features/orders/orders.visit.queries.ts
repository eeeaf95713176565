// Visit orders: authorised at checkout, charged or released at review.
import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';

type Db = Kysely<Database>;

export async function markAuthorized(
  db: Db,
  id: number,
  authorizationId: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set({
      status: 'PENDING_REVIEW',
      payment_status: 'authorized',
      charge_id: authorizationId,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('payment_status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Puts a renewed hold in place of the one it renews, only while the order still waits for review
 * with that one: an approval, a decline or another renewal meanwhile leaves the order as it is.
 */
export async function swapHold(
  db: Db,
  id: number,
  from: string,
  to: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set({ charge_id: to, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'PENDING_REVIEW')
    .where('payment_status', '=', 'authorized')
    .where('charge_id', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function selectVisitOrder(db: Db, id: number) {
  const row = await db
    .selectFrom('orders')
    .select([
      'id',
      'order_number',
      'status',
      'payment_status',
      'charge_id',
      'total_cents',
      'customer_id',
      'ship_state',
    ])
    .where('id', '=', id)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      orderNumber: row.order_number,
      status: row.status,
      paymentStatus: row.payment_status,
      chargeId: row.charge_id,
      totalCents: row.total_cents,
      customerId: row.customer_id,
      shipState: row.ship_state,
    }
  );
}

export async function markCaptured(
  db: Db,
  id: number,
  chargeId: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set({ status: 'PROCESSING', payment_status: 'paid', charge_id: chargeId, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'PENDING_REVIEW')
    .where('payment_status', '=', 'authorized')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function markDeclined(
  db: Db,
  id: number,
  reason: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set({ status: 'DECLINED', payment_status: 'voided', decline_reason: reason, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'PENDING_REVIEW')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * The fills of a prescription's care (issue 29, a renewal's chart): the visit orders named and the
 * refill plan's orders, newest first, with their status.
 */
export async function selectFills(
  db: Db,
  customerId: number,
  fills: { orderIds: number[]; subscriptionIds: number[] },
): Promise<{ orderNumber: string; placedAt: string; status: string }[]> {
  if (fills.orderIds.length === 0 && fills.subscriptionIds.length === 0) return [];
  const rows = await db
    .selectFrom('orders')
    .select(['order_number', 'created_at', 'status'])
    .where('customer_id', '=', customerId)
    .where((eb) =>
      eb.or([
        ...(fills.orderIds.length > 0 ? [eb('id', 'in', fills.orderIds)] : []),
        ...(fills.subscriptionIds.length > 0
          ? [eb('subscription_id', 'in', fills.subscriptionIds)]
          : []),
      ]),
    )
    .orderBy('id', 'desc')
    .limit(24)
    .execute();
  return rows.map((r) => ({
    orderNumber: r.order_number,
    placedAt: r.created_at,
    status: r.status,
  }));
}
