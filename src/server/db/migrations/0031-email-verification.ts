import { autoId, idColumnType, type MigrationDb } from './helpers.ts';

/**
 * Issue 26, identity rests on proof (decision 016):
 *
 * - `customers.email_verified_at`: when the customer last proved they read mail at their address.
 *   Null for every account made before this migration: a typed address proves nothing.
 * - `email_verifications`: the one-time links that prove an address. One for the address the
 *   account has (sent at sign-up, or again on request) or for a new one (an email change, which
 *   takes effect only when its link is opened). The row is written when the email is queued; its
 *   token only when the email goes out (the outbox mints it), so no token waits in the outbox.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('customers').addColumn('email_verified_at', 'text').execute();
  await db.schema
    .createTable('email_verifications')
    .addColumn('id', idColumnType(db), autoId(db))
    .addColumn('token_hash', 'text', (col) => col.unique())
    .addColumn('customer_id', 'integer', (col) =>
      col.notNull().references('customers.id').onDelete('cascade'),
    )
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema
    .createIndex('email_verifications_customer_idx')
    .on('email_verifications')
    .column('customer_id')
    .execute();
}
