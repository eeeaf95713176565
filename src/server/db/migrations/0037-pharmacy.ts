import { autoId, createVersionTrigger, idColumnType, type MigrationDb } from './helpers.ts';

/**
 * Issue 29: a pharmacy that fills the prescription (decision 022).
 *
 * - `pharmacy_messages`: what we send the pharmacy (NewRx, a refill, CancelRx), written in the
 *   transaction that decides it and sent afterwards by a job, outbox-style. Its key is the
 *   idempotency key the pharmacy sees, so a message sent again after a crash is one message there.
 * - `pharmacy_events`: the pharmacy's callbacks, written down by their id before they are applied,
 *   so a repeated delivery changes nothing.
 * - `order_pharmacy_steps`: where an order's medicine is (sent, received, filled, shipped,
 *   delivered or rejected), one row per step whenever it arrives: the order's timeline. The kept
 *   orders answer (migration 0028) reads it, so a step raises its customer's version.
 * - `simulator_pharmacy`: the built-in pharmacy's own book (like `simulator_charges`).
 * - Prescribers' credentials for the NewRx: an NPI on the staff row and a licence per state.
 */
const customers = (row: 'NEW' | 'OLD') =>
  `select customer_id as id from orders where id = ${row}.order_id`;

export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('pharmacy_messages')
    .addColumn('id', idColumnType(db), autoId(db))
    .addColumn('message_key', 'text', (col) => col.notNull().unique())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('order_id', 'integer', (col) => col.references('orders.id'))
    .addColumn('prescription_id', 'integer', (col) => col.notNull().references('prescriptions.id'))
    // The patient and the visit the prescription came from: whom a rejection is told to, and where.
    .addColumn('customer_id', 'integer', (col) => col.notNull().references('customers.id'))
    .addColumn('visit_id', 'integer', (col) => col.notNull().references('visits.id'))
    // The message as the pharmacy receives it (JSON). Health data: never logged.
    .addColumn('payload', 'text', (col) => col.notNull())
    // pending → sent, or failed when the pharmacy refused it as malformed (never sent again).
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (col) => col.notNull())
    // A sender's claim: until then no other instance sends it; a crash lets the claim lapse.
    .addColumn('claimed_until', 'text')
    .addColumn('pharmacy_ref', 'text')
    .addColumn('last_error', 'text')
    .addColumn('sent_at', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('pharmacy_messages_due_idx')
    .on('pharmacy_messages')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('pharmacy_messages_order_idx')
    .on('pharmacy_messages')
    .column('order_id')
    .execute();

  await db.schema
    .createTable('pharmacy_events')
    .addColumn('event_id', 'text', (col) => col.primaryKey())
    .addColumn('message_key', 'text', (col) => col.notNull())
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('occurred_at', 'text', (col) => col.notNull())
    .addColumn('received_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('order_pharmacy_steps')
    .addColumn('order_id', 'integer', (col) => col.notNull().references('orders.id'))
    .addColumn('step', 'text', (col) => col.notNull())
    // When the pharmacy says it happened (the sent step: when we sent it).
    .addColumn('at', 'text', (col) => col.notNull())
    // The carrier's tracking number (shipped), the pharmacy's reason (rejected).
    .addColumn('detail', 'text')
    .addPrimaryKeyConstraint('order_pharmacy_steps_pk', ['order_id', 'step'])
    .execute();

  await db.schema
    .createTable('simulator_pharmacy')
    .addColumn('message_key', 'text', (col) => col.primaryKey())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('accepted_at', 'text', (col) => col.notNull())
    // How many of its callbacks (received, filled, shipped, delivered) it has made, and when the
    // next one is due (null once it has made them all).
    .addColumn('steps_sent', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_step_at', 'text')
    .addColumn('cancelled_at', 'text')
    .execute();
  await db.schema
    .createIndex('simulator_pharmacy_next_step_idx')
    .on('simulator_pharmacy')
    .column('next_step_at')
    .execute();

  await db.schema.alterTable('staff_users').addColumn('npi', 'text').execute();
  await db.schema
    .createTable('staff_licences')
    .addColumn('staff_id', 'integer', (col) => col.notNull().references('staff_users.id'))
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('number', 'text', (col) => col.notNull())
    // YYYY-MM-DD: the last day the licence is valid.
    .addColumn('expires_on', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('staff_licences_pk', ['staff_id', 'state'])
    .execute();

  await createVersionTrigger(
    db,
    'customer_versions_pharmacy_steps',
    'order_pharmacy_steps',
    customers,
  );
}
