import type { MigrationDb } from './helpers.ts';

/**
 * Issue 28: Stripe's webhooks. Each event Stripe sends is written down by its id before it is
 * handled, so a delivery Stripe repeats (it retries until it hears a 2xx, and may send an event
 * twice anyway) changes nothing the second time. Disputes and early fraud warnings are what
 * operations see of the card holder's side of a payment; a dashboard refund needs no table of its
 * own, since it is a ledger call and a refund on its order like any other.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('stripe_events')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('type', 'text', (col) => col.notNull())
    // When Stripe made the event (ISO time): what orders events of one object when they arrive
    // out of order.
    .addColumn('created', 'text', (col) => col.notNull())
    .addColumn('received_at', 'text', (col) => col.notNull())
    // Null while it is being handled: an event whose handling failed is handled again when Stripe
    // retries it.
    .addColumn('handled_at', 'text')
    .execute();

  await db.schema
    .createTable('payment_disputes')
    // Stripe's dispute id (dp_…).
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('order_id', 'integer', (col) => col.notNull().references('orders.id'))
    // The disputed payment as the ledger knows it (the PaymentIntent id).
    .addColumn('payment_ref', 'text', (col) => col.notNull())
    .addColumn('amount_cents', 'integer', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    // Stripe's status: warning_needs_response … needs_response, under_review, won, lost.
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('evidence_due_by', 'text')
    .addColumn('opened_at', 'text', (col) => col.notNull())
    .addColumn('closed_at', 'text')
    // The creation time of the newest event applied: an older one arriving later changes nothing.
    .addColumn('event_created', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('payment_disputes_order_idx')
    .on('payment_disputes')
    .column('order_id')
    .execute();

  await db.schema
    .createTable('payment_fraud_warnings')
    // Radar's warning id (issfr_…).
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('order_id', 'integer', (col) => col.notNull().references('orders.id'))
    .addColumn('payment_ref', 'text', (col) => col.notNull())
    .addColumn('fraud_type', 'text', (col) => col.notNull())
    .addColumn('actionable', 'integer', (col) => col.notNull())
    .addColumn('warned_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('payment_fraud_warnings_order_idx')
    .on('payment_fraud_warnings')
    .column('order_id')
    .execute();

  // Stripe's events name a payment by its id, which the ledger holds as the charge's gateway ref.
  await db.schema
    .createIndex('payment_ledger_gateway_ref_idx')
    .on('payment_ledger')
    .column('gateway_ref')
    .execute();

  // Who the audit log names for what Stripe did (a dashboard refund, a dispute): an operations
  // account that cannot sign in (inactive, no password hash any password matches, no TOTP secret),
  // since every audit entry names a staff member.
  await db
    .insertInto('staff_users')
    .values({
      email: 'stripe@processor.invalid',
      name: 'Stripe',
      role: 'operations',
      password_hash: '!',
      totp_secret: '',
      licensed_states: '',
      active: 0,
      created_at: new Date(0).toISOString(),
    })
    .execute();
}
