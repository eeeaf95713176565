import { sql } from 'kysely';
import { autoId, idColumnType, type MigrationDb } from './helpers.ts';

export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('visits')
    .addColumn('id', idColumnType(db), autoId(db))
    .addColumn('customer_id', 'integer', (col) => col.notNull().references('customers.id'))
    .addColumn('category', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('step', 'text', (col) => col.notNull())
    // The questionnaire version answered: a later version never changes what was asked here.
    .addColumn('questionnaire_id', 'text', (col) => col.notNull())
    .addColumn('questionnaire_version', 'text', (col) => col.notNull())
    .addColumn('current_link_id', 'text')
    .addColumn('state', 'text')
    .addColumn('dob', 'text')
    .addColumn('closed_reason', 'text')
    .addColumn('preferences', 'text', (col) => col.notNull().defaultTo('{}'))
    .addColumn('consent_at', 'text')
    .addColumn('provider_id', 'integer')
    .addColumn('order_id', 'integer')
    .addColumn('submitted_at', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  // One visit in progress per program per patient: a second start resumes the first.
  await db.schema
    .createIndex('visits_one_open_per_program')
    .on('visits')
    .columns(['customer_id', 'category'])
    .unique()
    .where(sql.ref('status'), '=', 'IN_PROGRESS')
    .execute();

  // Health information: every answer as it is given, as JSON. Never logged (DESIGN §7).
  await db.schema
    .createTable('visit_answers')
    .addColumn('visit_id', 'integer', (col) =>
      col.notNull().references('visits.id').onDelete('cascade'),
    )
    .addColumn('link_id', 'text', (col) => col.notNull())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('answered_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('visit_answers_pk', ['visit_id', 'link_id'])
    .execute();
}
