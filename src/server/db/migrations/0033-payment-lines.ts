import { createVersionTrigger, type MigrationDb } from './helpers.ts';

/**
 * Issue 26: an order shows every charge, hold, release and refund the payment ledger settled for
 * it, so the kept orders answer (migration 0028) now reads the ledger too: a call written or
 * settled raises the version of the order's customer. Only a change of status counts; the
 * reconciler's claims and attempts change nothing the customer sees.
 */
const customers = (row: 'NEW' | 'OLD') =>
  `select customer_id as id from orders where id = ${row}.order_id`;

export async function up(db: MigrationDb): Promise<void> {
  await createVersionTrigger(
    db,
    'customer_versions_payment_ledger',
    'payment_ledger',
    customers,
    'status, order_id',
  );
}
