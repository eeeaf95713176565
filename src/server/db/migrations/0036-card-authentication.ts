import { sql } from 'kysely';
import type { MigrationDb } from './helpers.ts';

/**
 * Issue 28, cards the customer's bank asks about (3-D Secure):
 *
 * - `customers.gateway_customer_ref`: the card processor's customer of each account (Stripe's
 *   `cus_…`), kept from the first card saved for it, so every later card goes on the same
 *   customer, and a card whose bank asked for 3-D Secure is finished only for the customer it was
 *   begun for. Null for the simulator.
 * - `payment_ledger.awaiting_customer_until`: a payment the bank asked the customer to confirm on
 *   the page. Until then the customer's own request finishes it (sent again once they confirmed);
 *   after it, the reconciler cancels the payment and undoes its attempt.
 * - `orders.payment_confirmation_ref`: a renewal the bank refused off-session for want of
 *   authentication, and the payment (Stripe's PaymentIntent) the customer can still confirm for
 *   it ("Confirm your payment" on Home, and in its e-mail). Cleared by the next answer.
 * - `visits_awaiting_review_idx`: the visits whose card hold may need renewing before a provider
 *   decides (the reconciler looks at them every run), without reading every visit ever made.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('customers').addColumn('gateway_customer_ref', 'text').execute();
  await db.schema
    .alterTable('payment_ledger')
    .addColumn('awaiting_customer_until', 'text')
    .execute();
  await db.schema.alterTable('orders').addColumn('payment_confirmation_ref', 'text').execute();
  await db.schema
    .createIndex('visits_awaiting_review_idx')
    .on('visits')
    .column('order_id')
    .where(sql.ref('status'), '=', 'PENDING_REVIEW')
    .execute();
}
