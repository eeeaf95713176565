import { autoId, idColumnType, type MigrationDb } from './helpers.ts';

/**
 * The outbox: every email and text message, written in the same transaction as the change that
 * causes it and sent by the outbox job (decision 012). `message_id` is the RFC 5322 Message-ID
 * given when it is queued, so a retry is recognisable as the same message. `claimed_until` is a
 * lease: a sender that dies mid-send lets another take the message over when it runs out.
 * `secret_purpose`/`secret_ref` name a one-time secret (a reset link, a phone code) minted only when
 * the message is sent, so no secret waits in this table.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('outbox_messages')
    .addColumn('id', idColumnType(db), autoId(db))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('message_id', 'text', (col) => col.notNull().unique())
    .addColumn('recipient', 'text', (col) => col.notNull())
    .addColumn('subject', 'text', (col) => col.notNull())
    .addColumn('text', 'text', (col) => col.notNull())
    .addColumn('html', 'text')
    .addColumn('secret_purpose', 'text')
    .addColumn('secret_ref', 'text')
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (col) => col.notNull())
    .addColumn('claimed_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('sent_at', 'text')
    .execute();
  await db.schema
    .createIndex('outbox_messages_due_idx')
    .on('outbox_messages')
    .columns(['status', 'next_attempt_at'])
    .execute();
}
