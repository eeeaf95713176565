import { sql } from 'kysely';
import type { MigrationDb } from './helpers.ts';

export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('product_lines')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('slug', 'text', (col) => col.notNull().unique())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('summary', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('img', 'text', (col) => col.notNull())
    .addColumn('category', 'text', (col) => col.notNull())
    .addColumn('sort_order', 'integer', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('products')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('line_id', 'integer', (col) => col.notNull().references('product_lines.id'))
    .addColumn('frequency', 'text', (col) =>
      col.notNull().check(sql`frequency in ('ONE_TIME', 'MONTHLY', 'QUARTERLY')`),
    )
    .addColumn('price_cents', 'integer', (col) => col.notNull())
    .addColumn('dose', 'text', (col) => col.notNull())
    .addColumn('quantity_supported', 'integer', (col) => col.notNull())
    .addColumn('active', 'integer', (col) => col.notNull().defaultTo(1))
    .addUniqueConstraint('products_line_frequency_unique', ['line_id', 'frequency'])
    .execute();
}
