import type { MigrationDb } from './helpers.ts';

/** A patient can start a thread about one of their orders; the care team sees which. */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('message_threads')
    .addColumn('order_id', 'integer', (col) => col.references('orders.id'))
    .execute();
}
