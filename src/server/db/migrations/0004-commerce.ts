import { autoId, idColumnType, type MigrationDb } from './helpers.ts';

export async function up(db: MigrationDb): Promise<void> {
  // A logged-in customer's cart lives here (a visitor's in the browser). `checkout_key` is claimed by
  // the one place-order attempt in flight, so two tabs or a double click cannot both order.
  await db.schema
    .createTable('carts')
    .addColumn('customer_id', 'integer', (col) =>
      col.primaryKey().references('customers.id').onDelete('cascade'),
    )
    .addColumn('coupon_code', 'text')
    .addColumn('checkout_key', 'text')
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('cart_items')
    .addColumn('customer_id', 'integer', (col) =>
      col.notNull().references('carts.customer_id').onDelete('cascade'),
    )
    .addColumn('product_id', 'integer', (col) => col.notNull().references('products.id'))
    .addColumn('quantity', 'integer', (col) => col.notNull())
    .addColumn('added_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('cart_items_pk', ['customer_id', 'product_id'])
    .execute();

  await db.schema
    .createTable('coupons')
    .addColumn('code', 'text', (col) => col.primaryKey())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('value', 'integer', (col) => col.notNull())
    .addColumn('min_subtotal_cents', 'integer')
    .addColumn('expires_at', 'text')
    .addColumn('usage_limit', 'integer')
    .addColumn('used_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('first_order_only', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('active', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();

  await db.schema
    .createTable('clicks')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('params', 'text', (col) => col.notNull())
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('referrer', 'text')
    .addColumn('user_agent', 'text', (col) => col.notNull())
    .addColumn('device_type', 'text', (col) => col.notNull())
    .addColumn('ip_address', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('subscriptions')
    .addColumn('id', idColumnType(db), autoId(db))
    .addColumn('customer_id', 'integer', (col) => col.notNull().references('customers.id'))
    .addColumn('product_id', 'integer', (col) => col.notNull().references('products.id'))
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
    .execute();
  await db.schema
    .createIndex('subscriptions_customer_idx')
    .on('subscriptions')
    .column('customer_id')
    .execute();

  await db.schema.alterTable('orders').addColumn('charge_id', 'text').execute();

  // The payment simulator's own ledger (a real gateway keeps this on its side): one charge per
  // idempotency key, whichever instance asks.
  await db.schema
    .createTable('simulator_charges')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('idempotency_key', 'text', (col) => col.notNull().unique())
    .addColumn('token', 'text', (col) => col.notNull())
    .addColumn('amount_cents', 'integer', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('failure_message', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
}
