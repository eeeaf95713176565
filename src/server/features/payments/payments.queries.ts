import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';

type Db = Kysely<Database>;

export type LedgerOperation = 'charge' | 'authorize' | 'capture' | 'release' | 'refund';
export type LedgerStatus = 'started' | 'succeeded' | 'failed';

export interface NewLedgerEntry {
  operation: LedgerOperation;
  purpose: string;
  idempotencyKey: string;
  orderId: number | null;
  visitId: number | null;
  subscriptionId: number | null;
  billingPeriod: string | null;
  amountCents: number;
  sourceRef: string | null;
  staffId: number | null;
  staffIp: string | null;
  details: string | null;
}

export interface LedgerRow extends NewLedgerEntry {
  id: number;
  status: LedgerStatus;
  gatewayRef: string | null;
  failure: string | null;
  /** Set while the customer confirms the payment with their bank (3-D Secure). */
  awaitingCustomerUntil: string | null;
  reconcileAttempts: number;
  createdAt: string;
  updatedAt: string;
}

const columns = [
  'id',
  'operation',
  'purpose',
  'idempotency_key',
  'order_id',
  'visit_id',
  'subscription_id',
  'billing_period',
  'amount_cents',
  'status',
  'source_ref',
  'gateway_ref',
  'failure',
  'staff_id',
  'staff_ip',
  'details',
  'awaiting_customer_until',
  'reconcile_attempts',
  'created_at',
  'updated_at',
] as const;

type Table = Database['payment_ledger'];
type Row = Omit<Pick<Table, (typeof columns)[number]>, 'id' | 'reconcile_attempts'> & {
  id: number;
  reconcile_attempts: number;
};

