import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';

type Db = Kysely<Database>;

export interface ThreadRow {
  id: number;
  customerId: number;
  visitId: number | null;
  subject: string;
  updatedAt: string;
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

export async function selectThreadsOf(db: Db, customerId: number): Promise<ThreadRow[]> {
  const rows = await db
    .selectFrom('message_threads')
    .select(['id', 'customer_id', 'visit_id', 'subject', 'updated_at'])
    .where('customer_id', '=', customerId)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    customerId: r.customer_id,
    visitId: r.visit_id,
    subject: r.subject,
    updatedAt: r.updated_at,
  }));
}

export async function selectThread(db: Db, id: number): Promise<ThreadRow | undefined> {
  const r = await db
    .selectFrom('message_threads')
    .select(['id', 'customer_id', 'visit_id', 'subject', 'updated_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  return (
    r && {
      id: r.id,
      customerId: r.customer_id,
      visitId: r.visit_id,
      subject: r.subject,
      updatedAt: r.updated_at,
    }
  );
}

export async function selectThreadOfVisit(db: Db, visitId: number): Promise<ThreadRow | undefined> {
  const r = await db
    .selectFrom('message_threads')
    .select(['id', 'customer_id', 'visit_id', 'subject', 'updated_at'])
    .where('visit_id', '=', visitId)
    .executeTakeFirst();
  return (
    r && {
      id: r.id,
      customerId: r.customer_id,
      visitId: r.visit_id,
      subject: r.subject,
      updatedAt: r.updated_at,
    }
  );
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
): Promise<number> {
  const row = await db
    .insertInto('message_threads')
    .values({ customer_id: customerId, visit_id: null, subject, created_at: now, updated_at: now })
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
