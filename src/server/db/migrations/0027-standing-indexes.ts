import { sql } from 'kysely';
import type { MigrationDb } from './helpers.ts';

/**
 * Indexes for what nearly every member request reads, the standing and the visits behind a page
 * of orders (issue 14, decision 017). Without them they read more rows than the customer has:
 *
 * - The earliest billing date of a customer's active or past-due subscriptions walked every active
 *   subscription of every customer: SQLite chose `subscriptions_due_idx` (status, date) over the
 *   customer's index. `subscriptions_customer_status_idx` answers it from the index alone, and
 *   replaces `subscriptions_customer_idx`, whose one column leads it.
 * - The count of a customer's unread care-team messages read every message of their threads.
 *   `messages_unread_idx` holds only the unread ones.
 * - A customer's visits (behind their orders, and the visits list) were found by reading every
 *   visit: only open ones had an index. `visits_customer_idx` has them all.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createIndex('subscriptions_customer_status_idx')
    .on('subscriptions')
    .columns(['customer_id', 'status', 'next_billing_date'])
    .execute();
  await db.schema.dropIndex('subscriptions_customer_idx').execute();
  await db.schema
    .createIndex('messages_unread_idx')
    .on('messages')
    .columns(['thread_id', 'sender'])
    .where(sql.ref('read_at'), 'is', null)
    .execute();
  await db.schema.createIndex('visits_customer_idx').on('visits').column('customer_id').execute();
}
