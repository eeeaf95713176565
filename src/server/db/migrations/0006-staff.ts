import { autoId, idColumnType, type MigrationDb } from './helpers.ts';

export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('staff_users')
    .addColumn('id', idColumnType(db), autoId(db))
    .addColumn('email', 'text', (col) => col.notNull().unique())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('role', 'text', (col) => col.notNull())
    .addColumn('password_hash', 'text', (col) => col.notNull())
    .addColumn('totp_secret', 'text', (col) => col.notNull())
    // The last TOTP step used: a code works once.
    .addColumn('totp_last_step', 'integer', (col) => col.notNull().defaultTo(0))
    // Comma-separated state codes a provider is licensed in.
    .addColumn('licensed_states', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('active', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('staff_sessions')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('staff_id', 'integer', (col) =>
      col.notNull().references('staff_users.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('last_seen_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute();

  // Every view of a customer's data by staff, and every change staff make (DESIGN §7).
  await db.schema
    .createTable('audit_log')
    .addColumn('id', idColumnType(db), autoId(db))
    .addColumn('staff_id', 'integer', (col) => col.notNull().references('staff_users.id'))
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('subject_type', 'text', (col) => col.notNull())
    .addColumn('subject_id', 'text')
    .addColumn('customer_id', 'integer')
    .addColumn('ip_address', 'text', (col) => col.notNull())
    .addColumn('at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('audit_log_customer_idx')
    .on('audit_log')
    .columns(['customer_id', 'at'])
    .execute();

  await db.schema
    .createTable('simulator_refunds')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('idempotency_key', 'text', (col) => col.notNull().unique())
    .addColumn('charge_id', 'text', (col) => col.notNull())
    .addColumn('amount_cents', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema.alterTable('orders').addColumn('shipped_at', 'text').execute();
  await db.schema.alterTable('orders').addColumn('delivered_at', 'text').execute();
}
