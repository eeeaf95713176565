import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';

type Db = Kysely<Database>;

export interface ThreadRow {
  id: number;
  customerId: number;
  visitId: number | null;
  subject: string;
  updatedAt: string;
  orderNumber: string | null;
}

export interface MessageRow {
  id: number;
  threadId: number;
  sender: 'patient' | 'care_team';
  staffName: string | null;
  body: string;
  createdAt: string;
  readAt: string | null;
}

function threadQuery(db: Db) {
  return db
    .selectFrom('message_threads as t')
    .leftJoin('orders as o', 'o.id', 't.order_id')
    .select(['t.id', 't.customer_id', 't.visit_id', 't.subject', 't.updated_at', 'o.order_number']);
}

function toThread(r: {
  id: number;
  customer_id: number;
  visit_id: number | null;
  subject: string;
  updated_at: string;
  order_number: string | null;
}): ThreadRow {
  return {
    id: r.id,
    customerId: r.customer_id,
    visitId: r.visit_id,
    subject: r.subject,
    updatedAt: r.updated_at,
    orderNumber: r.order_number,
  };
}

export async function selectThreadsOf(db: Db, customerId: number): Promise<ThreadRow[]> {
  const rows = await threadQuery(db)
    .where('t.customer_id', '=', customerId)
    .orderBy('t.updated_at', 'desc')
    .orderBy('t.id', 'desc')
    .execute();
  return rows.map(toThread);
}

export async function selectThread(db: Db, id: number): Promise<ThreadRow | undefined> {
  const row = await threadQuery(db).where('t.id', '=', id).executeTakeFirst();
  return row && toThread(row);
}

export async function selectThreadOfVisit(db: Db, visitId: number): Promise<ThreadRow | undefined> {
  const row = await threadQuery(db).where('t.visit_id', '=', visitId).executeTakeFirst();
  return row && toThread(row);
}

/** The customer's own order with this number, if it is theirs. */
export async function selectOwnOrderId(
  db: Db,
  customerId: number,
  orderNumber: string,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('orders')
    .select('id')
    .where('order_number', '=', orderNumber)
    .where('customer_id', '=', customerId)
    .executeTakeFirst();
  return row?.id;
}

/**
 * The care team's inbox: threads not about a visit (a visit's provider answers those in the
 * chart), those with unread patient messages first, then the latest.
 */
export async function selectCareInbox(db: Db, limit: number) {
  const rows = await threadQuery(db)
    .innerJoin('customers as c', 'c.id', 't.customer_id')
    .select((eb) => [
      'c.first_name',
      'c.last_name',
      eb
        .selectFrom('messages as m')
        .select((m) => m.fn.countAll<number>().as('n'))
        .whereRef('m.thread_id', '=', 't.id')
        .where('m.sender', '=', 'patient')
        .where('m.read_at', 'is', null)
        .as('unread'),
      eb
        .selectFrom('messages as m')
        .select('m.sender')
        .whereRef('m.thread_id', '=', 't.id')
        .orderBy('m.created_at', 'desc')
        .orderBy('m.id', 'desc')
        .limit(1)
        .as('last_sender'),
    ])
    .where('t.visit_id', 'is', null)
    .orderBy('t.updated_at', 'desc')
    .orderBy('t.id', 'desc')
    .limit(limit)
    .execute();
  return rows
    .map((r) => ({
      ...toThread(r),
      patient: `${r.first_name} ${r.last_name.slice(0, 1)}.`,
      unread: Number(r.unread ?? 0),
      lastSender: r.last_sender ?? null,
    }))
    .sort((a, b) => Number(b.unread > 0) - Number(a.unread > 0));
}

/** A thread for a visit, made once (the unique key on visit_id decides between racing callers). */
export async function ensureVisitThread(
  db: Db,
  customerId: number,
  visitId: number,
  subject: string,
  now: string,
): Promise<ThreadRow> {
  await db
    .insertInto('message_threads')
    .values({
      customer_id: customerId,
      visit_id: visitId,
      subject,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('visit_id').doNothing())
    .execute();
  const thread = await selectThreadOfVisit(db, visitId);
  if (!thread) throw new Error('visit thread missing after insert');
  return thread;
}

export async function insertThread(
  db: Db,
  customerId: number,
  subject: string,
  now: string,
  orderId: number | null = null,
): Promise<number> {
  const row = await db
    .insertInto('message_threads')
    .values({
      customer_id: customerId,
      visit_id: null,
      order_id: orderId,
      subject,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertMessage(
  db: Db,
  m: {
    threadId: number;
    sender: 'patient' | 'care_team';
    staffId: number | null;
    body: string;
    now: string;
  },
): Promise<number> {
  const row = await db
    .insertInto('messages')
    .values({
      thread_id: m.threadId,
      sender: m.sender,
      staff_id: m.staffId,
      body: m.body,
      created_at: m.now,
      read_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .updateTable('message_threads')
    .set({ updated_at: m.now })
    .where('id', '=', m.threadId)
    .execute();
  return row.id;
}

export async function selectMessages(
  db: Db,
  threadIds: number[],
  since?: string,
): Promise<MessageRow[]> {
  if (threadIds.length === 0) return [];
  let query = db
    .selectFrom('messages as m')
    .leftJoin('staff_users as s', 's.id', 'm.staff_id')
    .select(['m.id', 'm.thread_id', 'm.sender', 's.name', 'm.body', 'm.created_at', 'm.read_at'])
    .where('m.thread_id', 'in', threadIds);
  if (since) query = query.where('m.created_at', '>', since);
  const rows = await query.orderBy('m.created_at').orderBy('m.id').execute();
  return rows.map((r) => ({
    id: r.id,
    threadId: r.thread_id,
    sender: r.sender,
    staffName: r.name,
    body: r.body,
    createdAt: r.created_at,
    readAt: r.read_at,
  }));
}

/** Marks as read what the other side wrote in a thread. */
export async function markRead(
  db: Db,
  threadId: number,
  writtenBy: 'patient' | 'care_team',
  now: string,
): Promise<void> {
  await db
    .updateTable('messages')
    .set({ read_at: now })
    .where('thread_id', '=', threadId)
    .where('sender', '=', writtenBy)
    .where('read_at', 'is', null)
    .execute();
}

export async function countUnreadForPatient(db: Db, customerId: number): Promise<number> {
  const row = await db
    .selectFrom('messages as m')
    .innerJoin('message_threads as t', 't.id', 'm.thread_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('t.customer_id', '=', customerId)
    .where('m.sender', '=', 'care_team')
    .where('m.read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
