import { autoId, idColumnType, type MigrationDb } from './helpers.ts';

export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('prescriptions')
    .addColumn('id', idColumnType(db), autoId(db))
    .addColumn('visit_id', 'integer', (col) => col.notNull().unique().references('visits.id'))
    .addColumn('customer_id', 'integer', (col) => col.notNull().references('customers.id'))
    .addColumn('provider_id', 'integer', (col) => col.notNull().references('staff_users.id'))
    .addColumn('drug', 'text', (col) => col.notNull())
    .addColumn('dosage', 'text', (col) => col.notNull())
    .addColumn('quantity', 'integer', (col) => col.notNull())
    .addColumn('refills', 'integer', (col) => col.notNull())
    .addColumn('valid_until', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
}
