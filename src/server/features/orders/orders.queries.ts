import { sql, type Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import type { OrderStatus } from '#shared/orders.ts';

type Db = Kysely<Database>;

export interface OrderItemRow {
  productName: string;
  productImage: string;
  category: string;
  frequency: string;
  unitPriceCents: number;
  quantity: number;
}

export interface OrderRow {
  id: number;
  orderNumber: string;
  status: OrderStatus;
  paymentStatus: string;
  totalCents: number;
  refundCents: number;
  trackingNumber: string | null;
  declineReason: string | null;
  createdAt: string;
  shipping: {
    address: string;
    address2: string;
    city: string;
    state: string;
    zip: string;
    country: string;
  };
  items: OrderItemRow[];
}

/** A customer's orders, newest first, each with its lines. */
export async function selectOrdersOf(db: Db, customerId: number): Promise<OrderRow[]> {
  const orders = await db
    .selectFrom('orders')
    .select([
      'id',
      'order_number',
      'status',
      'payment_status',
      'total_cents',
      'refund_cents',
      'tracking_number',
      'decline_reason',
      'created_at',
      'ship_address',
      'ship_address2',
      'ship_city',
      'ship_state',
      'ship_zip',
      'ship_country',
    ])
    .where('customer_id', '=', customerId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  if (orders.length === 0) return [];
  const items = await db
    .selectFrom('order_items')
    .select([
      'order_id',
      'product_name',
      'product_image',
      'category',
      'frequency',
      'unit_price_cents',
      'quantity',
    ])
    .where(
      'order_id',
      'in',
      orders.map((o) => o.id),
    )
    .orderBy('id')
    .execute();
  return orders.map((o) => ({
    id: o.id,
    orderNumber: o.order_number,
    status: o.status,
    paymentStatus: o.payment_status,
    totalCents: o.total_cents,
    refundCents: o.refund_cents,
    trackingNumber: o.tracking_number,
    declineReason: o.decline_reason,
    createdAt: o.created_at,
    shipping: {
      address: o.ship_address,
      address2: o.ship_address2,
      city: o.ship_city,
      state: o.ship_state,
      zip: o.ship_zip,
      country: o.ship_country,
    },
    items: items
      .filter((i) => i.order_id === o.id)
      .map((i) => ({
        productName: i.product_name,
        productImage: i.product_image,
        category: i.category,
        frequency: i.frequency,
        unitPriceCents: i.unit_price_cents,
        quantity: i.quantity,
      })),
  }));
}

/** The customer's most recent order whose payment failed and is still unpaid. */
export async function selectUnpaidOrder(
  db: Db,
  customerId: number,
): Promise<{ id: number; orderNumber: string } | undefined> {
  const row = await db
    .selectFrom('orders')
    .select(['id', 'order_number'])
    .where('customer_id', '=', customerId)
    .where('status', '=', 'PAYMENT_FAILED')
    .where('payment_status', '=', 'unpaid')
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return row && { id: row.id, orderNumber: row.order_number };
}

/** Orders that happened (any state but an attempt still being placed). */
export async function countPlacedOrders(db: Db, customerId: number): Promise<number> {
  const row = await db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('customer_id', '=', customerId)
    .where('payment_status', '!=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface NewOrder {
  customerId: number;
  kind: 'store' | 'renewal' | 'visit';
  idempotencyKey: string;
  subscriptionId?: number;
  billingPeriod?: string;
  subtotalCents: number;
  discountCents: number;
  totalCents: number;
  couponCode: string | null;
  clickId: string | null;
  shipping: {
    address: string;
    address2: string;
    city: string;
    state: string;
    zip: string;
    country: string;
  };
  lines: {
    productId: number;
    name: string;
    image: string;
    category: string;
    frequency: string;
    unitPriceCents: number;
    quantity: number;
  }[];
  now: string;
}

/** Inserts an order being placed (payment pending) with its lines; its number follows from its id. */
export async function insertPendingOrder(
  db: Db,
  order: NewOrder,
): Promise<{ id: number; orderNumber: string } | undefined> {
  // The order, its number and its lines appear together or not at all.
  if (!db.isTransaction) return db.transaction().execute((trx) => insertPendingOrder(trx, order));
  const inserted = await db
    .insertInto('orders')
    .values({
      order_number: `pending-${order.idempotencyKey}`,
      customer_id: order.customerId,
      kind: order.kind,
      status: 'PROCESSING',
      payment_status: 'pending',
      subtotal_cents: order.subtotalCents,
      discount_cents: order.discountCents,
      total_cents: order.totalCents,
      coupon_code: order.couponCode,
      tracking_number: null,
      decline_reason: null,
      ship_address: order.shipping.address,
      ship_address2: order.shipping.address2,
      ship_city: order.shipping.city,
      ship_state: order.shipping.state,
      ship_zip: order.shipping.zip,
      ship_country: order.shipping.country,
      click_id: order.clickId,
      idempotency_key: order.idempotencyKey,
      subscription_id: order.subscriptionId ?? null,
      billing_period: order.billingPeriod ?? null,
      created_at: order.now,
      updated_at: order.now,
    })
    // Its number and its key both come from the idempotency key: a conflict on either is the same attempt.
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return undefined;
  const orderNumber = `PW-${200000 + inserted.id}`;
  await db
    .updateTable('orders')
    .set({ order_number: orderNumber })
    .where('id', '=', inserted.id)
    .execute();
  await db
    .insertInto('order_items')
    .values(
      order.lines.map((line) => ({
        order_id: inserted.id,
        product_id: line.productId,
        product_name: line.name,
        product_image: line.image,
        category: line.category,
        frequency: line.frequency,
        unit_price_cents: line.unitPriceCents,
        quantity: line.quantity,
      })),
    )
    .execute();
  return { id: inserted.id, orderNumber };
}

export interface OrderAttempt {
  id: number;
  orderNumber: string;
  paymentStatus: string;
  totalCents: number;
  updatedAt: string;
}

export async function selectOrderByKey(
  db: Db,
  idempotencyKey: string,
): Promise<OrderAttempt | undefined> {
  const row = await db
    .selectFrom('orders')
    .select(['id', 'order_number', 'payment_status', 'total_cents', 'updated_at'])
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      orderNumber: row.order_number,
      paymentStatus: row.payment_status,
      totalCents: row.total_cents,
      updatedAt: row.updated_at,
    }
  );
}

export async function selectOrderLines(db: Db, orderId: number) {
  const rows = await db
    .selectFrom('order_items')
    .select(['product_id', 'product_name', 'category', 'frequency', 'unit_price_cents', 'quantity'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    productId: r.product_id,
    name: r.product_name,
    category: r.category,
    frequency: r.frequency,
    unitPriceCents: r.unit_price_cents,
    quantity: r.quantity,
  }));
}

