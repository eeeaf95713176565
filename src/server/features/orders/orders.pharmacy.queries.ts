import { type Kysely, type Transaction } from 'kysely';
import type { Database, OrderPharmacyStepsTable } from '#server/db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

export type PharmacyStepRow = Pick<OrderPharmacyStepsTable, 'order_id' | 'step' | 'at' | 'detail'>;

/** Keeps one step of an order at the pharmacy, once: false when it was kept before. */
export async function insertStep(db: Db, row: PharmacyStepRow): Promise<boolean> {
  const inserted = await db
    .insertInto('order_pharmacy_steps')
    .values(row)
    .onConflict((oc) => oc.columns(['order_id', 'step']).doNothing())
    .returning('order_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** The steps of these orders. */
export async function selectSteps(db: Db, orderIds: number[]): Promise<PharmacyStepRow[]> {
  if (orderIds.length === 0) return [];
  return db
    .selectFrom('order_pharmacy_steps')
    .select(['order_id', 'step', 'at', 'detail'])
    .where('order_id', 'in', orderIds)
    .execute();
}

/**
 * Orders whose status is behind what the pharmacy said (shipped while the order is still being
 * prepared, delivered while it is shipped): a crash came between keeping the step and following
 * it, or the steps came out of order. The pharmacy job follows them.
 */
export async function selectOrdersBehind(db: Db, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('order_pharmacy_steps as s')
    .innerJoin('orders as o', 'o.id', 's.order_id')
    .select('o.id')
    .where((eb) =>
      eb.or([
        eb.and([eb('s.step', '=', 'shipped'), eb('o.status', '=', 'PROCESSING')]),
        eb.and([eb('s.step', '=', 'delivered'), eb('o.status', '=', 'SHIPPED')]),
      ]),
    )
    .groupBy('o.id')
    .orderBy('o.id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Where an order ships and who placed it: what a pharmacy message names. */
export async function selectShipping(db: Db, orderId: number) {
  return db
    .selectFrom('orders')
    .select([
      'id',
      'order_number',
      'customer_id',
      'status',
      'ship_address',
      'ship_address2',
      'ship_city',
      'ship_state',
      'ship_zip',
      'created_at',
    ])
    .where('id', '=', orderId)
    .executeTakeFirst();
}

export async function selectStatuses(db: Db, orderIds: number[]) {
  if (orderIds.length === 0) return [];
  return db.selectFrom('orders').select(['id', 'status']).where('id', 'in', orderIds).execute();
}
