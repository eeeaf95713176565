import { autoId, idColumnType, type MigrationDb } from './helpers.ts';

/**
 * Account protection (issue 11): the browsers that have logged in to an account before, the
 * one-time links that unlock a new browser when an account's log-in is limited, and the links that
 * undo an email change. Every token is random; only its SHA-256 is stored.
 */
export async function up(db: MigrationDb): Promise<void> {
  // `account` is `customer:<id>` or `staff:<id>`: customers and staff log in the same way.
  await db.schema
    .createTable('known_devices')
    .addColumn('token_hash', 'text', (col) => col.notNull())
    .addColumn('account', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('last_login_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('known_devices_pk', ['token_hash', 'account'])
    .execute();
  await db.schema
    .createIndex('known_devices_account_idx')
    .on('known_devices')
    .column('account')
    .execute();

  await db.schema
    .createTable('login_unlocks')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('account', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('used_at', 'text')
    .execute();

  // The row is written with the change; its token only when the notice goes out (the outbox mints
  // it), so a notice still waiting after the owner has undone the change mints nothing.
  await db.schema
    .createTable('email_change_undos')
    .addColumn('id', idColumnType(db), autoId(db))
    .addColumn('token_hash', 'text', (col) => col.unique())
    .addColumn('customer_id', 'integer', (col) =>
      col.notNull().references('customers.id').onDelete('cascade'),
    )
    .addColumn('old_email', 'text', (col) => col.notNull())
    .addColumn('new_email', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema
    .createIndex('email_change_undos_customer_idx')
    .on('email_change_undos')
    .column('customer_id')
    .execute();
}
