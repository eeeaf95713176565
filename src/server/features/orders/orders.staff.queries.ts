// The staff console: orders listed and opened, status moves and refunds as compare-and-sets.
import { sql, type Kysely } from 'kysely';
import type { Database, VisitsTable } from '#server/db/schema.ts';
import type { OrderStatus } from '#shared/orders.ts';

type Db = Kysely<Database>;

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
  /** The customer's partner the order ships to (issue 16); null: their own address. */
  shipToPartnerId: number | null;
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
      'o.ship_to_partner_id',
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
    shipToPartnerId: r.ship_to_partner_id,
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

/** Orders for the console, newest first, filtered by status and by number, email or name. */
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

/**
 * Adds a refund the processor made on its own (in Stripe's Dashboard, with no reservation of ours)
 * to the order's refunds; with `mayEnd` the order becomes Refunded once all of it is back.
 */
export async function applyProcessorRefund(
  db: Db,
  id: number,
  amountCents: number,
  mayEnd: boolean,
  now: string,
): Promise<void> {
  const full = sql<boolean>`refund_cents + ${amountCents} >= total_cents`;
  await db
    .updateTable('orders')
    .set((eb) => ({
      refund_cents: eb('refund_cents', '+', amountCents),
      payment_status: sql<string>`case when ${full} then 'refunded' else 'partially_refunded' end`,
      status: mayEnd
        ? sql<OrderStatus>`case when ${full} then 'REFUNDED' else status end`
        : sql<OrderStatus>`status`,
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

/**
 * The status of the online visit an order was placed for (undefined: none behind it). Looked up by
 * the order's customer too, whose index finds their few visits.
 */
export async function selectOrderVisitStatus(
  db: Db,
  order: { id: number; customerId: number },
): Promise<VisitsTable['status'] | undefined> {
  const row = await db
    .selectFrom('visits')
    .select('status')
    .where('customer_id', '=', order.customerId)
    .where('order_id', '=', order.id)
    .executeTakeFirst();
  return row?.status;
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
