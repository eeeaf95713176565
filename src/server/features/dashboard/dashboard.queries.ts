// The operator's dashboard: counts and sums by day, aggregated in SQL that runs on SQLite and
// PostgreSQL alike (instants are ISO-8601 UTC text, so a day is its first ten characters).
import { sql, type Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';

type Db = Kysely<Database>;

/** An instant's UTC day (YYYY-MM-DD): `substr` is the same function on both databases. */
const dayOf = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 10)`;

/** The window: instants from `from` (inclusive) to `until` (exclusive), ISO text. */
export interface Window {
  from: string;
  until: string;
}

/** A store order counts once its payment was taken, refunded since or not. */
const TAKEN = ['paid', 'partially_refunded', 'refunded'];

export async function storeOrdersByDay(db: Db, window: Window) {
  const rows = await db
    .selectFrom('orders')
    .select((eb) => [
      dayOf('created_at').as('day'),
      eb.fn.countAll<number | string>().as('orders'),
      eb.fn.sum<number | string>('total_cents').as('revenue_cents'),
      eb.fn.sum<number | string>('refund_cents').as('refunded_cents'),
    ])
    .where('kind', '=', 'store')
    .where('payment_status', 'in', TAKEN)
    .where('created_at', '>=', window.from)
    .where('created_at', '<', window.until)
    .groupBy(dayOf('created_at'))
    .execute();
  return rows.map((r) => ({
    day: r.day,
    orders: Number(r.orders),
    revenueCents: Number(r.revenue_cents),
    refundedCents: Number(r.refunded_cents),
  }));
}

/** Subscriptions started, or cancelled, per day: `column` is `created_at` or `cancelled_at`. */
export async function subscriptionsByDay(
  db: Db,
  column: 'created_at' | 'cancelled_at',
  window: Window,
) {
  const rows = await db
    .selectFrom('subscriptions')
    .select((eb) => [dayOf(column).as('day'), eb.fn.countAll<number | string>().as('n')])
    .where(column, '>=', window.from)
    .where(column, '<', window.until)
    .groupBy(dayOf(column))
    .execute();
  return rows.map((r) => ({ day: r.day, count: Number(r.n) }));
}

/**
 * Churn over the window: the supplement subscriptions (no prescription: a refill ends by running
 * out, not by leaving) open when the window began, and how many of them have been cancelled since.
 */
export async function supplementChurn(db: Db, window: Window) {
  const row = await db
    .selectFrom('subscriptions')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('open'),
      eb.fn
        .sum<number | string | null>(
          eb.case().when('cancelled_at', 'is not', null).then(1).else(0).end(),
        )
        .as('cancelled'),
    ])
    .where('prescription_id', 'is', null)
    .where('created_at', '<', window.from)
    .where((eb) => eb.or([eb('cancelled_at', 'is', null), eb('cancelled_at', '>=', window.from)]))
    .executeTakeFirstOrThrow();
  return { open: Number(row.open), cancelled: Number(row.cancelled ?? 0) };
}

/** How many subscriptions are in each status now. */
export async function subscriptionsByStatus(db: Db) {
  const rows = await db
    .selectFrom('subscriptions')
    .select((eb) => ['status', eb.fn.countAll<number | string>().as('n')])
    .groupBy('status')
    .execute();
  return new Map(rows.map((r) => [r.status, Number(r.n)]));
}

/**
 * Renewals whose first charge failed, by the day the renewal was made: billing makes the renewal
 * order and charges it in the same run, and a first failure is what gives it its payment attempts
 * (its retries then keep counting on it, paid or not).
 */
export async function failedRenewalsByDay(db: Db, window: Window) {
  const rows = await db
    .selectFrom('orders')
    .select((eb) => [dayOf('created_at').as('day'), eb.fn.countAll<number | string>().as('n')])
    .where('kind', '=', 'renewal')
    .where('payment_attempts', '>=', 1)
    .where('created_at', '>=', window.from)
    .where('created_at', '<', window.until)
    .groupBy(dayOf('created_at'))
    .execute();
  return rows.map((r) => ({ day: r.day, count: Number(r.n) }));
}

/**
 * Renewals paid after a failed first charge, by the day the paying charge was recorded: the
 * ledger's succeeded charge that is the order's own (a retry's or a card update's).
 */
export async function recoveredRenewalsByDay(db: Db, window: Window) {
  const rows = await db
    .selectFrom('orders as o')
    .innerJoin('payment_ledger as pl', (join) =>
      join.onRef('pl.order_id', '=', 'o.id').onRef('pl.gateway_ref', '=', 'o.charge_id'),
    )
    .select((eb) => [
      dayOf('pl.updated_at').as('day'),
      eb.fn.countAll<number | string>().as('n'),
      eb.fn.sum<number | string>('o.total_cents').as('cents'),
    ])
    .where('o.kind', '=', 'renewal')
    .where('o.payment_attempts', '>=', 1)
    .where('pl.operation', '=', 'charge')
    .where('pl.status', '=', 'succeeded')
    .where('pl.updated_at', '>=', window.from)
    .where('pl.updated_at', '<', window.until)
    .groupBy(dayOf('pl.updated_at'))
    .execute();
  return rows.map((r) => ({ day: r.day, count: Number(r.n), cents: Number(r.cents) }));
}

/** Renewals unpaid now (retried, or waiting for a card update) and what they owe. */
export async function unpaidRenewals(db: Db) {
  const row = await db
    .selectFrom('orders')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('n'),
      eb.fn.sum<number | string | null>('total_cents').as('cents'),
    ])
    .where('kind', '=', 'renewal')
    .where('payment_status', '=', 'unpaid')
    .executeTakeFirstOrThrow();
  return { count: Number(row.n), cents: Number(row.cents ?? 0) };
}

/** Visits waiting for a provider's decision: how many, how many submitted before `lateBefore`. */
export async function waitingVisitCounts(db: Db, lateBefore: string) {
  const row = await db
    .selectFrom('visits')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('waiting'),
      eb.fn
        .sum<number | string | null>(
          eb.case().when('submitted_at', '<', lateBefore).then(1).else(0).end(),
        )
        .as('late'),
    ])
    .where('status', '=', 'PENDING_REVIEW')
    .executeTakeFirstOrThrow();
  return { waiting: Number(row.waiting), late: Number(row.late ?? 0) };
}

/** When the oldest waiting visits were submitted, oldest first. Nothing about the patient. */
export async function oldestWaitingVisits(db: Db, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('visits')
    .select(['submitted_at', 'id'])
    .where('status', '=', 'PENDING_REVIEW')
    .where('submitted_at', 'is not', null)
    .orderBy('submitted_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.submitted_at ?? '');
}