export async function markOrderPaid(
  db: Db,
  orderId: number,
  chargeId: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set({ payment_status: 'paid', charge_id: chargeId, updated_at: now })
    .where('id', '=', orderId)
    .where('payment_status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * A declined attempt leaves no order behind. True when this call removed it (only a pending order
 * goes, so whoever removes it is the one to give back what it held, such as a coupon use).
 */
export async function deletePendingOrder(db: Db, orderId: number): Promise<boolean> {
  if (!db.isTransaction) return db.transaction().execute((trx) => deletePendingOrder(trx, orderId));
  const deleted = await db
    .deleteFrom('orders')
    .where('id', '=', orderId)
    .where('payment_status', '=', 'pending')
    .executeTakeFirst();
  if (Number(deleted.numDeletedRows) !== 1) return false;
  await db.deleteFrom('order_items').where('order_id', '=', orderId).execute();
  return true;
}

/** What the payment reconciler needs to know about an order a gateway call was for. */
export async function selectOrderForPayment(db: Db, id: number) {
  const row = await db
    .selectFrom('orders')
    .select([
      'id',
      'customer_id',
      'kind',
      'payment_status',
      'charge_id',
      'total_cents',
      'coupon_code',
      'idempotency_key',
      'payment_attempts',
    ])
    .where('id', '=', id)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      customerId: row.customer_id,
      kind: row.kind,
      paymentStatus: row.payment_status,
      chargeId: row.charge_id,
      totalCents: row.total_cents,
      couponCode: row.coupon_code,
      idempotencyKey: row.idempotency_key,
      paymentAttempts: row.payment_attempts,
    }
  );
}

