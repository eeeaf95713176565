// Where a customer's store checkout has got to (migration 0021): one row per customer.
import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';

type Db = Kysely<Database>;

export interface ProgressRow {
  step: 'shipping' | 'upsell' | 'payment';
  /** JSON of the shipping address and phone. */
  shipping: string;
  updatedAt: string;
}

export async function selectProgress(db: Db, customerId: number): Promise<ProgressRow | undefined> {
  return db
    .selectFrom('checkout_progress')
    .select(['step', 'shipping', 'updated_at as updatedAt'])
    .where('customer_id', '=', customerId)
    .executeTakeFirst();
}

/** Writes the customer's progress, replacing what was there. */
export async function upsertProgress(
  db: Db,
  customerId: number,
  progress: ProgressRow,
): Promise<void> {
  const values = {
    step: progress.step,
    shipping: progress.shipping,
    updated_at: progress.updatedAt,
  };
  await db
    .insertInto('checkout_progress')
    .values({ customer_id: customerId, ...values })
    .onConflict((oc) => oc.column('customer_id').doUpdateSet(values))
    .execute();
}

export async function deleteProgress(db: Db, customerId: number): Promise<void> {
  await db.deleteFrom('checkout_progress').where('customer_id', '=', customerId).execute();
}
