import { sql, type Kysely } from 'kysely';
import type { Database, VisitsTable } from '#server/db/schema.ts';
import type { AnswerValue, Answers } from '#shared/questionnaires/format.ts';

/**
 * An open visit's status, written into the SQL instead of bound: it is the condition of the
 * partial index of open visits, and SQLite prepares a statement again on every run when a bound
 * value decides whether a partial index applies (decision 017).
 */
const IN_PROGRESS = sql.lit('IN_PROGRESS' as const);

type Db = Kysely<Database>;

export interface VisitRow {
  id: number;
  customerId: number;
  category: VisitsTable['category'];
  status: VisitsTable['status'];
  step: VisitsTable['step'];
  questionnaireId: string;
  questionnaireVersion: string;
  currentLinkId: string | null;
  state: string | null;
  dob: string | null;
  closedReason: string | null;
  reviewRequestedAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** A first visit, or a renewal of `renewsPrescriptionId` (issue 29). */
  kind: 'intake' | 'renewal';
  renewsPrescriptionId: number | null;
}

const columns = [
  'id',
  'customer_id',
  'category',
  'status',
  'step',
  'questionnaire_id',
  'questionnaire_version',
  'current_link_id',
  'state',
  'dob',
  'closed_reason',
  'review_requested_at',
  'created_at',
  'updated_at',
  'kind',
  'renews_prescription_id',
] as const;

function toVisit(r: {
  id: number;
  customer_id: number;
  category: VisitsTable['category'];
  status: VisitsTable['status'];
  step: VisitsTable['step'];
  questionnaire_id: string;
  questionnaire_version: string;
  current_link_id: string | null;
  state: string | null;
  dob: string | null;
  closed_reason: string | null;
  review_requested_at: string | null;
  created_at: string;
  updated_at: string;
  kind: 'intake' | 'renewal';
  renews_prescription_id: number | null;
}): VisitRow {
  return {
    id: r.id,
    customerId: r.customer_id,
    category: r.category,
    status: r.status,
    step: r.step,
    questionnaireId: r.questionnaire_id,
    questionnaireVersion: r.questionnaire_version,
    currentLinkId: r.current_link_id,
    state: r.state,
    dob: r.dob,
    closedReason: r.closed_reason,
    reviewRequestedAt: r.review_requested_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    kind: r.kind,
    renewsPrescriptionId: r.renews_prescription_id,
  };
}

export async function selectVisit(db: Db, id: number): Promise<VisitRow | undefined> {
  const row = await db.selectFrom('visits').select(columns).where('id', '=', id).executeTakeFirst();
  return row && toVisit(row);
}

export async function selectOpenVisit(
  db: Db,
  customerId: number,
  category: VisitsTable['category'],
): Promise<VisitRow | undefined> {
  const row = await db
    .selectFrom('visits')
    .select(columns)
    .where('customer_id', '=', customerId)
    .where('category', '=', category)
    .where('status', '=', IN_PROGRESS)
    .executeTakeFirst();
  return row && toVisit(row);
}

export async function selectOpenVisitsOf(db: Db, customerId: number): Promise<VisitRow[]> {
  const rows = await db
    .selectFrom('visits')
    .select(columns)
    .where('customer_id', '=', customerId)
    .where('status', '=', IN_PROGRESS)
    .orderBy('created_at')
    .execute();
  return rows.map(toVisit);
}

/** The patient's newest visit for each program they started, newest first. */
export async function selectLatestVisitsOf(db: Db, customerId: number): Promise<VisitRow[]> {
  const rows = await db
    .selectFrom('visits')
    .select(columns)
    .where('customer_id', '=', customerId)
    .orderBy('id', 'desc')
    .execute();
  const latest = new Map<string, VisitRow>();
  for (const row of rows) if (!latest.has(row.category)) latest.set(row.category, toVisit(row));
  return [...latest.values()];
}

/**
 * The programs the customer finished a visit of: decided by a provider (approved or declined).
 * Only the program leaves this query: never a visit's id, status or answers.
 */
