import type { MigrationDb } from './helpers.ts';

/**
 * Issue 29, renewals (decision 023):
 *
 * - `visits.kind`: `intake` (a first visit: eligibility, the whole questionnaire, a treatment, a
 *   photo ID and a hold on the card) or `renewal` (the short questionnaire of a patient whose
 *   prescription is running out; no hold, the refill plan pays).
 * - `visits.renews_prescription_id`: the prescription a renewal asks to continue. Its approval
 *   moves that prescription's refill plan on to the new one.
 * - `prescriptions.renewal_reminded_at`: when the patient was e-mailed that the prescription is due
 *   for renewal; set once, in the transaction that queues the e-mail, so it is sent once.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('visits')
    .addColumn('kind', 'text', (col) => col.notNull().defaultTo('intake'))
    .execute();
  await db.schema
    .alterTable('visits')
    .addColumn('renews_prescription_id', 'integer', (col) => col.references('prescriptions.id'))
    .execute();
  await db.schema
    .createIndex('visits_renews_prescription_idx')
    .on('visits')
    .column('renews_prescription_id')
    .execute();
  await db.schema.alterTable('prescriptions').addColumn('renewal_reminded_at', 'text').execute();
  await db.schema
    .createIndex('prescriptions_customer_idx')
    .on('prescriptions')
    .columns(['customer_id', 'id'])
    .execute();
}
