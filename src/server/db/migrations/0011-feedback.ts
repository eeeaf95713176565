import { autoId, idColumnType, type MigrationDb } from './helpers.ts';

export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('feedback')
    .addColumn('id', idColumnType(db), autoId(db))
    .addColumn('customer_id', 'integer', (col) => col.notNull().references('customers.id'))
    .addColumn('visit_id', 'integer', (col) => col.references('visits.id'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('rating', 'integer')
    .addColumn('would_recommend', 'integer')
    .addColumn('comments', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
}
