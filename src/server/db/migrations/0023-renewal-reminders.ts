import type { MigrationDb } from './helpers.ts';
import { autoId, idColumnType } from './helpers.ts';

/**
 * Renewal reminders (issue 13): one row per subscription and billing period (the billing date the
 * reminder announced), written in the transaction that queues the email, so however many runs or
 * instances race, each renewal is announced once. A moved date is a new period, and gets its own.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('renewal_reminders')
    .addColumn('id', idColumnType(db), autoId(db))
    .addColumn('subscription_id', 'integer', (col) =>
      col.notNull().references('subscriptions.id').onDelete('cascade'),
    )
    .addColumn('billing_period', 'text', (col) => col.notNull())
    .addColumn('sent_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('renewal_reminders_one_per_period', ['subscription_id', 'billing_period'])
    .execute();
}
