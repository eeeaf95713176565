import { sql, type Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import type { SubscriptionFrequency, SubscriptionStatus } from '#shared/subscriptions.ts';

type Db = Kysely<Database>;

export interface NewSubscription {
  customerId: number;
  productId: number;
  frequency: SubscriptionFrequency;
  quantity: number;
  unitPriceCents: number;
  nextBillingDate: string;
  anchorDay: number;
  createdOrderId: number | null;
  status?: SubscriptionStatus;
  now: string;
}

/** A prescription refill plan: what it sells is copied in, since it is not a catalogue product. */
export interface NewRefill {
  customerId: number;
  prescriptionId: number;
  refills: number;
  validUntil: string;
  name: string;
  image: string;
  category: string;
  unitPriceCents: number;
  nextBillingDate: string;
  anchorDay: number;
  createdOrderId: number;
  now: string;
}

/** Inserts the plan once per prescription; false when it already exists. */
export async function insertRefill(db: Db, r: NewRefill): Promise<boolean> {
  const result = await db
    .insertInto('subscriptions')
    .values({
      customer_id: r.customerId,
      product_id: null,
      frequency: 'MONTHLY',
      quantity: 1,
      unit_price_cents: r.unitPriceCents,
      status: 'ACTIVE',
      next_billing_date: r.nextBillingDate,
      billing_anchor_day: r.anchorDay,
      created_order_id: r.createdOrderId,
      created_at: r.now,
      updated_at: r.now,
      prescription_id: r.prescriptionId,
      refills_remaining: r.refills,
      refill_until: r.validUntil,
      item_name: r.name,
      item_image: r.image,
      item_category: r.category,
    })
    .onConflict((oc) => oc.column('prescription_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return result !== undefined;
}

export async function insertSubscription(db: Db, s: NewSubscription): Promise<number> {
  const row = await db
    .insertInto('subscriptions')
    .values({
      customer_id: s.customerId,
      product_id: s.productId,
      frequency: s.frequency,
      quantity: s.quantity,
      unit_price_cents: s.unitPriceCents,
      status: s.status ?? 'ACTIVE',
      next_billing_date: s.nextBillingDate,
      billing_anchor_day: s.anchorDay,
      paused_until: null,
      cancelled_at: null,
      cancel_reason: null,
      created_order_id: s.createdOrderId,
      created_at: s.now,
      updated_at: s.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A gift or a couples' plan, started when the other partner accepts (decision 018). */
export interface NewTogetherSubscription {
  customerId: number;
  productId: number;
  frequency: SubscriptionFrequency;
  quantity: number;
  unitPriceCents: number;
  nextBillingDate: string;
  anchorDay: number;
  gift: { recipientId: number; shipTo: 'shipping' | 'billing' } | null;
  planPartner: PlanPartnerLine | null;
  now: string;
}

export async function insertTogetherSubscription(
  db: Db,
  s: NewTogetherSubscription,
): Promise<number> {
  const row = await db
    .insertInto('subscriptions')
    .values({
      customer_id: s.customerId,
      product_id: s.productId,
      frequency: s.frequency,
      quantity: s.quantity,
      unit_price_cents: s.unitPriceCents,
      status: 'ACTIVE',
      next_billing_date: s.nextBillingDate,
      billing_anchor_day: s.anchorDay,
      paused_until: null,
      cancelled_at: null,
      cancel_reason: null,
      created_order_id: null,
      created_at: s.now,
      updated_at: s.now,
      recipient_id: s.gift?.recipientId ?? null,
      ship_to: s.gift?.shipTo ?? null,
      plan_partner_id: s.planPartner?.customerId ?? null,
      plan_partner_product_id: s.planPartner?.productId ?? null,
      plan_partner_quantity: s.planPartner?.quantity ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A gift's recipient picks another of their addresses. */
export async function setShipTo(
  db: Db,
  id: number,
  shipTo: 'shipping' | 'billing',
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('subscriptions')
    .set({ ship_to: shipTo, updated_at: now })
    .where('id', '=', id)
    .where('recipient_id', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export interface RefillPlan {
  prescriptionId: number;
  remaining: number;
  /** The prescription's last valid day: no refill bills after it. */
  until: string;
  name: string;
  image: string;
  category: string;
}

/** A couples' plan's second line: the partner's supplement, delivered and charged with this one. */
export interface PlanPartnerLine {
  customerId: number;
  productId: number;
  quantity: number;
}

export interface SubscriptionRow {
  id: number;
  customerId: number;
  /** The catalogue offer; null for a refill plan. */
  productId: number | null;
  frequency: SubscriptionFrequency;
  quantity: number;
  unitPriceCents: number;
  status: SubscriptionStatus;
  nextBillingDate: string;
  anchorDay: number;
  pausedUntil: string | null;
  cancelReason: string | null;
  updatedAt: string;
  refill: RefillPlan | null;
  /** A gift: its recipient and which of their addresses it ships to (the payer is customerId). */
  gift: { recipientId: number; shipTo: 'shipping' | 'billing' } | null;
  /** A couples' plan: the partner's line. */
  planPartner: PlanPartnerLine | null;
  /** Where the last paid period moved the billing date; null before one was paid (migration 0030). */
  paidThrough: string | null;
}

const columns = [
  'id',
  'customer_id',
  'product_id',
  'frequency',
  'quantity',
  'unit_price_cents',
  'status',
  'next_billing_date',
  'billing_anchor_day',
  'paused_until',
  'cancel_reason',
  'updated_at',
  'prescription_id',
  'refills_remaining',
  'refill_until',
  'item_name',
  'item_image',
  'item_category',
  'recipient_id',
  'ship_to',
  'plan_partner_id',
  'plan_partner_product_id',
  'plan_partner_quantity',
  'paid_through',
] as const;

function toRow(r: {
  id: number;
  customer_id: number;
  product_id: number | null;
  frequency: SubscriptionFrequency;
  quantity: number;
  unit_price_cents: number;
  status: SubscriptionStatus;
  next_billing_date: string;
  billing_anchor_day: number;
  paused_until: string | null;
  cancel_reason: string | null;
  updated_at: string;
  prescription_id: number | null;
  refills_remaining: number | null;
  refill_until: string | null;
  item_name: string | null;
  item_image: string | null;
  item_category: string | null;
  recipient_id: number | null;
  ship_to: 'shipping' | 'billing' | null;
  plan_partner_id: number | null;
  plan_partner_product_id: number | null;
  plan_partner_quantity: number | null;
  paid_through: string | null;
}): SubscriptionRow {
  return {
    id: r.id,
    customerId: r.customer_id,
    productId: r.product_id,
    frequency: r.frequency,
    quantity: r.quantity,
    unitPriceCents: r.unit_price_cents,
    status: r.status,
    nextBillingDate: r.next_billing_date,
    anchorDay: r.billing_anchor_day,
    pausedUntil: r.paused_until,
    cancelReason: r.cancel_reason,
    updatedAt: r.updated_at,
    refill:
      r.prescription_id === null
        ? null
        : {
            prescriptionId: r.prescription_id,
            remaining: r.refills_remaining ?? 0,
            until: r.refill_until ?? r.next_billing_date,
            name: r.item_name ?? 'Prescription refill',
            image: r.item_image ?? '',
            category: r.item_category ?? '',
          },
    gift:
      r.recipient_id === null
        ? null
        : { recipientId: r.recipient_id, shipTo: r.ship_to === 'billing' ? 'billing' : 'shipping' },
    planPartner:
      r.plan_partner_id === null ||
      r.plan_partner_product_id === null ||
      r.plan_partner_quantity === null
        ? null
        : {
            customerId: r.plan_partner_id,
            productId: r.plan_partner_product_id,
            quantity: r.plan_partner_quantity,
          },
    paidThrough: r.paid_through,
  };
}

/** The statuses of a gift or plan still running; once ended it is only in the partner history. */
const runningStatuses = ['ACTIVE', 'PAUSED', 'PAST_DUE'] as const;

/** A subscription on a customer's list: for a gift or plan, the first names of both people. */
export interface ListedSubscriptionRow extends SubscriptionRow {
  /** The payer's first name (customerId's). */
  payerFirstName: string;
  /** A gift's recipient's or a plan partner's first name; null for the payer's own subscription. */
  otherFirstName: string | null;
}

/**
 * Every subscription a customer has on their Subscriptions page: their own, and the gifts and
 * couples' plans they pay for, receive or share while these run (issue 26). One select per way of
 * belonging, each on its own index (`subscriptions_customer_status_idx`, the partial
 * `subscriptions_recipient_idx` and `subscriptions_plan_partner_idx`), where one `or` over the
 * three columns may read the whole table.
 */
export async function selectSubscriptionsOf(
  db: Db,
  customerId: number,
): Promise<ListedSubscriptionRow[]> {
  const listed = () =>
    db
      .selectFrom('subscriptions as s')
      .select(columns.map((column) => `s.${column}` as const))
      .select((eb) => [
        's.created_at',
        eb
          .selectFrom('customers as c')
          .select('c.first_name')
          .whereRef('c.id', '=', 's.customer_id')
          .as('payer_first_name'),
        eb
          .selectFrom('customers as c')
          .select('c.first_name')
          .where((w) =>
            w.or([
              w('c.id', '=', w.ref('s.recipient_id')),
              w('c.id', '=', w.ref('s.plan_partner_id')),
            ]),
          )
          .as('other_first_name'),
      ]);
  const rows = await listed()
    .where('s.customer_id', '=', customerId)
    .where((eb) =>
      eb.or([
        eb.and([eb('s.recipient_id', 'is', null), eb('s.plan_partner_id', 'is', null)]),
        eb('s.status', 'in', runningStatuses),
      ]),
    )
    .unionAll(
      listed().where('s.recipient_id', '=', customerId).where('s.status', 'in', runningStatuses),
    )
    .unionAll(
      listed().where('s.plan_partner_id', '=', customerId).where('s.status', 'in', runningStatuses),
    )
    .execute();
  return rows
    .sort((a, b) =>
      a.created_at === b.created_at ? a.id - b.id : a.created_at < b.created_at ? -1 : 1,
    )
    .map((r) => ({
      ...toRow(r),
      payerFirstName: r.payer_first_name ?? '',
      otherFirstName:
        r.recipient_id === null && r.plan_partner_id === null ? null : (r.other_first_name ?? ''),
    }));
}

export interface SupplementSubscriptionRow {
  productName: string;
  frequency: 'MONTHLY' | 'QUARTERLY';
  quantity: number;
  status: 'ACTIVE' | 'PAUSED';
  nextBillingDate: string;
}

/**
 * The customer's own supplement subscriptions that are running or paused: a catalogue product (a
 * prescription refill plan has none), neither a gift nor a couples' plan. What a linked partner
 * sees when subscriptions are shared (issue 16).
 */
export async function selectRunningSupplementsOf(
  db: Db,
  customerId: number,
): Promise<SupplementSubscriptionRow[]> {
  const rows = await db
    .selectFrom('subscriptions')
    .innerJoin('products', 'products.id', 'subscriptions.product_id')
    .innerJoin('product_lines', 'product_lines.id', 'products.line_id')
    .select([
      'product_lines.name',
      'subscriptions.frequency',
      'subscriptions.quantity',
      'subscriptions.status',
      'subscriptions.next_billing_date',
    ])
    .where('subscriptions.customer_id', '=', customerId)
    .where('subscriptions.product_id', 'is not', null)
    .where('subscriptions.prescription_id', 'is', null)
    // Gifts and couples' plans show in their own section, to both partners (decision 018).
    .where('subscriptions.recipient_id', 'is', null)
    .where('subscriptions.plan_partner_id', 'is', null)
    .where('subscriptions.status', 'in', ['ACTIVE', 'PAUSED'])
    .orderBy('subscriptions.id')
    .execute();
  return rows.map((r) => ({
    productName: r.name,
    frequency: r.frequency,
    quantity: r.quantity,
    status: r.status === 'PAUSED' ? 'PAUSED' : 'ACTIVE',
    nextBillingDate: r.next_billing_date,
  }));
}

export async function selectSubscription(db: Db, id: number): Promise<SubscriptionRow | undefined> {
  const row = await db
    .selectFrom('subscriptions')
    .select(columns)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toRow(row);
}

/**
 * Saves a changed subscription only if nobody changed it since it was read (compare-and-set on
 * `updated_at`): true when saved.
 */
export async function saveSubscription(
  db: Db,
  id: number,
  expectedUpdatedAt: string,
  next: Omit<SubscriptionRow, 'id' | 'customerId' | 'updatedAt' | 'refill'> & {
    cancelledAt?: string | null;
  },
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('subscriptions')
    .set({
      product_id: next.productId,
      frequency: next.frequency,
      quantity: next.quantity,
      unit_price_cents: next.unitPriceCents,
      status: next.status,
      next_billing_date: next.nextBillingDate,
      billing_anchor_day: next.anchorDay,
      paused_until: next.pausedUntil,
      cancel_reason: next.cancelReason,
      ...(next.cancelledAt !== undefined ? { cancelled_at: next.cancelledAt } : {}),
      updated_at: now,
    })
    .where('id', '=', id)
    .where('updated_at', '=', expectedUpdatedAt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Active subscriptions whose billing date has come, oldest first; with `after`, only those past that
 * place in the same order (billing walks the due list a small batch at a time).
 */
export async function selectDueSubscriptions(
  db: Db,
  today: string,
  limit: number,
  after?: { date: string; id: number },
): Promise<SubscriptionRow[]> {
  let query = db
    .selectFrom('subscriptions')
    .select(columns)
    .where('status', '=', 'ACTIVE')
    .where('next_billing_date', '<=', today);
  if (after)
    query = query.where((eb) =>
      eb.or([
        eb('next_billing_date', '>', after.date),
        eb.and([eb('next_billing_date', '=', after.date), eb('id', '>', after.id)]),
      ]),
    );
  const rows = await query.orderBy('next_billing_date').orderBy('id').limit(limit).execute();
  return rows.map(toRow);
}

/** Paused subscriptions whose pause ends today or earlier become active again. */
export async function resumeEndedPauses(db: Db, today: string, now: string): Promise<number> {
  const result = await db
    .updateTable('subscriptions')
    .set({ status: 'ACTIVE', paused_until: null, updated_at: now })
    .where('status', '=', 'PAUSED')
    .where('paused_until', 'is not', null)
    .where('paused_until', '<=', today)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Moves a period on once: only while the subscription still bills on `period`. */
export async function advancePeriod(
  db: Db,
  id: number,
  period: string,
  nextDate: string,
  now: string,
): Promise<boolean> {
  // A refill plan uses one fill per paid period and is complete when none are left, or when the
  // next one would bill after the prescription's last valid day.
  const result = await db
    .updateTable('subscriptions')
    .set({
      next_billing_date: nextDate,
      paid_through: nextDate,
      refills_remaining: sql<number | null>`case when prescription_id is null then null
        else refills_remaining - 1 end`,
      status: sql<SubscriptionStatus>`case when prescription_id is not null
        and (refills_remaining <= 1 or refill_until < ${nextDate}) then 'COMPLETED' else 'ACTIVE' end`,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('next_billing_date', '=', period)
    // Past due, or paused after its retries failed (no end date): paying the period resumes it.
    .where((eb) =>
      eb.or([
        eb('status', 'in', ['ACTIVE', 'PAST_DUE']),
        eb.and([eb('status', '=', 'PAUSED'), eb('paused_until', 'is', null)]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * A renewal's claim on its period, in the transaction that creates the renewal order: the row is
 * written (so PostgreSQL holds its lock until that transaction ends, and a change waits for it) only
 * while it is still active and still due for exactly this period. A cancel, skip, pause or moved
 * date that committed first makes it claim nothing.
 */
export async function claimPeriod(
  db: Db,
  id: number,
  period: string,
  today: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('subscriptions')
    .set({ updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'ACTIVE')
    .where('next_billing_date', '=', period)
    .where('next_billing_date', '<=', today)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * A charge's claim on the subscription whose order it pays (a renewal resumed, a retry, a card
 * update), in the transaction that writes the charge down: true while the subscription still owes
 * its orders (active, past due, or paused after failed retries: the states `advancePeriod` resumes).
 */
export async function claimForCharge(db: Db, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('subscriptions')
    .set({ updated_at: now })
    .where('id', '=', id)
    .where((eb) =>
      eb.or([
        eb('status', 'in', ['ACTIVE', 'PAST_DUE']),
        eb.and([eb('status', '=', 'PAUSED'), eb('paused_until', 'is', null)]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ends refill plans that can bill no more (no fills left, or past the prescription's last day). */
export async function completeFinishedRefills(db: Db, today: string, now: string): Promise<number> {
  const result = await db
    .updateTable('subscriptions')
    .set({ status: 'COMPLETED', paused_until: null, updated_at: now })
    .where('prescription_id', 'is not', null)
    .where('status', 'in', ['ACTIVE', 'PAUSED'])
    .where((eb) =>
      eb.or([
        eb('refills_remaining', '<=', 0),
        eb('refill_until', '<', eb.ref('next_billing_date')),
        eb('refill_until', '<', today),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Cancels a subscription that has not ended yet: true when this call cancelled it. */
export async function cancelSubscription(
  db: Db,
  id: number,
  reason: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('subscriptions')
    .set({
      status: 'CANCELLED',
      paused_until: null,
      cancel_reason: reason,
      cancelled_at: now,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('status', 'in', ['ACTIVE', 'PAUSED', 'PAST_DUE'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function setStatus(
  db: Db,
  id: number,
  from: SubscriptionStatus[],
  to: SubscriptionStatus,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('subscriptions')
    .set({ status: to, updated_at: now, ...(to === 'PAUSED' ? { paused_until: null } : {}) })
    .where('id', '=', id)
    .where('status', 'in', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The earliest billing date among the customer's active subscriptions. */
/**
 * Active subscriptions that bill after `today` and no later than `until`, whose coming billing date
 * has not been announced yet, in id order from `afterId` (the reminder job walks them a batch at a
 * time).
 */
export async function selectRenewalsToRemind(
  db: Db,
  today: string,
  until: string,
  limit: number,
  afterId: number,
): Promise<SubscriptionRow[]> {
  const rows = await db
    .selectFrom('subscriptions')
    .select(columns)
    .where('status', '=', 'ACTIVE')
    .where('next_billing_date', '>', today)
    .where('next_billing_date', '<=', until)
    .where('id', '>', afterId)
    // A refill plan that will not bill that day (no fills left, past its prescription) is ending.
    .where((eb) =>
      eb.or([
        eb('prescription_id', 'is', null),
        eb.and([
          eb('refills_remaining', '>', 0),
          eb('refill_until', '>=', eb.ref('next_billing_date')),
        ]),
      ]),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('renewal_reminders')
            .select('renewal_reminders.id')
            .whereRef('renewal_reminders.subscription_id', '=', 'subscriptions.id')
            .whereRef('renewal_reminders.billing_period', '=', 'subscriptions.next_billing_date'),
        ),
      ),
    )
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(toRow);
}

/**
 * Claims a subscription's reminder for one billing period, only while the subscription is still
 * active and still bills on that day: true when this call claimed it (first one wins).
 */
export async function claimRenewalReminder(
  db: Db,
  subscriptionId: number,
  period: string,
  now: string,
): Promise<boolean> {
  // One statement that writes first: on SQLite it takes the write lock before reading anything.
  const row = await db
    .insertInto('renewal_reminders')
    .columns(['subscription_id', 'billing_period', 'sent_at'])
    .expression((eb) =>
      eb
        .selectFrom('subscriptions')
        .select([
          'subscriptions.id',
          eb.val(period).as('billing_period'),
          eb.val(now).as('sent_at'),
        ])
        .where('subscriptions.id', '=', subscriptionId)
        .where('subscriptions.status', '=', 'ACTIVE')
        .where('subscriptions.next_billing_date', '=', period),
    )
    .onConflict((oc) => oc.columns(['subscription_id', 'billing_period']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

// --- Refill plans across a renewal (issue 29) ---------------------------------------------------

/** The refill plans of these prescriptions (one each at most). */
export async function selectRefillPlans(
  db: Db,
  prescriptionIds: number[],
): Promise<SubscriptionRow[]> {
  if (prescriptionIds.length === 0) return [];
  const rows = await db
    .selectFrom('subscriptions')
    .select(columns)
    .where('prescription_id', 'in', prescriptionIds)
    .execute();
  return rows.map(toRow);
}

/**
 * An approved renewal: the plan of the renewed prescription goes on under the new one, with its
 * fills and last day, from the date it already bills next (or `today`, when that has passed while
 * the plan was complete). The row is the same, so a period is still claimed and charged once
 * (`claimPeriod`). False when the plan has been cancelled meanwhile (the patient's word stands).
 */
export async function moveRefillPlan(
  db: Db,
  change: {
    fromPrescriptionId: number;
    toPrescriptionId: number;
    fills: number;
    validUntil: string;
    name: string;
    today: string;
    now: string;
  },
): Promise<boolean> {
  const result = await db
    .updateTable('subscriptions')
    .set({
      prescription_id: change.toPrescriptionId,
      refills_remaining: change.fills,
      refill_until: change.validUntil,
      item_name: change.name,
      status: sql<SubscriptionStatus>`case when status = 'COMPLETED' then 'ACTIVE' else status end`,
      next_billing_date: sql<string>`case when status = 'COMPLETED' and next_billing_date < ${change.today}
        then ${change.today} else next_billing_date end`,
      updated_at: change.now,
    })
    .where('prescription_id', '=', change.fromPrescriptionId)
    .where('status', 'in', ['ACTIVE', 'PAUSED', 'PAST_DUE', 'COMPLETED'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
