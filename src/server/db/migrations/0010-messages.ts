import { autoId, idColumnType, type MigrationDb } from './helpers.ts';

export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('message_threads')
    .addColumn('id', idColumnType(db), autoId(db))
    .addColumn('customer_id', 'integer', (col) => col.notNull().references('customers.id'))
    .addColumn('visit_id', 'integer', (col) => col.unique().references('visits.id'))
    .addColumn('subject', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('message_threads_customer_idx')
    .on('message_threads')
    .columns(['customer_id', 'updated_at'])
    .execute();

  // Message bodies are health information: never logged, never in email or analytics (DESIGN §7).
  await db.schema
    .createTable('messages')
    .addColumn('id', idColumnType(db), autoId(db))
    .addColumn('thread_id', 'integer', (col) =>
      col.notNull().references('message_threads.id').onDelete('cascade'),
    )
    .addColumn('sender', 'text', (col) => col.notNull())
    .addColumn('staff_id', 'integer', (col) => col.references('staff_users.id'))
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('read_at', 'text')
    .execute();
  await db.schema
    .createIndex('messages_thread_idx')
    .on('messages')
    .columns(['thread_id', 'created_at'])
    .execute();
}
