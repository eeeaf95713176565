import type { MigrationDb } from './helpers.ts';

/**
 * Where a logged-in customer's store checkout has got to (issue 13): the step reached and the
 * shipping address they gave, so a reload or a second tab goes on from there. One row per
 * customer, removed when the order is placed; the address is the customer's own and stays on the
 * server, never in the browser's storage (DESIGN §3).
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('checkout_progress')
    .addColumn('customer_id', 'integer', (col) =>
      col.primaryKey().references('customers.id').onDelete('cascade'),
    )
    .addColumn('step', 'text', (col) => col.notNull())
    .addColumn('shipping', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
}