function toLedger(r: Row): LedgerRow {
  return {
    id: r.id,
    operation: r.operation,
    purpose: r.purpose,
    idempotencyKey: r.idempotency_key,
    orderId: r.order_id,
    visitId: r.visit_id,
    subscriptionId: r.subscription_id,
    billingPeriod: r.billing_period,
    amountCents: r.amount_cents,
    status: r.status,
    sourceRef: r.source_ref,
    gatewayRef: r.gateway_ref,
    failure: r.failure,
    staffId: r.staff_id,
    staffIp: r.staff_ip,
    details: r.details,
    awaitingCustomerUntil: r.awaiting_customer_until,
    reconcileAttempts: r.reconcile_attempts,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/**
 * Writes a call down before it is made. A call with this key that exists already is the same call
 * being made again (a retry, a resumed attempt): its row is kept, and with `restart` one that failed
 * is started again, since asking the gateway again with the same key is what is about to happen.
 */
export async function insertOrRestart(
  db: Db,
  entry: NewLedgerEntry,
  now: string,
  restart: boolean,
): Promise<LedgerRow> {
  await db
    .insertInto('payment_ledger')
    .values({
      operation: entry.operation,
      purpose: entry.purpose,
      idempotency_key: entry.idempotencyKey,
      order_id: entry.orderId,
      visit_id: entry.visitId,
      subscription_id: entry.subscriptionId,
      billing_period: entry.billingPeriod,
      amount_cents: entry.amountCents,
      status: 'started',
      source_ref: entry.sourceRef,
      gateway_ref: null,
      failure: null,
      staff_id: entry.staffId,
      staff_ip: entry.staffIp,
      details: entry.details,
      claimed_until: null,
      awaiting_customer_until: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) =>
      restart
        ? oc
            .column('idempotency_key')
            .doUpdateSet({
              status: 'started',
              failure: null,
              // A later retry carries what the caller knows now (a provider's new decline reason).
              details: entry.details,
              // Asked again (the customer confirmed with their bank): the reconciler's to finish
              // after the usual grace if this attempt is interrupted too.
              claimed_until: null,
              awaiting_customer_until: null,
              updated_at: now,
            })
            .where('payment_ledger.status', '!=', 'succeeded')
        : oc.column('idempotency_key').doNothing(),
    )
    .execute();
  const row = await selectByKey(db, entry.idempotencyKey);
  if (!row) throw new Error('the ledger row just written is missing');
  return row;
}

/** The succeeded authorisation that answered with this hold's id. */
export async function selectHold(db: Db, authorizationId: string): Promise<LedgerRow | undefined> {
  const row = await db
    .selectFrom('payment_ledger')
    .select(columns)
    .where('gateway_ref', '=', authorizationId)
    .where('operation', '=', 'authorize')
    .where('status', '=', 'succeeded')
    .executeTakeFirst();
  return row && toLedger(row);
}

export async function selectByKey(db: Db, idempotencyKey: string): Promise<LedgerRow | undefined> {
  const row = await db
    .selectFrom('payment_ledger')
    .select(columns)
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
  return row && toLedger(row);
}

/**
 * Records the gateway's answer, once: a started call becomes succeeded or failed. A success may
 * also replace a failure (a charge the reconciler found missing that arrived late after all): what
 * the gateway did is the truth. Refunds settle from started only, since settling one moves its
 * reservation, exactly once.
 */
export async function settle(
  db: Db,
  idempotencyKey: string,
  outcome: { ok: true; ref: string } | { ok: false; failure: string },
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('payment_ledger')
    .set(
      outcome.ok
        ? { status: 'succeeded', gateway_ref: outcome.ref, failure: null, updated_at: now }
        : { status: 'failed', failure: outcome.failure, updated_at: now },
    )
    .where('idempotency_key', '=', idempotencyKey)
    .where((eb) =>
      outcome.ok
        ? eb.or([
            eb('status', '=', 'started'),
            eb.and([eb('status', '=', 'failed'), eb('operation', '!=', 'refund')]),
          ])
        : eb('status', '=', 'started'),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Calls left started since before `staleBefore` and claimed by nobody now, oldest first. */
export async function selectStale(
  db: Db,
  staleBefore: string,
  now: string,
  limit: number,
): Promise<LedgerRow[]> {
  const rows = await db
    .selectFrom('payment_ledger')
    .select(columns)
    .where('status', '=', 'started')
    .where('updated_at', '<', staleBefore)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .orderBy('updated_at')
    .limit(limit)
    .execute();
  return rows.map(toLedger);
}

/**
 * A started payment the customer is confirming with their bank: the reconciler leaves it alone until
 * `until` (its lease), and the customer's request sent again meanwhile finishes it.
 */
export async function markAwaitingCustomer(
  db: Db,
  idempotencyKey: string,
  until: string,
): Promise<void> {
  await db
    .updateTable('payment_ledger')
    .set({ awaiting_customer_until: until, claimed_until: until })
    .where('idempotency_key', '=', idempotencyKey)
    .where('status', '=', 'started')
    .execute();
}

/** Takes a stale call for this reconciler until `until`; false when another took it first. */
export async function claim(db: Db, id: number, now: string, until: string): Promise<boolean> {
  const result = await db
    .updateTable('payment_ledger')
    .set((eb) => ({
      claimed_until: until,
      reconcile_attempts: eb('reconcile_attempts', '+', 1),
    }))
    .where('id', '=', id)
    .where('status', '=', 'started')
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Every call made for an order, oldest first (tests and the reconciler's checks). */
export async function selectForOrder(db: Db, orderId: number): Promise<LedgerRow[]> {
  const rows = await db
    .selectFrom('payment_ledger')
    .select(columns)
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
  return rows.map(toLedger);
}

export interface SettledCallRow {
  orderId: number;
  operation: LedgerOperation;
  status: 'succeeded' | 'failed';
  amountCents: number;
  settledAt: string;
}

/**
 * The settled calls of these orders, oldest first (issue 26: each shows as a line on its order).
 * Calls still under way are not money that moved; a failed call other than a charge is the
 * reconciler's to finish, not the customer's news.
 */
export async function selectSettledCalls(db: Db, orderIds: number[]): Promise<SettledCallRow[]> {
  if (orderIds.length === 0) return [];
  const rows = await db
    .selectFrom('payment_ledger')
    .select(['order_id', 'operation', 'status', 'amount_cents', 'updated_at'])
    .where('order_id', 'in', orderIds)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'succeeded'),
        eb.and([eb('status', '=', 'failed'), eb('operation', '=', 'charge')]),
      ]),
    )
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    orderId: r.order_id ?? 0,
    operation: r.operation,
    status: r.status === 'failed' ? 'failed' : 'succeeded',
    amountCents: r.amount_cents,
    settledAt: r.updated_at,
  }));
}