export interface UnpaidOrder {
  id: number;
  customerId: number;
  orderNumber: string;
  totalCents: number;
  subscriptionId: number | null;
  billingPeriod: string | null;
  paymentAttempts: number;
  createdAt: string;
}

const unpaidColumns = [
  'id',
  'customer_id',
  'order_number',
  'total_cents',
  'subscription_id',
  'billing_period',
  'payment_attempts',
  'created_at',
] as const;

function toUnpaid(r: {
  id: number;
  customer_id: number;
  order_number: string;
  total_cents: number;
  subscription_id: number | null;
  billing_period: string | null;
  payment_attempts: number;
  created_at: string;
}): UnpaidOrder {
  return {
    id: r.id,
    customerId: r.customer_id,
    orderNumber: r.order_number,
    totalCents: r.total_cents,
    subscriptionId: r.subscription_id,
    billingPeriod: r.billing_period,
    paymentAttempts: r.payment_attempts,
    createdAt: r.created_at,
  };
}

/**
 * Unpaid orders whose next payment retry is due, earliest first; with `after`, only those past that
 * place in the same order (billing walks them a small batch at a time).
 */
export async function selectDueRetries(
  db: Db,
  now: string,
  limit: number,
  after?: { at: string; id: number },
): Promise<(UnpaidOrder & { nextRetryAt: string })[]> {
  let query = db
    .selectFrom('orders')
    .select([...unpaidColumns, 'next_retry_at'])
    .where('payment_status', '=', 'unpaid')
    .where('next_retry_at', 'is not', null)
    .where('next_retry_at', '<=', now);
  if (after)
    query = query.where((eb) =>
      eb.or([
        eb('next_retry_at', '>', after.at),
        eb.and([eb('next_retry_at', '=', after.at), eb('id', '>', after.id)]),
      ]),
    );
  const rows = await query.orderBy('next_retry_at').orderBy('id').limit(limit).execute();
  // Selected where it is not null above.
  return rows.map((row) => ({ ...toUnpaid(row), nextRetryAt: row.next_retry_at ?? now }));
}

export async function selectUnpaidOrdersOf(db: Db, customerId: number): Promise<UnpaidOrder[]> {
  const rows = await db
    .selectFrom('orders')
    .select(unpaidColumns)
    .where('customer_id', '=', customerId)
    .where('payment_status', '=', 'unpaid')
    .orderBy('created_at')
    .execute();
  return rows.map(toUnpaid);
}