export async function selectFinishedPrograms(
  db: Db,
  customerId: number,
): Promise<VisitsTable['category'][]> {
  const rows = await db
    .selectFrom('visits')
    .select('category')
    .distinct()
    .where('customer_id', '=', customerId)
    .where('status', 'in', ['APPROVED', 'DECLINED'])
    .orderBy('category')
    .execute();
  return rows.map((r) => r.category);
}

/**
 * A visit closed by a confirmed knock-out answer goes to a provider as answered: under review,
 * marked as the patient's request, nothing held on the card. Once; false if it is not (or no
 * longer) such a visit.
 */
export async function markReviewRequested(
  db: Db,
  visitId: number,
  providerId: number | null,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('visits')
    .set({
      status: 'PENDING_REVIEW',
      provider_id: providerId,
      submitted_at: now,
      review_requested_at: now,
      updated_at: now,
    })
    .where('id', '=', visitId)
    .where('status', '=', 'DISQUALIFIED')
    .where('review_requested_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Opens a visit unless one is already in progress for this program (the partial unique index decides). */
export async function insertVisit(
  db: Db,
  visit: {
    customerId: number;
    category: VisitsTable['category'];
    questionnaireId: string;
    questionnaireVersion: string;
    now: string;
  },
): Promise<void> {
  await db
    .insertInto('visits')
    .values({
      customer_id: visit.customerId,
      category: visit.category,
      status: 'IN_PROGRESS',
      step: 'eligibility',
      questionnaire_id: visit.questionnaireId,
      questionnaire_version: visit.questionnaireVersion,
      created_at: visit.now,
      updated_at: visit.now,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function updateVisit(
  db: Db,
  id: number,
  change: Partial<{
    status: VisitsTable['status'];
    step: VisitsTable['step'];
    currentLinkId: string | null;
    state: string;
    dob: string;
    closedReason: string;
  }> & { now: string },
): Promise<void> {
  await db
    .updateTable('visits')
    .set({
      updated_at: change.now,
      ...(change.status !== undefined ? { status: change.status } : {}),
      ...(change.step !== undefined ? { step: change.step } : {}),
      ...(change.currentLinkId !== undefined ? { current_link_id: change.currentLinkId } : {}),
      ...(change.state !== undefined ? { state: change.state } : {}),
      ...(change.dob !== undefined ? { dob: change.dob } : {}),
      ...(change.closedReason !== undefined ? { closed_reason: change.closedReason } : {}),
    })
    .where('id', '=', id)
    .execute();
}

export async function selectAnswers(db: Db, visitId: number): Promise<Answers> {
  const rows = await db
    .selectFrom('visit_answers')
    .select(['link_id', 'value'])
    .where('visit_id', '=', visitId)
    .execute();
  const answers: Answers = {};
  for (const row of rows) answers[row.link_id] = JSON.parse(row.value) as AnswerValue;
  return answers;
}

export async function upsertAnswer(
  db: Db,
  visitId: number,
  linkId: string,
  value: AnswerValue,
  now: string,
): Promise<void> {
  const json = JSON.stringify(value);
  await db
    .insertInto('visit_answers')
    .values({ visit_id: visitId, link_id: linkId, value: json, answered_at: now })
    .onConflict((oc) =>
      oc.columns(['visit_id', 'link_id']).doUpdateSet({ value: json, answered_at: now }),
    )
    .execute();
}

export async function selectPreferences(db: Db, visitId: number): Promise<Record<string, unknown>> {
  const row = await db
    .selectFrom('visits')
    .select('preferences')
    .where('id', '=', visitId)
    .executeTakeFirst();
  return row ? (JSON.parse(row.preferences) as Record<string, unknown>) : {};
}

export async function savePreferences(
  db: Db,
  visitId: number,
  preferences: Record<string, unknown>,
  step: VisitsTable['step'],
  now: string,
): Promise<void> {
  await db
    .updateTable('visits')
    .set({ preferences: JSON.stringify(preferences), step, updated_at: now })
    .where('id', '=', visitId)
    .execute();
}

export async function attachPhoto(
  db: Db,
  visitId: number,
  uploadId: number,
  now: string,
): Promise<void> {
  await db
    .updateTable('visits')
    .set({ photo_upload_id: uploadId, step: 'consent', updated_at: now })
    .where('id', '=', visitId)
    .execute();
}

export async function recordConsent(db: Db, visitId: number, now: string): Promise<void> {
  await db
    .updateTable('visits')
    .set({ consent_at: now, step: 'checkout', updated_at: now })
    .where('id', '=', visitId)
    .execute();
}

export async function selectVisitPhoto(db: Db, visitId: number): Promise<number | null> {
  const row = await db
    .selectFrom('visits')
    .select('photo_upload_id')
    .where('id', '=', visitId)
    .executeTakeFirst();
  return row?.photo_upload_id ?? null;
}

/** The orders of the visits waiting for a provider: each holds an amount on the patient's card. */
export async function selectOrdersAwaitingReview(db: Db): Promise<number[]> {
  const rows = await db
    .selectFrom('visits')
    .select('order_id')
    .where('status', '=', 'PENDING_REVIEW')
    .where('order_id', 'is not', null)
    .execute();
  return rows.flatMap((row) => (row.order_id === null ? [] : [row.order_id]));
}

export async function markSubmitted(
  db: Db,
  visitId: number,
  orderId: number,
  providerId: number | null,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('visits')
    .set({
      status: 'PENDING_REVIEW',
      order_id: orderId,
      provider_id: providerId,
      submitted_at: now,
      updated_at: now,
    })
    .where('id', '=', visitId)
    .where('status', '=', 'IN_PROGRESS')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Of the providers licensed in a visit's state (the staff feature says who, by licences valid
 * today), the least busy: fewest visits waiting for them, then the longest on staff.
 */
export async function selectLeastBusy(
  db: Db,
  licensed: { id: number; name: string }[],
): Promise<{ id: number; name: string } | undefined> {
  if (licensed.length === 0) return undefined;
  const load = await db
    .selectFrom('visits')
    .select(['provider_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('status', '=', 'PENDING_REVIEW')
    .groupBy('provider_id')
    .execute();
  const waiting = (id: number) => Number(load.find((l) => l.provider_id === id)?.n ?? 0);
  const chosen = [...licensed].sort((a, b) => waiting(a.id) - waiting(b.id) || a.id - b.id)[0];
  return chosen && { id: chosen.id, name: chosen.name };
}

export interface QueueRow {
  visitId: number;
  category: VisitsTable['category'];
  state: string;
  dob: string;
  firstName: string;
  lastName: string;
  submittedAt: string;
  customerId: number;
  /** The patient asked for this review after a knock-out answer (no payment is held). */
  reviewRequested: boolean;
  /** A first visit, or a renewal (issue 29). */
  kind: 'intake' | 'renewal';
}

/** Visits waiting for review in these states, oldest first. */
export async function selectReviewQueue(db: Db, states: string[]): Promise<QueueRow[]> {
  if (states.length === 0) return [];
  const rows = await db
    .selectFrom('visits as v')
    .innerJoin('customers as c', 'c.id', 'v.customer_id')
    .select([
      'v.id',
      'v.category',
      'v.state',
      'v.dob',
      'v.submitted_at',
      'c.first_name',
      'c.last_name',
      'c.id as customer_id',
      'v.review_requested_at',
      'v.kind',
    ])
    .where('v.status', '=', 'PENDING_REVIEW')
    .where('v.state', 'in', states)
    .orderBy('v.submitted_at')
    .orderBy('v.id')
    .execute();
  return rows.map((r) => ({
    visitId: r.id,
    category: r.category,
    state: r.state ?? '',
    dob: r.dob ?? '',
    firstName: r.first_name,
    lastName: r.last_name,
    submittedAt: r.submitted_at ?? '',
    customerId: r.customer_id,
    reviewRequested: r.review_requested_at !== null,
    kind: r.kind,
  }));
}

export async function selectChartBase(db: Db, visitId: number) {
  const row = await db
    .selectFrom('visits as v')
    .innerJoin('customers as c', 'c.id', 'v.customer_id')
    .select([
      'v.id',
      'v.status',
      'v.category',
      'v.state',
      'v.dob',
      'v.questionnaire_id',
      'v.questionnaire_version',
      'v.preferences',
      'v.photo_upload_id',
      'v.order_id',
      'v.review_requested_at',
      'v.customer_id',
      'v.closed_reason',
      'v.provider_id',
      'v.updated_at',
      'v.kind',
      'v.renews_prescription_id',
      'v.submitted_at',
      'c.first_name',
      'c.last_name',
      'c.email',
    ])
    .where('v.id', '=', visitId)
    .executeTakeFirst();
  return row;
}

/** Moves a visit under review to its decision, once. */
export async function decideVisit(
  db: Db,
  visitId: number,
  status: 'APPROVED' | 'DECLINED',
  reason: string | null,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('visits')
    .set({ status, closed_reason: reason, updated_at: now })
    .where('id', '=', visitId)
    .where('status', '=', 'PENDING_REVIEW')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The prescription a visit's approval wrote, if any. */
export async function selectVisitPrescription(db: Db, visitId: number) {
  return (
    db
      .selectFrom('prescriptions')
      .select(['drug', 'dosage', 'quantity', 'refills', 'directions', 'valid_until', 'provider_id'])
      .where('visit_id', '=', visitId)
      // The visit's own; a dose change later written on its chart has a request (migration 0041).
      .where('request_id', 'is', null)
      .executeTakeFirst()
  );
}

export async function insertPrescription(
  db: Db,
  p: {
    visitId: number;
    customerId: number;
    providerId: number;
    drug: string;
    dosage: string;
    quantity: number;
    refills: number;
    validUntil: string;
    directions: string | null;
    /** The request whose decision writes it (a dose change); none for a visit's own. */
    requestId?: number;
    now: string;
  },
): Promise<number> {
  const row = await db
    .insertInto('prescriptions')
    .values({
      request_id: p.requestId ?? null,
      visit_id: p.visitId,
      customer_id: p.customerId,
      provider_id: p.providerId,
      drug: p.drug,
      dosage: p.dosage,
      quantity: p.quantity,
      refills: p.refills,
      valid_until: p.validUntil,
      directions: p.directions,
      created_at: p.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function selectProviderName(db: Db, visitId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('visits as v')
    .innerJoin('staff_users as s', 's.id', 'v.provider_id')
    .select('s.name')
    .where('v.id', '=', visitId)
    .executeTakeFirst();
  return row?.name;
}

export async function insertFeedback(
  db: Db,
  f: {
    customerId: number;
    visitId: number | null;
    kind: 'survey' | 'feedback';
    rating: number | null;
    wouldRecommend: boolean | null;
    comments: string | null;
    now: string;
  },
): Promise<void> {
  await db
    .insertInto('feedback')
    .values({
      customer_id: f.customerId,
      visit_id: f.visitId,
      kind: f.kind,
      rating: f.rating,
      would_recommend: f.wouldRecommend === null ? null : f.wouldRecommend ? 1 : 0,
      comments: f.comments,
      created_at: f.now,
    })
    .execute();
}

// --- Renewals (issue 29) -----------------------------------------------------------------------

/** A prescription, with the program and the patient's state it was written for. */
export interface PrescriptionRow {
  id: number;
  visitId: number;
  customerId: number;
  providerId: number;
  category: VisitsTable['category'];
  state: string | null;
  dob: string | null;
  drug: string;
  dosage: string;
  quantity: number;
  refills: number;
  directions: string | null;
  validUntil: string;
  createdAt: string;
  renewalRemindedAt: string | null;
}

const prescriptionColumns = [
  'p.id',
  'p.visit_id',
  'p.customer_id',
  'p.provider_id',
  'v.category',
  'v.state',
  'v.dob',
  'p.drug',
  'p.dosage',
  'p.quantity',
  'p.refills',
  'p.directions',
  'p.valid_until',
  'p.created_at',
  'p.renewal_reminded_at',
] as const;

function toPrescription(r: {
  id: number;
  visit_id: number;
  customer_id: number;
  provider_id: number;
  category: VisitsTable['category'];
  state: string | null;
  dob: string | null;
  drug: string;
  dosage: string;
  quantity: number;
  refills: number;
  directions: string | null;
  valid_until: string;
  created_at: string;
  renewal_reminded_at: string | null;
}): PrescriptionRow {
  return {
    id: r.id,
    visitId: r.visit_id,
    customerId: r.customer_id,
    providerId: r.provider_id,
    category: r.category,
    state: r.state,
    dob: r.dob,
    drug: r.drug,
    dosage: r.dosage,
    quantity: r.quantity,
    refills: r.refills,
    directions: r.directions,
    validUntil: r.valid_until,
    createdAt: r.created_at,
    renewalRemindedAt: r.renewal_reminded_at,
  };
}

/** The customer's prescriptions, newest first. */
export async function selectPrescriptionsOf(
  db: Db,
  customerId: number,
): Promise<PrescriptionRow[]> {
  const rows = await db
    .selectFrom('prescriptions as p')
    .innerJoin('visits as v', 'v.id', 'p.visit_id')
    .select(prescriptionColumns)
    .where('p.customer_id', '=', customerId)
    .orderBy('p.id', 'desc')
    .execute();
  return rows.map(toPrescription);
}

export async function selectPrescription(db: Db, id: number): Promise<PrescriptionRow | undefined> {
  const row = await db
    .selectFrom('prescriptions as p')
    .innerJoin('visits as v', 'v.id', 'p.visit_id')
    .select(prescriptionColumns)
    .where('p.id', '=', id)
    .executeTakeFirst();
  return row && toPrescription(row);
}

/**
 * Prescriptions that may be due for renewal around `today`: written, valid until no earlier than
 * `from`, not reminded yet, in id order from `afterId` (the reminder job walks them a batch at a
 * time; whether each is due is the renewal rule's to say).
 */
export async function selectPrescriptionsToRemind(
  db: Db,
  from: string,
  limit: number,
  afterId: number,
): Promise<PrescriptionRow[]> {
  const rows = await db
    .selectFrom('prescriptions as p')
    .innerJoin('visits as v', 'v.id', 'p.visit_id')
    .select(prescriptionColumns)
    .where('p.renewal_reminded_at', 'is', null)
    .where('p.valid_until', '>=', from)
    .where('p.id', '>', afterId)
    .orderBy('p.id')
    .limit(limit)
    .execute();
  return rows.map(toPrescription);
}

/** Marks a prescription's renewal reminder sent, once: false when another run did. */
export async function markRenewalReminded(db: Db, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('prescriptions')
    .set({ renewal_reminded_at: now })
    .where('id', '=', id)
    .where('renewal_reminded_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The renewal visits of these prescriptions, newest first. */
export async function selectRenewalVisitsOf(
  db: Db,
  prescriptionIds: number[],
): Promise<VisitRow[]> {
  if (prescriptionIds.length === 0) return [];
  const rows = await db
    .selectFrom('visits')
    .select(columns)
    .where('renews_prescription_id', 'in', prescriptionIds)
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toVisit);
}

/**
 * Opens a renewal visit at its questions (the state and date of birth are the renewed visit's),
 * unless a visit of the program is already in progress (the partial unique index decides).
 */
export async function insertRenewalVisit(
  db: Db,
  visit: {
    customerId: number;
    category: VisitsTable['category'];
    questionnaireId: string;
    questionnaireVersion: string;
    prescriptionId: number;
    state: string | null;
    dob: string | null;
    now: string;
  },
): Promise<void> {
  await db
    .insertInto('visits')
    .values({
      customer_id: visit.customerId,
      category: visit.category,
      kind: 'renewal',
      renews_prescription_id: visit.prescriptionId,
      status: 'IN_PROGRESS',
      step: 'questions',
      questionnaire_id: visit.questionnaireId,
      questionnaire_version: visit.questionnaireVersion,
      state: visit.state,
      dob: visit.dob,
      created_at: visit.now,
      updated_at: visit.now,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** A renewal goes to its provider: no order, nothing held. Once. */
export async function markRenewalSubmitted(
  db: Db,
  visitId: number,
  providerId: number | null,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('visits')
    .set({
      status: 'PENDING_REVIEW',
      provider_id: providerId,
      consent_at: now,
      submitted_at: now,
      updated_at: now,
    })
    .where('id', '=', visitId)
    .where('kind', '=', 'renewal')
    .where('status', '=', IN_PROGRESS)
    .where('step', '=', 'consent')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
