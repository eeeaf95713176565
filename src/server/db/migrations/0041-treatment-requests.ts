import { sql } from 'kysely';
import {
  autoId,
  createVersionTrigger,
  idColumnType,
  isPostgres,
  type MigrationDb,
} from './helpers.ts';

/**
 * Issue 29, requests between visits (decision 024): a patient on a refill plan asks for an early
 * refill, a change of dose, or reports a side effect; a provider decides.
 *
 * - `treatment_requests`: the request (its kind, the reason chosen, the refill plan and the
 *   prescription it is about), its own clinical conversation (`thread_id`: the details the patient
 *   wrote are its first message, the provider's decision its answer), and the decision: who, when,
 *   what (`outcome`), the date an early refill moved to, the prescription a dose change wrote. One
 *   open request of a kind per plan (a partial unique index), so a double click asks once.
 * - `prescriptions.request_id`: a prescription written by a request's decision. It belongs to the
 *   visit that began the care (`visit_id`, its chart), so a visit may now hold more than one
 *   prescription: its own (no request, still one per visit) and those its requests wrote.
 *
 * PostgreSQL drops the unique constraint on `visit_id` for a partial unique index. SQLite cannot
 * drop an inline constraint: the table is rebuilt as SQLite's documentation says (a new table, the
 * rows copied, the old one dropped, the new one renamed, as migration 0012 did for subscriptions),
 * with foreign keys off while it is done and checked before the commit, and its index and the
 * kept-answer triggers of migration 0028 made again.
 */
export async function up(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) {
    // Kysely runs a PostgreSQL migration in a transaction of its own.
    await createRequests(db);
    await sql`alter table prescriptions drop constraint prescriptions_visit_id_key`.execute(db);
    await db.schema
      .alterTable('prescriptions')
      .addColumn('request_id', 'integer', (col) => col.references('treatment_requests.id'))
      .execute();
    await indexPrescriptionVisits(db);
    return;
  }
  // SQLite: all or nothing, in one transaction, with foreign keys off while the old table is
  // dropped (its rows are referenced) and checked before the commit; the rename must not re-check
  // the triggers of other tables, which name `prescriptions` while it is briefly missing. Neither
  // setting can change inside a transaction.
  await sql`pragma foreign_keys = off`.execute(db);
  await sql`pragma legacy_alter_table = on`.execute(db);
  try {
    await sql`begin immediate`.execute(db);
    try {
      await createRequests(db);
      await rebuildPrescriptionsOnSqlite(db);
      await indexPrescriptionVisits(db);
      const broken = await sql`pragma foreign_key_check`.execute(db);
      if (broken.rows.length > 0)
        throw new Error(`broken references after the rebuild: ${JSON.stringify(broken.rows)}`);
      await sql`commit`.execute(db);
    } catch (error) {
      await sql`rollback`.execute(db);
      throw error;
    }
  } finally {
    await sql`pragma legacy_alter_table = off`.execute(db);
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

async function createRequests(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('treatment_requests')
    .addColumn('id', idColumnType(db), autoId(db))
    .addColumn('customer_id', 'integer', (col) => col.notNull().references('customers.id'))
    .addColumn('subscription_id', 'integer', (col) => col.notNull().references('subscriptions.id'))
    .addColumn('prescription_id', 'integer', (col) => col.notNull().references('prescriptions.id'))
    .addColumn('thread_id', 'integer', (col) =>
      col.notNull().unique().references('message_threads.id'),
    )
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('OPEN'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('decided_at', 'text')
    .addColumn('decided_by', 'integer', (col) => col.references('staff_users.id'))
    .addColumn('outcome', 'text')
    .addColumn('refill_date', 'text')
    .addColumn('new_prescription_id', 'integer', (col) => col.references('prescriptions.id'))
    .execute();
  await db.schema
    .createIndex('treatment_requests_open_idx')
    .on('treatment_requests')
    .columns(['subscription_id', 'kind'])
    .unique()
    .where(sql.ref('status'), '=', 'OPEN')
    .execute();
  await db.schema
    .createIndex('treatment_requests_status_idx')
    .on('treatment_requests')
    .columns(['status', 'id'])
    .execute();
  await db.schema
    .createIndex('treatment_requests_customer_idx')
    .on('treatment_requests')
    .columns(['customer_id', 'id'])
    .execute();
  await createVersionTrigger(
    db,
    'customer_versions_treatment_requests',
    'treatment_requests',
    (row) => `select ${row}.customer_id as id`,
  );
}

/** A visit's prescriptions by visit, and still only one of its own (no request). */
async function indexPrescriptionVisits(db: MigrationDb): Promise<void> {
  await db.schema
    .createIndex('prescriptions_visit_idx')
    .on('prescriptions')
    .column('visit_id')
    .execute();
  await db.schema
    .createIndex('prescriptions_visit_own_idx')
    .on('prescriptions')
    .column('visit_id')
    .unique()
    .where(sql.ref('request_id'), 'is', null)
    .execute();
}

const columns = [
  'id',
  'visit_id',
  'customer_id',
  'provider_id',
  'drug',
  'dosage',
  'quantity',
  'refills',
  'valid_until',
  'created_at',
  'directions',
  'renewal_reminded_at',
].join(', ');

async function rebuildPrescriptionsOnSqlite(db: MigrationDb): Promise<void> {
  await sql
    .raw(
      `create table prescriptions_next (
        id integer primary key autoincrement,
        visit_id integer not null references visits(id),
        customer_id integer not null references customers(id),
        provider_id integer not null references staff_users(id),
        drug text not null,
        dosage text not null,
        quantity integer not null,
        refills integer not null,
        valid_until text not null,
        created_at text not null,
        directions text,
        renewal_reminded_at text,
        request_id integer references treatment_requests(id)
      )`,
    )
    .execute(db);
  await sql
    .raw(`insert into prescriptions_next (${columns}) select ${columns} from prescriptions`)
    .execute(db);
  await sql`drop table prescriptions`.execute(db);
  await sql`alter table prescriptions_next rename to prescriptions`.execute(db);
  await db.schema
    .createIndex('prescriptions_customer_idx')
    .on('prescriptions')
    .columns(['customer_id', 'id'])
    .execute();
  await createVersionTrigger(
    db,
    'customer_versions_prescriptions',
    'prescriptions',
    (row) => `select ${row}.customer_id as id`,
  );
}
