import { autoId, idColumnType, type MigrationDb } from './helpers.ts';

export async function up(db: MigrationDb): Promise<void> {
  // Photo IDs live in DATA_DIR/uploads (outside the web root) under a random name; this is their index.
  await db.schema
    .createTable('uploads')
    .addColumn('id', idColumnType(db), autoId(db))
    .addColumn('customer_id', 'integer', (col) => col.notNull().references('customers.id'))
    .addColumn('visit_id', 'integer', (col) => col.references('visits.id'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('mime_type', 'text', (col) => col.notNull())
    .addColumn('size_bytes', 'integer', (col) => col.notNull())
    .addColumn('stored_name', 'text', (col) => col.notNull().unique())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.alterTable('visits').addColumn('photo_upload_id', 'integer').execute();
}
