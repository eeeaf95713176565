import type { MigrationDb } from './helpers.ts';
import { autoId, idColumnType } from './helpers.ts';

/**
 * Dead-end visits (issue 13). A patient whose state is not covered yet may ask to be told when it
 * is: one row per patient and state, `notified_at` set once, in the transaction that queues the
 * email. A patient closed out by a knock-out answer may ask a provider to review their answers:
 * `review_requested_at` marks that visit in the provider's queue (it holds nothing on the card).
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('state_waitlist')
    .addColumn('id', idColumnType(db), autoId(db))
    .addColumn('customer_id', 'integer', (col) =>
      col.notNull().references('customers.id').onDelete('cascade'),
    )
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('notified_at', 'text')
    .addUniqueConstraint('state_waitlist_one_per_state', ['customer_id', 'state'])
    .execute();
  await db.schema
    .createIndex('state_waitlist_waiting')
    .on('state_waitlist')
    .columns(['notified_at', 'state'])
    .execute();
  await db.schema.alterTable('visits').addColumn('review_requested_at', 'text').execute();
}
