import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';

type Db = Kysely<Database>;

/**
 * Stripe's events (issue 28): each written down by id before it is handled, and what they tell
 * operations about an order's payment (disputes, early fraud warnings).
 */

/**
 * Takes an event for handling: true when it is new, or was taken before but never finished (its
 * handling failed, and Stripe is delivering it again). False: handled already, nothing to do.
 */
export async function takeEvent(
  db: Db,
  event: { id: string; type: string; created: string },
  now: string,
): Promise<boolean> {
  await db
    .insertInto('stripe_events')
    .values({ ...event, received_at: now, handled_at: null })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const row = await db
    .selectFrom('stripe_events')
    .select('handled_at')
    .where('id', '=', event.id)
    .executeTakeFirst();
  return row?.handled_at === null;
}

/** Marks an event handled, once: false when another delivery of it finished first. */
export async function markHandled(db: Db, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('stripe_events')
    .set({ handled_at: now })
    .where('id', '=', id)
    .where('handled_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function selectEvent(db: Db, id: string) {
  const row = await db
    .selectFrom('stripe_events')
    .select(['id', 'type', 'created', 'received_at', 'handled_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      type: row.type,
      created: row.created,
      receivedAt: row.received_at,
      handledAt: row.handled_at,
    }
  );
}

/**
 * The order a gateway payment belongs to: the charge, capture or authorisation call the gateway
 * answered with this ref (the PaymentIntent id), newest first.
 */
export async function selectOrderOfPayment(db: Db, paymentRef: string): Promise<number | null> {
  const row = await db
    .selectFrom('payment_ledger')
    .select('order_id')
    .where('gateway_ref', '=', paymentRef)
    .where('operation', 'in', ['charge', 'authorize', 'capture'])
    .where('order_id', 'is not', null)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row?.order_id ?? null;
}

/** Whether the ledger knows this refund: by the processor's refund id or by our own key. */
export async function knowsRefund(
  db: Db,
  refund: { id: string; idempotencyKey: string | null },
): Promise<boolean> {
  const row = await db
    .selectFrom('payment_ledger')
    .select('id')
    .where('operation', '=', 'refund')
    .where((eb) =>
      refund.idempotencyKey
        ? eb.or([
            eb('gateway_ref', '=', refund.id),
            eb('idempotency_key', '=', refund.idempotencyKey),
          ])
        : eb('gateway_ref', '=', refund.id),
    )
    .executeTakeFirst();
  return row !== undefined;
}

export interface DisputeRecord {
  id: string;
  orderId: number;
  paymentRef: string;
  amountCents: number;
  reason: string;
  status: string;
  evidenceDueBy: string | null;
  openedAt: string;
  closedAt: string | null;
  /** When Stripe made the event this state comes from. */
  eventCreated: string;
}

/**
 * Writes a dispute's state unless a newer event's state is already there (events may arrive out of
 * order). A closed dispute stays closed: a late `created` or `updated` never reopens it. True when
 * this state was written.
 */
export async function upsertDispute(db: Db, dispute: DisputeRecord): Promise<boolean> {
  const values = {
    id: dispute.id,
    order_id: dispute.orderId,
    payment_ref: dispute.paymentRef,
    amount_cents: dispute.amountCents,
    reason: dispute.reason,
    status: dispute.status,
    evidence_due_by: dispute.evidenceDueBy,
    opened_at: dispute.openedAt,
    closed_at: dispute.closedAt,
    event_created: dispute.eventCreated,
  };
  const inserted = await db
    .insertInto('payment_disputes')
    .values(values)
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return true;
  const { id: _id, opened_at: _opened, ...changes } = values;
  const updated = await db
    .updateTable('payment_disputes')
    .set(changes)
    .where('id', '=', dispute.id)
    // Newer than what is there, or as new (Stripe's times are whole seconds) and a change: the
    // same state delivered again, even at the same moment, is written once.
    .where((eb) =>
      eb.or([
        eb('event_created', '<', dispute.eventCreated),
        eb.and([
          eb('event_created', '=', dispute.eventCreated),
          eb('status', '!=', dispute.status),
        ]),
      ]),
    )
    // Once closed, only another closing event (a later decision) changes it.
    .$if(dispute.closedAt === null, (query) => query.where('closed_at', 'is', null))
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

export async function selectDisputes(db: Db, orderId: number): Promise<DisputeRecord[]> {
  const rows = await db
    .selectFrom('payment_disputes')
    .select([
      'id',
      'order_id',
      'payment_ref',
      'amount_cents',
      'reason',
      'status',
      'evidence_due_by',
      'opened_at',
      'closed_at',
      'event_created',
    ])
    .where('order_id', '=', orderId)
    .orderBy('opened_at')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    orderId: r.order_id,
    paymentRef: r.payment_ref,
    amountCents: r.amount_cents,
    reason: r.reason,
    status: r.status,
    evidenceDueBy: r.evidence_due_by,
    openedAt: r.opened_at,
    closedAt: r.closed_at,
    eventCreated: r.event_created,
  }));
}

export interface FraudWarningRecord {
  id: string;
  orderId: number;
  paymentRef: string;
  fraudType: string;
  actionable: boolean;
  warnedAt: string;
}

/** Records a warning once; true when it is new. */
export async function insertFraudWarning(db: Db, warning: FraudWarningRecord): Promise<boolean> {
  const result = await db
    .insertInto('payment_fraud_warnings')
    .values({
      id: warning.id,
      order_id: warning.orderId,
      payment_ref: warning.paymentRef,
      fraud_type: warning.fraudType,
      actionable: warning.actionable ? 1 : 0,
      warned_at: warning.warnedAt,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function selectFraudWarnings(db: Db, orderId: number): Promise<FraudWarningRecord[]> {
  const rows = await db
    .selectFrom('payment_fraud_warnings')
    .select(['id', 'order_id', 'payment_ref', 'fraud_type', 'actionable', 'warned_at'])
    .where('order_id', '=', orderId)
    .orderBy('warned_at')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    orderId: r.order_id,
    paymentRef: r.payment_ref,
    fraudType: r.fraud_type,
    actionable: r.actionable === 1,
    warnedAt: r.warned_at,
  }));
}

/** The customer of an order, for the audit entry of what happened to its payment. */
export async function selectOrderCustomer(db: Db, orderId: number): Promise<number | null> {
  const row = await db
    .selectFrom('orders')
    .select('customer_id')
    .where('id', '=', orderId)
    .executeTakeFirst();
  return row?.customer_id ?? null;
}