export async function selectOrderAttemptById(
  db: Db,
  id: number,
): Promise<(UnpaidOrder & { paymentStatus: string; updatedAt: string }) | undefined> {
  const row = await db
    .selectFrom('orders')
    .select([...unpaidColumns, 'payment_status', 'updated_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row && { ...toUnpaid(row), paymentStatus: row.payment_status, updatedAt: row.updated_at };
}

/** Records a failed payment attempt once per attempt number (compare-and-set on the count). */
export async function recordPaymentFailure(
  db: Db,
  orderId: number,
  attemptsBefore: number,
  failure: { message: string; nextRetryAt: string | null; now: string },
): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set({
      status: 'PAYMENT_FAILED',
      payment_status: 'unpaid',
      payment_attempts: attemptsBefore + 1,
      next_retry_at: failure.nextRetryAt,
      payment_failure: failure.message,
      updated_at: failure.now,
    })
    .where('id', '=', orderId)
    .where('payment_attempts', '=', attemptsBefore)
    .where('payment_status', 'in', ['pending', 'unpaid'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Marks an order paid (from pending or unpaid), once. */
export async function recordPayment(
  db: Db,
  orderId: number,
  chargeId: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set({
      status: 'PROCESSING',
      payment_status: 'paid',
      charge_id: chargeId,
      next_retry_at: null,
      payment_failure: null,
      updated_at: now,
    })
    .where('id', '=', orderId)
    .where('payment_status', 'in', ['pending', 'unpaid'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

// --- Staff console -------------------------------------------------------------------------------

export interface StaffOrderRow {
  id: number;
  orderNumber: string;
  customerId: number;
  kind: string;
  status: OrderStatus;
  paymentStatus: string;
  createdAt: string;
  subtotalCents: number;
  discountCents: number;
  totalCents: number;
  refundCents: number;
  refundReservedCents: number;
  couponCode: string | null;
  trackingNumber: string | null;
  chargeId: string | null;
  customerName: string;
  customerEmail: string;
  itemCount: number;
  shipping: {
    address: string;
    address2: string;
    city: string;
    state: string;
    zip: string;
    country: string;
  };
}

function staffOrderQuery(db: Db) {
  return db
    .selectFrom('orders as o')
    .innerJoin('customers as c', 'c.id', 'o.customer_id')
    .select((eb) => [
      'o.id',
      'o.order_number',
      'o.customer_id',
      'o.kind',
      'o.status',
      'o.payment_status',
      'o.created_at',
      'o.subtotal_cents',
      'o.discount_cents',
      'o.total_cents',
      'o.refund_cents',
      'o.refund_reserved_cents',
      'o.coupon_code',
      'o.tracking_number',
      'o.charge_id',
      'o.ship_address',
      'o.ship_address2',
      'o.ship_city',
      'o.ship_state',
      'o.ship_zip',
      'o.ship_country',
      'c.first_name',
      'c.last_name',
      'c.email',
      eb
        .selectFrom('order_items as i')
        .select((sub) => sub.fn.coalesce(sub.fn.sum<number>('i.quantity'), sub.lit(0)).as('n'))
        .whereRef('i.order_id', '=', 'o.id')
        .as('item_count'),
    ])
    .where('o.payment_status', '!=', 'pending');
}

type StaffOrderDbRow = Awaited<
  ReturnType<ReturnType<typeof staffOrderQuery>['executeTakeFirstOrThrow']>
>;

function toStaffOrder(r: StaffOrderDbRow): StaffOrderRow {
  return {
    id: r.id,
    orderNumber: r.order_number,
    customerId: r.customer_id,
    kind: r.kind,
    status: r.status,
    paymentStatus: r.payment_status,
    createdAt: r.created_at,
    subtotalCents: r.subtotal_cents,
    discountCents: r.discount_cents,
    totalCents: r.total_cents,
    refundCents: r.refund_cents,
    refundReservedCents: r.refund_reserved_cents,
    couponCode: r.coupon_code,
    trackingNumber: r.tracking_number,
    chargeId: r.charge_id,
    customerName: `${r.first_name} ${r.last_name}`,
    customerEmail: r.email,
    itemCount: Number(r.item_count ?? 0),
    shipping: {
      address: r.ship_address,
      address2: r.ship_address2,
      city: r.ship_city,
      state: r.ship_state,
      zip: r.ship_zip,
      country: r.ship_country,
    },
  };
}

/** Orders for the console, newest first, filtered by status and by number, e-mail or name. */
export async function selectStaffOrders(
  db: Db,
  filter: { status?: OrderStatus; query?: string },
  limit = 200,
): Promise<StaffOrderRow[]> {
  let query = staffOrderQuery(db);
  if (filter.status) query = query.where('o.status', '=', filter.status);
  if (filter.query) {
    const like = `%${filter.query.toLowerCase().replace(/[%_]/g, '')}%`;
    query = query.where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['o.order_number']), 'like', like),
        eb(eb.fn('lower', ['c.email']), 'like', like),
        eb(eb.fn('lower', ['c.first_name']), 'like', like),
        eb(eb.fn('lower', ['c.last_name']), 'like', like),
      ]),
    );
  }
  const rows = await query
    .orderBy('o.created_at', 'desc')
    .orderBy('o.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toStaffOrder);
}

export async function selectStaffOrder(db: Db, id: number): Promise<StaffOrderRow | undefined> {
  const row = await staffOrderQuery(db).where('o.id', '=', id).executeTakeFirst();
  return row && toStaffOrder(row);
}

/** Moves an order from one status to another, once (compare-and-set on the status). */
export async function updateOrderStatus(
  db: Db,
  id: number,
  from: OrderStatus,
  change: {
    status: OrderStatus;
    trackingNumber?: string;
    shippedAt?: string;
    deliveredAt?: string;
    paymentStatus?: string;
    refundCents?: number;
    now: string;
  },
): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set({
      status: change.status,
      updated_at: change.now,
      ...(change.trackingNumber !== undefined ? { tracking_number: change.trackingNumber } : {}),
      ...(change.shippedAt !== undefined ? { shipped_at: change.shippedAt } : {}),
      ...(change.deliveredAt !== undefined ? { delivered_at: change.deliveredAt } : {}),
      ...(change.paymentStatus !== undefined ? { payment_status: change.paymentStatus } : {}),
      ...(change.refundCents !== undefined ? { refund_cents: change.refundCents } : {}),
    })
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Reserves a refund before the gateway is asked: one conditional update that holds only while what
 * was captured covers everything refunded, everything reserved and this amount, so concurrent
 * refunds from any number of instances can never add up to more than the charge.
 */
export async function reserveRefund(
  db: Db,
  id: number,
  amountCents: number,
  fromStatuses: readonly OrderStatus[],
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set((eb) => ({
      refund_reserved_cents: eb('refund_reserved_cents', '+', amountCents),
      updated_at: now,
    }))
    .where('id', '=', id)
    .where('charge_id', 'is not', null)
    .where('payment_status', 'in', ['paid', 'partially_refunded'])
    .where('status', 'in', fromStatuses)
    .where((eb) =>
      eb(
        eb(eb('refund_cents', '+', eb.ref('refund_reserved_cents')), '+', amountCents),
        '<=',
        eb.ref('total_cents'),
      ),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Moves a reserved refund the gateway made into refund_cents; the order is Refunded once all of it
 * is back, or Cancelled when the refund was a cancellation's.
 */
export async function applyReservedRefund(
  db: Db,
  id: number,
  amountCents: number,
  cancel: boolean,
  now: string,
): Promise<void> {
  const full = sql<boolean>`refund_cents + ${amountCents} >= total_cents`;
  await db
    .updateTable('orders')
    .set((eb) => ({
      refund_cents: eb('refund_cents', '+', amountCents),
      refund_reserved_cents: eb('refund_reserved_cents', '-', amountCents),
      payment_status: sql<string>`case when ${full} then 'refunded' else 'partially_refunded' end`,
      status: cancel
        ? sql<OrderStatus>`'CANCELLED'`
        : sql<OrderStatus>`case when ${full} then 'REFUNDED' else status end`,
      updated_at: now,
    }))
    .where('id', '=', id)
    .execute();
}

/** Gives a reservation back when the gateway refused the refund. */
export async function freeRefundReservation(
  db: Db,
  id: number,
  amountCents: number,
  now: string,
): Promise<void> {
  await db
    .updateTable('orders')
    .set((eb) => ({
      refund_reserved_cents: eb('refund_reserved_cents', '-', amountCents),
      updated_at: now,
    }))
    .where('id', '=', id)
    .execute();
}

export async function selectStaffOrderItems(db: Db, id: number) {
  const rows = await db
    .selectFrom('order_items')
    .select(['product_name', 'category', 'quantity', 'unit_price_cents'])
    .where('order_id', '=', id)
    .orderBy('id')
    .execute();
  return rows;
}

// --- Visit orders: authorised at checkout, charged or released at review -------------------------

export async function markAuthorized(
  db: Db,
  id: number,
  authorizationId: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set({
      status: 'PENDING_REVIEW',
      payment_status: 'authorized',
      charge_id: authorizationId,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('payment_status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function selectVisitOrder(db: Db, id: number) {
  const row = await db
    .selectFrom('orders')
    .select([
      'id',
      'order_number',
      'status',
      'payment_status',
      'charge_id',
      'total_cents',
      'customer_id',
      'ship_state',
    ])
    .where('id', '=', id)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      orderNumber: row.order_number,
      status: row.status,
      paymentStatus: row.payment_status,
      chargeId: row.charge_id,
      totalCents: row.total_cents,
      customerId: row.customer_id,
      shipState: row.ship_state,
    }
  );
}

export async function markCaptured(
  db: Db,
  id: number,
  chargeId: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set({ status: 'PROCESSING', payment_status: 'paid', charge_id: chargeId, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'PENDING_REVIEW')
    .where('payment_status', '=', 'authorized')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function markDeclined(
  db: Db,
  id: number,
  reason: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set({ status: 'DECLINED', payment_status: 'voided', decline_reason: reason, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'PENDING_REVIEW')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
