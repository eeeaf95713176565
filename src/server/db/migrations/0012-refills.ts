import { sql } from 'kysely';
import { autoId, idColumnType, isPostgres, type MigrationDb } from './helpers.ts';

/**
 * Refill subscriptions: an approved prescription with refills bills like a supplement subscription,
 * but it names its prescription instead of a catalogue product, carries the line it sells (name,
 * image, program) and stops after the prescribed refills or on the prescription's last valid day.
 * `product_id` becomes optional; SQLite cannot drop a NOT NULL, so there the table is rebuilt.
 */
export async function up(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table subscriptions alter column product_id drop not null`.execute(db);
    await addRefillColumns(db);
    return;
  }
  await sql`begin immediate`.execute(db);
  try {
    await db.schema
      .createTable('subscriptions_next')
      .addColumn('id', idColumnType(db), autoId(db))
      .addColumn('customer_id', 'integer', (col) => col.notNull().references('customers.id'))
      .addColumn('product_id', 'integer', (col) => col.references('products.id'))
      .addColumn('frequency', 'text', (col) => col.notNull())
      .addColumn('quantity', 'integer', (col) => col.notNull())
      .addColumn('unit_price_cents', 'integer', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('next_billing_date', 'text', (col) => col.notNull())
      .addColumn('paused_until', 'text')
      .addColumn('cancelled_at', 'text')
      .addColumn('cancel_reason', 'text')
      .addColumn('created_order_id', 'integer', (col) => col.references('orders.id'))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .addColumn('billing_anchor_day', 'integer', (col) => col.notNull().defaultTo(1))
      .execute();
    await sql`insert into subscriptions_next (id, customer_id, product_id, frequency, quantity,
      unit_price_cents, status, next_billing_date, paused_until, cancelled_at, cancel_reason,
      created_order_id, created_at, updated_at, billing_anchor_day)
      select id, customer_id, product_id, frequency, quantity, unit_price_cents, status,
      next_billing_date, paused_until, cancelled_at, cancel_reason, created_order_id, created_at,
      updated_at, billing_anchor_day from subscriptions`.execute(db);
    await db.schema.dropTable('subscriptions').execute();
    await sql`alter table subscriptions_next rename to subscriptions`.execute(db);
    await db.schema
      .createIndex('subscriptions_customer_idx')
      .on('subscriptions')
      .column('customer_id')
      .execute();
    await db.schema
      .createIndex('subscriptions_due_idx')
      .on('subscriptions')
      .columns(['status', 'next_billing_date'])
      .execute();
    await addRefillColumns(db);
    await sql`commit`.execute(db);
  } catch (error) {
    await sql`rollback`.execute(db);
    throw error;
  }
}

async function addRefillColumns(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('subscriptions')
    .addColumn('prescription_id', 'integer', (col) => col.references('prescriptions.id'))
    .execute();
  await db.schema.alterTable('subscriptions').addColumn('refills_remaining', 'integer').execute();
  await db.schema.alterTable('subscriptions').addColumn('refill_until', 'text').execute();
  await db.schema.alterTable('subscriptions').addColumn('item_name', 'text').execute();
  await db.schema.alterTable('subscriptions').addColumn('item_image', 'text').execute();
  await db.schema.alterTable('subscriptions').addColumn('item_category', 'text').execute();
  // One refill plan per prescription, however often an approval is retried.
  await db.schema
    .createIndex('subscriptions_prescription_idx')
    .on('subscriptions')
    .column('prescription_id')
    .unique()
    .execute();
}
