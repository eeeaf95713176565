import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { reusable } from '#server/db/reusable.ts';
import type { Database } from '#server/db/schema.ts';
import { MESSAGES_PAGE_SIZE, type MessageTopic } from '#shared/messages.ts';

type Db = Kysely<Database>;

export interface ThreadRow {
  id: number;
  customerId: number;
  visitId: number | null;
  subject: string;
  topic: MessageTopic;
  /** A clinical thread's provider (null: open to the providers licensed in the patient's state). */
  providerId: number | null;
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

/** A thread's columns, from `message_threads as t` and the order it is about (`orders as o`). */
const threadColumns = [
  't.id',
  't.customer_id',
  't.visit_id',
  't.subject',
  't.topic',
  't.provider_id',
  't.updated_at',
  'o.order_number',
] as const;

function threadQuery(db: Db) {
  return db
    .selectFrom('message_threads as t')
    .leftJoin('orders as o', 'o.id', 't.order_id')
    .select(threadColumns);
}

function toThread(r: {
  id: number;
  customer_id: number;
  visit_id: number | null;
  subject: string;
  topic: MessageTopic;
  provider_id: number | null;
  updated_at: string;
  order_number: string | null;
}): ThreadRow {
  return {
    id: r.id,
    customerId: r.customer_id,
    visitId: r.visit_id,
    subject: r.subject,
    topic: r.topic,
    providerId: r.provider_id,
    updatedAt: r.updated_at,
    orderNumber: r.order_number,
  };
}

/** Unread messages written by `writtenBy` in the query's thread `t`, as a column `unread`. */
function unreadIn(
  eb: ExpressionBuilder<Database & { t: Database['message_threads'] }, 't'>,
  writtenBy: MessageRow['sender'],
) {
  return eb
    .selectFrom('messages as m')
    .select((m) => m.fn.countAll<number>().as('n'))
    .whereRef('m.thread_id', '=', 't.id')
    .where('m.sender', '=', writtenBy)
    .where('m.read_at', 'is', null)
    .as('unread');
}

/** The customer's conversations, newest first: the list every visit to Messages reads. */
const threadsOf = reusable((db: Db, customerId: number) =>
  threadQuery(db)
    .where('t.customer_id', '=', customerId)
    .orderBy('t.updated_at', 'desc')
    .orderBy('t.id', 'desc'),
);

/**
 * The patient's first name, their conversations newest first and the care team's unread messages
 * in each, in one statement (issue 14: the list read these in three). The customer's row anchors
 * it, so a customer without a conversation still gets one row (its thread columns null), and a
 * customer who is gone gets none.
 */
const patientThreads = reusable((db: Db, customerId: number) =>
  db
    .selectFrom('customers as c')
    .leftJoin('message_threads as t', 't.customer_id', 'c.id')
    .leftJoin('orders as o', 'o.id', 't.order_id')
    .select((eb) => [
      'c.first_name as patient_first_name',
      ...threadColumns,
      unreadIn(eb, 'care_team'),
    ])
    .where('c.id', '=', customerId)
    .orderBy('t.updated_at', 'desc')
    .orderBy('t.id', 'desc'),
);

export interface PatientThreads {
  patientFirstName: string;
  threads: { thread: ThreadRow; unread: number }[];
}

/** The patient's conversations with their unread counts; undefined when the customer is gone. */
export async function selectPatientThreads(
  db: Db,
  customerId: number,
): Promise<PatientThreads | undefined> {
  const rows = await patientThreads(db, customerId);
  const [first] = rows;
  if (!first) return undefined;
  const threads: PatientThreads['threads'] = [];
  for (const { id, customer_id, subject, topic, updated_at, unread, ...r } of rows) {
    // The left join's columns are all null on a customer's row without a conversation.
    if (id === null || customer_id === null || subject === null || topic === null) continue;
    if (updated_at === null) continue;
    threads.push({
      thread: toThread({ ...r, id, customer_id, subject, topic, updated_at }),
      unread: Number(unread ?? 0),
    });
  }
  return { patientFirstName: first.patient_first_name, threads };
}

export async function selectThreadsOf(db: Db, customerId: number): Promise<ThreadRow[]> {
  return (await threadsOf(db, customerId)).map(toThread);
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

/** Unread patient messages and who wrote last, beside each thread of a list. */
function withActivity<Q extends ReturnType<typeof threadQuery>>(query: Q) {
  return query.innerJoin('customers as c', 'c.id', 't.customer_id').select((eb) => [
    'c.first_name',
    'c.last_name',
    unreadIn(eb, 'patient'),
    eb
      .selectFrom('messages as m')
      .select('m.sender')
      .whereRef('m.thread_id', '=', 't.id')
      .orderBy('m.created_at', 'desc')
      .orderBy('m.id', 'desc')
      .limit(1)
      .as('last_sender'),
    // A patient message no provider has answered since (issue 29): what operations wrote,
    // about the order or before handing the thread over, does not answer a clinical question.
    eb
      .exists(
        eb
          .selectFrom('messages as pm')
          .select('pm.id')
          .whereRef('pm.thread_id', '=', 't.id')
          .where('pm.sender', '=', 'patient')
          .where((inner) =>
            inner.not(
              inner.exists(
                inner
                  .selectFrom('messages as rm')
                  .innerJoin('staff_users as rs', 'rs.id', 'rm.staff_id')
                  .select('rm.id')
                  .whereRef('rm.thread_id', '=', 't.id')
                  .where('rs.role', '=', 'provider')
                  .whereRef('rm.id', '>', 'pm.id'),
              ),
            ),
          ),
      )
      .as('awaiting_provider'),
  ]);
}

/**
 * The care team's inbox: threads not about a visit (a visit's provider answers those in the
 * chart), those with unread patient messages first, then the latest. Clinical threads are listed
 * with their provider, for operations to see that they are answered.
 */
export async function selectCareInbox(db: Db, limit: number) {
  const rows = await withActivity(threadQuery(db))
    .leftJoin('staff_users as s', 's.id', 't.provider_id')
    .select('s.name as provider_name')
    .where('t.visit_id', 'is', null)
    .orderBy('t.updated_at', 'desc')
    .orderBy('t.id', 'desc')
    .limit(limit)
    .execute();
  return rows
    .map((r) => ({
      ...toThread(r),
      patient: `${r.first_name} ${r.last_name.slice(0, 1)}.`,
      providerName: r.provider_name,
      unread: Number(r.unread ?? 0),
      lastSender: r.last_sender ?? null,
      awaitingProvider: Boolean(Number(r.awaiting_provider)),
    }))
    .sort((a, b) => Number(b.unread > 0) - Number(a.unread > 0));
}

/**
 * The state a patient is cared for in: that of their latest visit with one, else their shipping
 * address's.
 * A provider must be licensed there to answer them.
 */
function patientState(customerRef: string) {
  const customer = sql.ref(customerRef);
  return sql<string | null>`coalesce(
    (select v.state from visits v
      where v.customer_id = ${customer} and v.state is not null
      order by v.created_at desc, v.id desc limit 1),
    (select a.state from customer_addresses a
      where a.customer_id = ${customer} and a.kind = 'shipping' and a.state <> ''
      order by a.id desc limit 1))`;
}

export async function selectPatientState(db: Db, customerId: number): Promise<string | null> {
  const row = await db
    .selectFrom('customers as c')
    .select(patientState('c.id').as('state'))
    .where('c.id', '=', customerId)
    .executeTakeFirst();
  return row?.state || null;
}

/**
 * Clinical threads not about a visit that a provider may answer: assigned to them, or open (none
 * assigned, or one no longer active) with the patient in a state they are licensed in (or in no
 * state we know of: any provider may ask them where they are). Those with
 * unread patient messages first, then the latest.
 */
export async function selectProviderThreads(
  db: Db,
  staffId: number,
  licensedStates: string[],
  limit: number,
) {
  const rows = await withActivity(threadQuery(db))
    .leftJoin('staff_users as s', 's.id', 't.provider_id')
    .select(patientState('t.customer_id').as('patient_state'))
    .where('t.topic', '=', 'treatment')
    .where('t.visit_id', 'is', null)
    .where((eb) =>
      eb.or([
        eb('t.provider_id', '=', staffId),
        eb('t.provider_id', 'is', null),
        eb('s.active', '=', 0),
      ]),
    )
    .orderBy('t.updated_at', 'desc')
    .orderBy('t.id', 'desc')
    .execute();
  return rows
    .map((r) => ({
      ...toThread(r),
      patient: `${r.first_name} ${r.last_name.slice(0, 1)}.`,
      state: r.patient_state || null,
      assigned: r.provider_id === staffId ? ('me' as const) : ('open' as const),
      unread: Number(r.unread ?? 0),
      lastSender: r.last_sender ?? null,
      awaitingProvider: Boolean(Number(r.awaiting_provider)),
    }))
    .filter((r) => r.assigned === 'me' || r.state === null || licensedStates.includes(r.state))
    .slice(0, limit)
    .sort((a, b) => Number(b.unread > 0) - Number(a.unread > 0));
}

/**
 * The provider of the patient's latest visit that has one: who prescribed, else who it was given
 * to for review; with whether they are still active.
 */
export async function selectLatestVisitProvider(
  db: Db,
  customerId: number,
): Promise<{ providerId: number; active: boolean } | undefined> {
  const row = await db
    .selectFrom('visits as v')
    .leftJoin('prescriptions as p', (join) =>
      join.onRef('p.visit_id', '=', 'v.id').on('p.request_id', 'is', null),
    )
    .innerJoin('staff_users as s', (join) =>
      join.on((eb) => eb('s.id', '=', eb.fn.coalesce('p.provider_id', 'v.provider_id'))),
    )
    .select(['s.id', 's.active', 's.role'])
    .where('v.customer_id', '=', customerId)
    .where('v.status', '!=', 'IN_PROGRESS')
    .orderBy('v.created_at', 'desc')
    .orderBy('v.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && { providerId: row.id, active: row.active === 1 && row.role === 'provider' };
}

/** The patient's latest visit a provider licensed in these states may open, for its chart. */
export async function selectLatestChartVisit(
  db: Db,
  customerId: number,
  licensedStates: string[],
): Promise<number | null> {
  if (licensedStates.length === 0) return null;
  const row = await db
    .selectFrom('visits')
    .select('id')
    .where('customer_id', '=', customerId)
    .where('status', '!=', 'IN_PROGRESS')
    .where('state', 'in', licensedStates)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** The patient's prescriptions valid on `today` (YYYY-MM-DD), newest first. */
export async function selectActivePrescriptions(db: Db, customerId: number, today: string) {
  return db
    .selectFrom('prescriptions as p')
    .innerJoin('visits as v', 'v.id', 'p.visit_id')
    .select([
      'p.visit_id',
      'v.category',
      'p.drug',
      'p.dosage',
      'p.directions',
      'p.refills',
      'p.valid_until',
    ])
    .where('p.customer_id', '=', customerId)
    .where('p.valid_until', '>=', today)
    .orderBy('p.created_at', 'desc')
    .orderBy('p.id', 'desc')
    .execute();
}

/** The thread becomes clinical and its provider's. */
export async function assignThread(db: Db, threadId: number, providerId: number): Promise<void> {
  await db
    .updateTable('message_threads')
    .set({ topic: 'treatment', provider_id: providerId })
    .where('id', '=', threadId)
    .execute();
}

/**
 * An open clinical thread becomes the answering provider's (one assigned to a provider who is
 * still active keeps them).
 */
export async function claimThread(db: Db, threadId: number, providerId: number): Promise<void> {
  await db
    .updateTable('message_threads')
    .set({ provider_id: providerId })
    .where('id', '=', threadId)
    .where((eb) =>
      eb.or([
        eb('provider_id', 'is', null),
        eb('provider_id', 'in', eb.selectFrom('staff_users').select('id').where('active', '=', 0)),
      ]),
    )
    .execute();
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
      topic: 'treatment',
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
  t: {
    customerId: number;
    subject: string;
    topic: MessageTopic;
    orderId: number | null;
    providerId: number | null;
    now: string;
  },
): Promise<number> {
  const { customerId, subject, now } = t;
  const row = await db
    .insertInto('message_threads')
    .values({
      customer_id: customerId,
      visit_id: null,
      order_id: t.orderId,
      topic: t.topic,
      provider_id: t.providerId,
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

function messageColumns(db: Db) {
  return db
    .selectFrom('messages as m')
    .leftJoin('staff_users as s', 's.id', 'm.staff_id')
    .select(['m.id', 'm.thread_id', 'm.sender', 's.name', 'm.body', 'm.created_at', 'm.read_at']);
}

function toMessageRow(r: {
  id: number;
  thread_id: number;
  sender: 'patient' | 'care_team';
  name: string | null;
  body: string;
  created_at: string;
  read_at: string | null;
}): MessageRow {
  return {
    id: r.id,
    threadId: r.thread_id,
    sender: r.sender,
    staffName: r.name,
    body: r.body,
    createdAt: r.created_at,
    readAt: r.read_at,
  };
}

/**
 * The newest messages of the patient's threads since an instant (all when none is given), at most
 * `limit`, oldest first.
 */
export async function selectMessages(
  db: Db,
  threadIds: number[],
  { since, limit }: { since?: string | undefined; limit: number },
): Promise<MessageRow[]> {
  if (threadIds.length === 0) return [];
  let query = messageColumns(db).where('m.thread_id', 'in', threadIds);
  if (since) query = query.where('m.created_at', '>', since);
  const rows = await query
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toMessageRow).reverse();
}

/** One message by its id. */
export async function selectMessage(db: Db, id: number): Promise<MessageRow | undefined> {
  const row = await messageColumns(db).where('m.id', '=', id).executeTakeFirst();
  return row && toMessageRow(row);
}

/** Where a page of a thread ends: before this message (its time, then its id). */
export interface MessageKey {
  id: number;
  createdAt: string;
}

/** The message a cursor names, if it is in this thread; undefined otherwise. */
export async function selectMessageKey(
  db: Db,
  threadId: number,
  messageId: number,
): Promise<MessageKey | undefined> {
  const row = await db
    .selectFrom('messages')
    .select(['id', 'created_at'])
    .where('id', '=', messageId)
    .where('thread_id', '=', threadId)
    .executeTakeFirst();
  return row && { id: row.id, createdAt: row.created_at };
}

/**
 * One page of a thread, oldest first: its newest `limit` messages before `before`, or the newest of
 * all without it. Keyset (time, then id): a message written between two pages shifts nothing.
 */
export async function selectThreadPage(
  db: Db,
  threadId: number,
  before: MessageKey | null,
  limit: number,
): Promise<MessageRow[]> {
  let query = messageColumns(db).where('m.thread_id', '=', threadId);
  if (before)
    query = query.where((eb) =>
      eb.or([
        eb('m.created_at', '<', before.createdAt),
        eb.and([eb('m.created_at', '=', before.createdAt), eb('m.id', '<', before.id)]),
      ]),
    );
  const rows = await query
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toMessageRow).reverse();
}

/**
 * The newest page of each of the customer's conversations, and one message more where there is
 * one (whether earlier messages come before the page): the list every visit to Messages reads,
 * compiled once (issue 14), with the page's size written into the SQL.
 */
const newestOfCustomer = reusable((db: Db, customerId: number) => {
  const ranked = messageColumns(db)
    .select(
      sql<number>`row_number() over (partition by m.thread_id order by m.created_at desc, m.id desc)`.as(
        'place',
      ),
    )
    .where('m.thread_id', 'in', (eb) =>
      eb.selectFrom('message_threads').select('id').where('customer_id', '=', customerId),
    )
    .as('ranked');
  return db
    .selectFrom(ranked)
    .select(['id', 'thread_id', 'sender', 'name', 'body', 'created_at', 'read_at'])
    .where('place', '<=', sql.lit(MESSAGES_PAGE_SIZE + 1))
    .orderBy('thread_id')
    .orderBy('created_at')
    .orderBy('id');
});

export async function selectNewestOfCustomer(db: Db, customerId: number): Promise<MessageRow[]> {
  return (await newestOfCustomer(db, customerId)).map(toMessageRow);
}

/** Unread care-team messages in each of the customer's conversations (those without any are absent). */
const unreadOfCustomer = reusable((db: Db, customerId: number) =>
  db
    .selectFrom('messages as m')
    .innerJoin('message_threads as t', 't.id', 'm.thread_id')
    .select(['m.thread_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('t.customer_id', '=', customerId)
    .where('m.sender', '=', 'care_team')
    .where('m.read_at', 'is', null)
    .groupBy('m.thread_id'),
);

export async function countUnreadOfCustomer(
  db: Db,
  customerId: number,
): Promise<Map<number, number>> {
  const rows = await unreadOfCustomer(db, customerId);
  return new Map(rows.map((r) => [r.thread_id, Number(r.n)] as const));
}

/** Unread messages written by `writtenBy` in each of these threads (threads without any are absent). */
export async function countUnreadByThread(
  db: Db,
  threadIds: number[],
  writtenBy: 'patient' | 'care_team',
): Promise<Map<number, number>> {
  if (threadIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('messages')
    .select(['thread_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('thread_id', 'in', threadIds)
    .where('sender', '=', writtenBy)
    .where('read_at', 'is', null)
    .groupBy('thread_id')
    .execute();
  return new Map(rows.map((r) => [r.thread_id, Number(r.n)] as const));
}

/** Whether anyone on the care team has written in this thread. */
export async function careTeamHasWritten(db: Db, threadId: number): Promise<boolean> {
  const row = await db
    .selectFrom('messages')
    .select('id')
    .where('thread_id', '=', threadId)
    .where('sender', '=', 'care_team')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
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
  let total = 0;
  for (const n of (await countUnreadOfCustomer(db, customerId)).values()) total += n;
  return total;
}
