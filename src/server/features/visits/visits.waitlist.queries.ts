import type { Kysely, Transaction } from 'kysely';
import type { Database } from '#server/db/schema.ts';

type Db = Kysely<Database>;

/** Puts the patient on the state's waitlist; a second ask changes nothing. */
export async function insertWaitlist(
  db: Db,
  customerId: number,
  state: string,
  now: string,
): Promise<void> {
  await db
    .insertInto('state_waitlist')
    .values({ customer_id: customerId, state, created_at: now, notified_at: null })
    .onConflict((oc) => oc.columns(['customer_id', 'state']).doNothing())
    .execute();
}

/** The states the patient waits for and has not been told about yet. */
export async function selectWaitingStates(db: Db, customerId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('state_waitlist')
    .select('state')
    .where('customer_id', '=', customerId)
    .where('notified_at', 'is', null)
    .execute();
  return rows.map((r) => r.state);
}

export interface WaitingPatient {
  id: number;
  state: string;
  email: string;
  firstName: string;
}

/** Patients not told yet who wait for one of these states, oldest first. */
export async function selectDueWaitlist(
  db: Db,
  states: string[],
  limit: number,
): Promise<WaitingPatient[]> {
  if (states.length === 0) return [];
  const rows = await db
    .selectFrom('state_waitlist as w')
    .innerJoin('customers as c', 'c.id', 'w.customer_id')
    .select(['w.id', 'w.state', 'c.email', 'c.first_name'])
    .where('w.notified_at', 'is', null)
    .where('w.state', 'in', states)
    .orderBy('w.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, state: r.state, email: r.email, firstName: r.first_name }));
}

/** Claims the notice for one waiting patient: true for exactly one caller, however many run. */
export async function markNotified(db: Db, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('state_waitlist')
    .set({ notified_at: now })
    .where('id', '=', id)
    .where('notified_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Puts a visitor's address on the state's waitlist; a second ask changes nothing. */
export async function insertVisitorWaitlist(
  db: Db,
  email: string,
  state: string,
  now: string,
): Promise<void> {
  await db
    .insertInto('visitor_waitlist')
    .values({ email, state, created_at: now })
    .onConflict((oc) => oc.columns(['email', 'state']).doNothing())
    .execute();
}

/** Visitors waiting for one of these states, oldest first. */
export async function selectDueVisitors(
  db: Db,
  states: string[],
  limit: number,
): Promise<{ id: number; email: string; state: string }[]> {
  if (states.length === 0) return [];
  return db
    .selectFrom('visitor_waitlist')
    .select(['id', 'email', 'state'])
    .where('state', 'in', states)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Claims a visitor's one notice by deleting their row: true for exactly one caller. */
export async function claimVisitor(db: Transaction<Database>, id: number): Promise<boolean> {
  const result = await db.deleteFrom('visitor_waitlist').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
