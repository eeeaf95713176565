import { autoId, idColumnType, type MigrationDb } from './helpers.ts';

/**
 * Issue 29, the first visit where a newcomer stumbled: a visitor told that online visits do not
 * reach their state yet may leave an e-mail address for one message when they do, with no account.
 *
 * - `visitor_waitlist`: the address (lower-cased) and the state, once per pair. The row is deleted
 *   in the transaction that queues its one e-mail, so nothing of a visitor is kept after they are
 *   told (an account's waitlist, `state_waitlist`, keeps its row with `notified_at`).
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('visitor_waitlist')
    .addColumn('id', idColumnType(db), autoId(db))
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('visitor_waitlist_email_state_unique', ['email', 'state'])
    .execute();
  await db.schema
    .createIndex('visitor_waitlist_state_idx')
    .on('visitor_waitlist')
    .columns(['state', 'id'])
    .execute();
}
