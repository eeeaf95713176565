// Unpaid orders and their payment retries: which are due, the failures counted once, the late payment.
import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';

type Db = Kysely<Database>;

export interface UnpaidOrder {
  id: number;
  customerId: number;
  orderNumber: string;
  totalCents: number;
  subscriptionId: number | null;
  billingPeriod: string | null;
  paymentAttempts: number;
  createdAt: string;
  /** A payment refused off-session for want of authentication, which the customer can confirm. */
  confirmationRef: string | null;
}

const unpaidColumns = [
  'id',
  'customer_id',
  'order_number',
  'total_cents',
  'subscription_id',
  'billing_period',
  'payment_attempts',
  'created_at',
  'payment_confirmation_ref',
] as const;

function toUnpaid(r: {
  id: number;
  customer_id: number;
  order_number: string;
  total_cents: number;
  subscription_id: number | null;
  billing_period: string | null;
  payment_attempts: number;
  created_at: string;
  payment_confirmation_ref: string | null;
}): UnpaidOrder {
  return {
    id: r.id,
    customerId: r.customer_id,
    orderNumber: r.order_number,
    totalCents: r.total_cents,
    subscriptionId: r.subscription_id,
    billingPeriod: r.billing_period,
    paymentAttempts: r.payment_attempts,
    createdAt: r.created_at,
    confirmationRef: r.payment_confirmation_ref,
  };
}

/**
 * Unpaid orders whose next payment retry is due, earliest first; with `after`, only those past that
 * place in the same order (billing walks them a small batch at a time).
 */
export async function selectDueRetries(
  db: Db,
  now: string,
  limit: number,
  after?: { at: string; id: number },
): Promise<(UnpaidOrder & { nextRetryAt: string })[]> {
  let query = db
    .selectFrom('orders')
    .select([...unpaidColumns, 'next_retry_at'])
    .where('payment_status', '=', 'unpaid')
    .where('next_retry_at', 'is not', null)
    .where('next_retry_at', '<=', now);
  if (after)
    query = query.where((eb) =>
      eb.or([
        eb('next_retry_at', '>', after.at),
        eb.and([eb('next_retry_at', '=', after.at), eb('id', '>', after.id)]),
      ]),
    );
  const rows = await query.orderBy('next_retry_at').orderBy('id').limit(limit).execute();
  // Selected where it is not null above.
  return rows.map((row) => ({ ...toUnpaid(row), nextRetryAt: row.next_retry_at ?? now }));
}

export async function selectUnpaidOrdersOf(db: Db, customerId: number): Promise<UnpaidOrder[]> {
  const rows = await db
    .selectFrom('orders')
    .select(unpaidColumns)
    .where('customer_id', '=', customerId)
    .where('payment_status', '=', 'unpaid')
    .orderBy('created_at')
    .execute();
  return rows.map(toUnpaid);
}

/** Why an order's last payment attempt failed, as the gateway said it. */
export async function selectPaymentFailure(db: Db, orderId: number): Promise<string | null> {
  const row = await db
    .selectFrom('orders')
    .select('payment_failure')
    .where('id', '=', orderId)
    .executeTakeFirst();
  return row?.payment_failure ?? null;
}

export async function selectOrderAttemptById(
  db: Db,
  id: number,
): Promise<(UnpaidOrder & { paymentStatus: string; updatedAt: string }) | undefined> {
  const row = await db
    .selectFrom('orders')
    .select([...unpaidColumns, 'payment_status', 'updated_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row && { ...toUnpaid(row), paymentStatus: row.payment_status, updatedAt: row.updated_at };
}

/** Records a failed payment attempt once per attempt number (compare-and-set on the count). */
export async function recordPaymentFailure(
  db: Db,
  orderId: number,
  attemptsBefore: number,
  failure: {
    message: string;
    nextRetryAt: string | null;
    now: string;
    /** The payment the customer can confirm, when the bank asked for authentication. */
    confirmationRef?: string | null;
  },
): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set({
      status: 'PAYMENT_FAILED',
      payment_status: 'unpaid',
      payment_attempts: attemptsBefore + 1,
      next_retry_at: failure.nextRetryAt,
      payment_failure: failure.message,
      payment_confirmation_ref: failure.confirmationRef ?? null,
      updated_at: failure.now,
    })
    .where('id', '=', orderId)
    .where('payment_attempts', '=', attemptsBefore)
    .where('payment_status', 'in', ['pending', 'unpaid'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * A cancelled subscription's unpaid renewals are not owed: each becomes Cancelled, its retries
 * stop, and the card update no longer charges it. A charge already on its way finds the order no
 * longer unpaid and is refunded (`recordPayment` is conditional). Returns how many were voided.
 */
export async function voidUnpaidRenewals(
  db: Db,
  subscriptionId: number,
  now: string,
): Promise<number> {
  const result = await db
    .updateTable('orders')
    .set({ status: 'CANCELLED', payment_status: 'voided', next_retry_at: null, updated_at: now })
    .where('subscription_id', '=', subscriptionId)
    .where('payment_status', '=', 'unpaid')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Marks an order paid (from pending or unpaid), once. */
export async function recordPayment(
  db: Db,
  orderId: number,
  chargeId: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set({
      status: 'PROCESSING',
      payment_status: 'paid',
      charge_id: chargeId,
      next_retry_at: null,
      payment_failure: null,
      payment_confirmation_ref: null,
      updated_at: now,
    })
    .where('id', '=', orderId)
    .where('payment_status', 'in', ['pending', 'unpaid'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * The order of a subscription whose charge is on its way now: a renewal claimed and not yet
 * answered (pending), or an unpaid one whose retry or card-update charge the ledger shows started.
 * A change to the subscription waits for it (decision 012: every charge re-decides under the lock).
 */
export async function selectChargeInFlight(
  db: Db,
  subscriptionId: number,
): Promise<{ orderNumber: string; totalCents: number } | undefined> {
  const row = await db
    .selectFrom('orders')
    .select(['order_number', 'total_cents'])
    .where('subscription_id', '=', subscriptionId)
    .where((eb) =>
      eb.or([
        eb('payment_status', '=', 'pending'),
        eb.and([
          eb('payment_status', '=', 'unpaid'),
          eb.exists(
            eb
              .selectFrom('payment_ledger')
              .select('payment_ledger.id')
              .whereRef('payment_ledger.order_id', '=', 'orders.id')
              .where('payment_ledger.operation', '=', 'charge')
              .where('payment_ledger.status', '=', 'started'),
          ),
        ]),
      ]),
    )
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row && { orderNumber: row.order_number, totalCents: row.total_cents };
}
