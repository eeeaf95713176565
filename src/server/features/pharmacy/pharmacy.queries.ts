import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, PharmacyMessageKind, PharmacyMessagesTable } from '#server/db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface NewPharmacyMessage {
  key: string;
  kind: PharmacyMessageKind;
  orderId: number | null;
  prescriptionId: number;
  customerId: number;
  visitId: number;
  payload: string;
  now: string;
}

/** Queues a message once by its key: false when it was queued before. */
export async function insertMessage(db: Db, m: NewPharmacyMessage): Promise<boolean> {
  const row = await db
    .insertInto('pharmacy_messages')
    .values({
      message_key: m.key,
      kind: m.kind,
      order_id: m.orderId,
      prescription_id: m.prescriptionId,
      customer_id: m.customerId,
      visit_id: m.visitId,
      payload: m.payload,
      next_attempt_at: m.now,
      created_at: m.now,
    })
    .onConflict((oc) => oc.column('message_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export type MessageRow = Selectable<
  Pick<
    PharmacyMessagesTable,
    | 'id'
    | 'message_key'
    | 'kind'
    | 'order_id'
    | 'prescription_id'
    | 'customer_id'
    | 'visit_id'
    | 'payload'
    | 'attempts'
    | 'status'
  >
>;

const messageColumns = [
  'id',
  'message_key',
  'kind',
  'order_id',
  'prescription_id',
  'customer_id',
  'visit_id',
  'payload',
  'attempts',
  'status',
] as const;

export async function selectMessage(db: Db, key: string): Promise<MessageRow | undefined> {
  return db
    .selectFrom('pharmacy_messages')
    .select(messageColumns)
    .where('message_key', '=', key)
    .executeTakeFirst();
}

/** Messages due to be sent whose claim (if any) has lapsed, oldest first. */
export async function selectDue(db: Db, now: string, limit: number): Promise<MessageRow[]> {
  return db
    .selectFrom('pharmacy_messages')
    .select(messageColumns)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Claims a message for one sender until `until`: true for one caller only. A sender that crashes
 * leaves the claim to lapse, and the message is sent again under the same key.
 */
export async function claim(db: Db, id: number, now: string, until: string): Promise<boolean> {
  const result = await db
    .updateTable('pharmacy_messages')
    .set({ claimed_until: until })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function markSent(
  db: Db,
  id: number,
  r: { ref: string; now: string },
): Promise<boolean> {
  const result = await db
    .updateTable('pharmacy_messages')
    .set((eb) => ({
      status: 'sent',
      pharmacy_ref: r.ref,
      sent_at: r.now,
      claimed_until: null,
      last_error: null,
      attempts: eb('attempts', '+', 1),
    }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Not sent: tried again at `retryAt`, or never (`retryAt` null: the pharmacy refused it). */
export async function markNotSent(
  db: Db,
  id: number,
  r: { error: string; retryAt: string | null },
): Promise<void> {
  await db
    .updateTable('pharmacy_messages')
    .set((eb) => ({
      status: r.retryAt === null ? 'failed' : 'pending',
      ...(r.retryAt !== null ? { next_attempt_at: r.retryAt } : {}),
      claimed_until: null,
      last_error: r.error,
      attempts: eb('attempts', '+', 1),
    }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/** Writes a callback down by its id: false when it was received before. */
export async function insertEvent(
  db: Db,
  e: { id: string; messageKey: string; type: string; occurredAt: string; now: string },
): Promise<boolean> {
  const row = await db
    .insertInto('pharmacy_events')
    .values({
      event_id: e.id,
      message_key: e.messageKey,
      type: e.type,
      occurred_at: e.occurredAt,
      received_at: e.now,
    })
    .onConflict((oc) => oc.column('event_id').doNothing())
    .returning('event_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The fills (NewRx and refills) queued since `since`, oldest first, for operations' queue. */
export async function selectFillsSince(db: Db, since: string) {
  const rows = await db
    .selectFrom('pharmacy_messages')
    .select(['order_id', 'kind', 'status', 'attempts', 'last_error', 'created_at', 'payload'])
    .where('kind', 'in', ['NewRx', 'Refill'])
    .where('order_id', 'is not', null)
    .where('created_at', '>=', since)
    .orderBy('created_at')
    .execute();
  return rows.map(({ payload, ...row }) => ({
    ...row,
    order_id: row.order_id ?? 0,
    kind: row.kind as 'NewRx' | 'Refill',
    order_number: String((JSON.parse(payload) as { order_number?: unknown }).order_number ?? ''),
  }));
}

/** The NewRx of a prescription, if one was queued. */
export async function selectNewRxOf(db: Db, prescriptionId: number) {
  return db
    .selectFrom('pharmacy_messages')
    .select(['message_key', 'customer_id', 'visit_id'])
    .where('prescription_id', '=', prescriptionId)
    .where('kind', '=', 'NewRx')
    .executeTakeFirst();
}

/** The fill was rejected at `at` (the pharmacy's time): a provider's task from now on. */
export async function markRejected(db: Db, id: number, at: string): Promise<void> {
  await db
    .updateTable('pharmacy_messages')
    .set({ rejected_at: at })
    .where('id', '=', id)
    .where('rejected_at', 'is', null)
    .execute();
}

/**
 * Rejected fills no provider has written to the patient about, oldest first (index 0039); only
 * the visit's, when one is named.
 */
export async function selectOpenRejections(db: Db, limit: number, visitId?: number) {
  let query = db
    .selectFrom('pharmacy_messages')
    .select(['id', 'order_id', 'visit_id', 'customer_id', 'rejected_at', 'payload'])
    .where('rejected_at', 'is not', null)
    .where('rejection_closed_at', 'is', null);
  if (visitId !== undefined) query = query.where('visit_id', '=', visitId);
  const rows = await query.orderBy('rejected_at').orderBy('id').limit(limit).execute();
  return rows.map(({ payload, ...row }) => ({
    ...row,
    order_id: row.order_id ?? 0,
    rejected_at: row.rejected_at ?? '',
    order_number: String((JSON.parse(payload) as { order_number?: unknown }).order_number ?? ''),
  }));
}

/** A provider wrote to the patient about the visit: its open rejections are closed. */
export async function closeRejections(
  db: Db,
  visitId: number,
  close: { staffId: number; now: string },
): Promise<void> {
  await db
    .updateTable('pharmacy_messages')
    .set({ rejection_closed_at: close.now, rejection_closed_by: close.staffId })
    .where('visit_id', '=', visitId)
    .where('rejected_at', 'is not', null)
    .where('rejection_closed_at', 'is', null)
    .execute();
}

/** The prescription an order's medicine was sent to the pharmacy under (its NewRx or Refill). */
export async function selectPrescriptionOfOrder(db: Db, orderId: number): Promise<number | null> {
  const row = await db
    .selectFrom('pharmacy_messages')
    .select('prescription_id')
    .where('order_id', '=', orderId)
    .where('kind', 'in', ['NewRx', 'Refill'])
    .orderBy('id')
    .executeTakeFirst();
  return row?.prescription_id ?? null;
}
