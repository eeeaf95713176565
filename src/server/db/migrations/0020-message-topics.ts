import type { MigrationDb } from './helpers.ts';

/**
 * What a conversation is about (`treatment`, `order` or `other`), chosen by the patient, and the
 * provider a clinical one is assigned to (null: open to every provider licensed in the patient's
 * state). Threads from before stay with whoever answered them: a visit's thread is its provider's
 * (clinical), one about an order is about the order, every other one is the care team's.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('message_threads')
    .addColumn('topic', 'text', (col) => col.notNull().defaultTo('other'))
    .execute();
  await db.schema
    .alterTable('message_threads')
    .addColumn('provider_id', 'integer', (col) => col.references('staff_users.id'))
    .execute();
  await db
    .updateTable('message_threads')
    .set({ topic: 'order' })
    .where('order_id', 'is not', null)
    .execute();
  await db
    .updateTable('message_threads')
    .set({ topic: 'treatment' })
    .where('visit_id', 'is not', null)
    .execute();
  await db.schema
    .createIndex('message_threads_topic_idx')
    .on('message_threads')
    .columns(['topic', 'provider_id'])
    .execute();
}
