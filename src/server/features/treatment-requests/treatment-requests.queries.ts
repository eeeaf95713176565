import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, TreatmentRequestsTable } from '#server/db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

export type RequestKind = TreatmentRequestsTable['kind'];
export type RequestOutcome = NonNullable<TreatmentRequestsTable['outcome']>;

export interface RequestRow {
  id: number;
  customerId: number;
  subscriptionId: number;
  prescriptionId: number;
  threadId: number;
  kind: RequestKind;
  reason: string;
  status: 'OPEN' | 'APPROVED' | 'DECLINED' | 'ANSWERED';
  createdAt: string;
  decidedAt: string | null;
  decidedBy: number | null;
  outcome: RequestOutcome | null;
  refillDate: string | null;
  newPrescriptionId: number | null;
}

const columns = [
  'id',
  'customer_id',
  'subscription_id',
  'prescription_id',
  'thread_id',
  'kind',
  'reason',
  'status',
  'created_at',
  'decided_at',
  'decided_by',
  'outcome',
  'refill_date',
  'new_prescription_id',
] as const;

function toRow(r: {
  id: number;
  customer_id: number;
  subscription_id: number;
  prescription_id: number;
  thread_id: number;
  kind: RequestKind;
  reason: string;
  status: RequestRow['status'];
  created_at: string;
  decided_at: string | null;
  decided_by: number | null;
  outcome: RequestOutcome | null;
  refill_date: string | null;
  new_prescription_id: number | null;
}): RequestRow {
  return {
    id: r.id,
    customerId: r.customer_id,
    subscriptionId: r.subscription_id,
    prescriptionId: r.prescription_id,
    threadId: r.thread_id,
    kind: r.kind,
    reason: r.reason,
    status: r.status,
    createdAt: r.created_at,
    decidedAt: r.decided_at,
    decidedBy: r.decided_by,
    outcome: r.outcome,
    refillDate: r.refill_date,
    newPrescriptionId: r.new_prescription_id,
  };
}

/**
 * A new request; false when one of its kind about that plan is already open (the partial unique
 * index of migration 0041 decides, so two at once ask once).
 */
export async function insertRequest(
  db: Db,
  request: {
    customerId: number;
    subscriptionId: number;
    prescriptionId: number;
    threadId: number;
    kind: RequestKind;
    reason: string;
    now: string;
  },
): Promise<number | null> {
  const row = await db
    .insertInto('treatment_requests')
    .values({
      customer_id: request.customerId,
      subscription_id: request.subscriptionId,
      prescription_id: request.prescriptionId,
      thread_id: request.threadId,
      kind: request.kind,
      reason: request.reason,
      created_at: request.now,
    })
    .onConflict((oc) =>
      // The index's predicate as written in it: SQLite matches a partial index only to a literal.
      oc
        .columns(['subscription_id', 'kind'])
        .where(sql<boolean>`status = 'OPEN'`)
        .doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}

/** The open request of this kind about this plan, if any. */
export async function selectOpenRequestOf(
  db: Db,
  subscriptionId: number,
  kind: RequestKind,
): Promise<RequestRow | undefined> {
  const row = await db
    .selectFrom('treatment_requests')
    .select(columns)
    .where('subscription_id', '=', subscriptionId)
    .where('kind', '=', kind)
    .where('status', '=', 'OPEN')
    .executeTakeFirst();
  return row && toRow(row);
}

/** The customer's requests, newest first. */
export async function selectRequestsOf(
  db: Db,
  customerId: number,
  limit: number,
): Promise<RequestRow[]> {
  const rows = await db
    .selectFrom('treatment_requests')
    .select(columns)
    .where('customer_id', '=', customerId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toRow);
}

export async function selectRequest(db: Db, id: number): Promise<RequestRow | undefined> {
  const row = await db
    .selectFrom('treatment_requests')
    .select(columns)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toRow(row);
}

export async function selectRequestOfThread(
  db: Db,
  threadId: number,
): Promise<RequestRow | undefined> {
  const row = await db
    .selectFrom('treatment_requests')
    .select(columns)
    .where('thread_id', '=', threadId)
    .executeTakeFirst();
  return row && toRow(row);
}

/** The open requests, oldest first, with where the patient was seen and who may answer. */
export async function selectOpenRequests(db: Db, limit: number) {
  return db
    .selectFrom('treatment_requests as r')
    .innerJoin('message_threads as t', 't.id', 'r.thread_id')
    .innerJoin('prescriptions as p', 'p.id', 'r.prescription_id')
    .innerJoin('visits as v', 'v.id', 'p.visit_id')
    .innerJoin('customers as c', 'c.id', 'r.customer_id')
    .select([
      'r.id',
      'r.thread_id as threadId',
      'r.kind',
      'r.reason',
      'r.created_at as createdAt',
      't.provider_id as providerId',
      'v.state',
      'v.category',
      'p.drug',
      'p.dosage',
      'c.first_name as firstName',
      'c.last_name as lastName',
    ])
    .where('r.status', '=', 'OPEN')
    .orderBy('r.id')
    .limit(limit)
    .execute();
}

/**
 * Decides an open request, once: false when it was decided meanwhile (the second of two clicks,
 * or another provider). Called first in the decision's transaction, so the second waits for the
 * first and then finds it decided.
 */
export async function decideRequest(
  db: Db,
  id: number,
  decision: {
    status: 'APPROVED' | 'DECLINED' | 'ANSWERED';
    outcome: RequestOutcome;
    staffId: number;
    refillDate: string | null;
    now: string;
  },
): Promise<boolean> {
  const result = await db
    .updateTable('treatment_requests')
    .set({
      status: decision.status,
      outcome: decision.outcome,
      decided_by: decision.staffId,
      decided_at: decision.now,
      refill_date: decision.refillDate,
    })
    .where('id', '=', id)
    .where('status', '=', 'OPEN')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function setNewPrescription(db: Db, id: number, prescriptionId: number) {
  await db
    .updateTable('treatment_requests')
    .set({ new_prescription_id: prescriptionId })
    .where('id', '=', id)
    .execute();
}
