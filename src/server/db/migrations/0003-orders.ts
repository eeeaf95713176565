import { autoId, idColumnType, type MigrationDb } from './helpers.ts';

export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('orders')
    .addColumn('id', idColumnType(db), autoId(db))
    .addColumn('order_number', 'text', (col) => col.notNull().unique())
    .addColumn('customer_id', 'integer', (col) => col.notNull().references('customers.id'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('payment_status', 'text', (col) => col.notNull())
    .addColumn('subtotal_cents', 'integer', (col) => col.notNull())
    .addColumn('discount_cents', 'integer', (col) => col.notNull())
    .addColumn('total_cents', 'integer', (col) => col.notNull())
    .addColumn('refund_cents', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('coupon_code', 'text')
    .addColumn('tracking_number', 'text')
    .addColumn('decline_reason', 'text')
    .addColumn('ship_address', 'text', (col) => col.notNull())
    .addColumn('ship_address2', 'text', (col) => col.notNull())
    .addColumn('ship_city', 'text', (col) => col.notNull())
    .addColumn('ship_state', 'text', (col) => col.notNull())
    .addColumn('ship_zip', 'text', (col) => col.notNull())
    .addColumn('ship_country', 'text', (col) => col.notNull())
    .addColumn('click_id', 'text')
    .addColumn('idempotency_key', 'text', (col) => col.unique())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('orders_customer_idx')
    .on('orders')
    .columns(['customer_id', 'created_at'])
    .execute();

  // Lines copy the product as it was sold (name, image, price, category): the catalogue may change.
  await db.schema
    .createTable('order_items')
    .addColumn('id', idColumnType(db), autoId(db))
    .addColumn('order_id', 'integer', (col) =>
      col.notNull().references('orders.id').onDelete('cascade'),
    )
    .addColumn('product_id', 'integer', (col) => col.notNull())
    .addColumn('product_name', 'text', (col) => col.notNull())
    .addColumn('product_image', 'text', (col) => col.notNull())
    .addColumn('category', 'text', (col) => col.notNull())
    .addColumn('frequency', 'text', (col) => col.notNull())
    .addColumn('unit_price_cents', 'integer', (col) => col.notNull())
    .addColumn('quantity', 'integer', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('order_items_order_idx')
    .on('order_items')
    .column('order_id')
    .execute();
}
