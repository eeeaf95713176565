import { sql } from 'kysely';
import type { MigrationDb } from './helpers.ts';

/**
 * Issue 29, a pharmacy that answers: a fill the pharmacy rejected is a provider's task (besides the
 * patient's message) until a provider writes to the patient about it in the visit's conversation.
 *
 * - `pharmacy_messages.rejected_at`: when the pharmacy rejected the NewRx or refill (its callback's
 *   time), set with the order's rejected step.
 * - `pharmacy_messages.rejection_closed_at` / `rejection_closed_by`: when, and by which provider,
 *   the patient was written to about it; the task leaves the queue.
 * - A partial index on the open tasks only: the queue reads it on every load, and it stays as small
 *   as the tasks waiting (new columns with no default and a new index: no table is rewritten).
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('pharmacy_messages').addColumn('rejected_at', 'text').execute();
  await db.schema
    .alterTable('pharmacy_messages')
    .addColumn('rejection_closed_at', 'text')
    .execute();
  await db.schema
    .alterTable('pharmacy_messages')
    .addColumn('rejection_closed_by', 'integer', (col) => col.references('staff_users.id'))
    .execute();
  await db.schema
    .createIndex('pharmacy_messages_open_rejections_idx')
    .on('pharmacy_messages')
    .columns(['rejected_at', 'id'])
    .where(sql<boolean>`rejected_at is not null and rejection_closed_at is null`)
    .execute();
}
