import { autoId, idColumnType, type MigrationDb } from './helpers.ts';

/**
 * The payment ledger (decision 012): every call to the gateway is written down before it is made,
 * with its idempotency key, and its outcome after, so a reconciler can finish or undo whatever a
 * crash interrupted by asking the gateway what it did.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('payment_ledger')
    .addColumn('id', idColumnType(db), autoId(db))
    // charge, authorize, capture, release, refund
    .addColumn('operation', 'text', (col) => col.notNull())
    // Why the call was made (checkout, renewal, retry, card_update, visit, approval, decline,
    // refund, cancel, auto_refund): the reconciler finishes each kind its own way.
    .addColumn('purpose', 'text', (col) => col.notNull())
    // The key the gateway was (or will be) called with: one row per gateway call.
    .addColumn('idempotency_key', 'text', (col) => col.notNull().unique())
    .addColumn('order_id', 'integer')
    .addColumn('visit_id', 'integer')
    .addColumn('subscription_id', 'integer')
    .addColumn('billing_period', 'text')
    .addColumn('amount_cents', 'integer', (col) => col.notNull())
    // started, succeeded, failed
    .addColumn('status', 'text', (col) => col.notNull())
    // What the call acts on (the authorisation to capture or release, the charge to refund).
    .addColumn('source_ref', 'text')
    // What the gateway answered with (charge, authorisation or refund id).
    .addColumn('gateway_ref', 'text')
    .addColumn('failure', 'text')
    // Who asked, for the audit entry written with the outcome (staff refunds and decisions).
    .addColumn('staff_id', 'integer')
    .addColumn('staff_ip', 'text')
    // What finishing the call needs besides money (a provider's prescription or decline reason).
    .addColumn('details', 'text')
    // The reconciler's claim: one instance works on an interrupted call at a time.
    .addColumn('claimed_until', 'text')
    .addColumn('reconcile_attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('payment_ledger_open_idx')
    .on('payment_ledger')
    .columns(['status', 'updated_at'])
    .execute();
  await db.schema
    .createIndex('payment_ledger_order_idx')
    .on('payment_ledger')
    .columns(['order_id', 'operation'])
    .execute();

  // Refunds reserve their amount here before the gateway is called (one conditional update checks
  // captured minus refunded and reserved), and move it to refund_cents once the gateway answers.
  await db.schema
    .alterTable('orders')
    .addColumn('refund_reserved_cents', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();

  // The simulator's own running total per charge, so it refuses a refund past the charge in one
  // conditional update, as a real gateway serialises refunds of one charge.
  await db.schema
    .alterTable('simulator_charges')
    .addColumn('refunded_cents', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();

  // When a checkout attempt claimed the cart: a claim older than the reconciler's grace period
  // belongs to an attempt a crash interrupted.
  await db.schema.alterTable('carts').addColumn('checkout_claimed_at', 'text').execute();
  await db.schema
    .createIndex('carts_checkout_claim_idx')
    .on('carts')
    .columns(['checkout_claimed_at'])
    .execute();
}
