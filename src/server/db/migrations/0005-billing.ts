import { sql } from 'kysely';
import type { MigrationDb } from './helpers.ts';

export async function up(db: MigrationDb): Promise<void> {
  // The day of the month a subscription bills on, so month ends never drift (Jan 31 → Feb 28 → Mar 31).
  await db.schema
    .alterTable('subscriptions')
    .addColumn('billing_anchor_day', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
  await sql`update subscriptions set billing_anchor_day = cast(substr(next_billing_date, 9, 2) as integer)`.execute(
    db,
  );

  // A renewal order names its subscription and period; its idempotency key makes it one per period.
  await db.schema.alterTable('orders').addColumn('subscription_id', 'integer').execute();
  await db.schema.alterTable('orders').addColumn('billing_period', 'text').execute();
  await db.schema
    .alterTable('orders')
    .addColumn('payment_attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('orders').addColumn('next_retry_at', 'text').execute();
  await db.schema.alterTable('orders').addColumn('payment_failure', 'text').execute();
  await db.schema
    .createIndex('orders_retry_idx')
    .on('orders')
    .columns(['payment_status', 'next_retry_at'])
    .execute();
  await db.schema
    .createIndex('subscriptions_due_idx')
    .on('subscriptions')
    .columns(['status', 'next_billing_date'])
    .execute();
}
