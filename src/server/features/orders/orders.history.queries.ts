// A customer's own orders: the history in the member area and the visits behind it, first orders.
import { sql, type Kysely } from 'kysely';
import { reusable } from '#server/db/reusable.ts';
import type { Database } from '#server/db/schema.ts';
import type { OrderStatus } from '#shared/orders.ts';

type Db = Kysely<Database>;

export interface OrderItemRow {
  productId: number;
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
  kind: 'store' | 'renewal' | 'visit';
  couponCode: string | null;
  status: OrderStatus;
  paymentStatus: string;
  totalCents: number;
  refundCents: number;
  trackingNumber: string | null;
  declineReason: string | null;
  /** Unpaid until the customer confirms the payment with their bank (issue 28). */
  confirmable: boolean;
  createdAt: string;
  /** The partner the order ships to, by first name (issue 16); null: the customer's own address. */
  shipToPartnerFirstName: string | null;
  /** A gift's renewal: its recipient's first name (the order is the payer's). */
  giftForFirstName: string | null;
  /** Null for a gift's renewal: it ships to the recipient, whose address the payer does not see. */
  shipping: {
    address: string;
    address2: string;
    city: string;
    state: string;
    zip: string;
    country: string;
  } | null;
  items: OrderItemRow[];
}

function orderColumns(db: Db) {
  return (
    db
      .selectFrom('orders')
      .leftJoin('customers as partner', 'partner.id', 'orders.ship_to_partner_id')
      // A gift's renewals ship to its recipient: their address is not the payer's to see (decision 018).
      .leftJoin('subscriptions as gift', (join) =>
        join
          .onRef('gift.id', '=', 'orders.subscription_id')
          .on('gift.recipient_id', 'is not', null),
      )
      .leftJoin('customers as recipient', 'recipient.id', 'gift.recipient_id')
      .select([
        'orders.id',
        'orders.order_number',
        'orders.kind',
        'orders.coupon_code',
        'orders.status',
        'orders.payment_status',
        'orders.total_cents',
        'orders.refund_cents',
        'orders.tracking_number',
        'orders.decline_reason',
        'orders.payment_confirmation_ref',
        'orders.created_at',
        'orders.ship_address',
        'orders.ship_address2',
        'orders.ship_city',
        'orders.ship_state',
        'orders.ship_zip',
        'orders.ship_country',
        'partner.first_name as partner_first_name',
        'gift.id as gift_subscription_id',
        'recipient.first_name as gift_recipient_first_name',
      ])
  );
}

/**
 * The orders a query selects, with their lines, in one statement (the orders as a subquery, their
 * lines joined to it), in the order the orders come: newest first, each order's lines in the order
 * they were added. The lines are grouped by order in a map as they arrive.
 */
function withItemsQuery(db: Db, orders: ReturnType<typeof orderColumns>) {
  return db
    .selectFrom(orders.as('o'))
    .leftJoin('order_items as i', 'i.order_id', 'o.id')
    .selectAll('o')
    .select([
      'i.id as item_id',
      'i.product_id',
      'i.product_name',
      'i.product_image',
      'i.category',
      'i.frequency',
      'i.unit_price_cents',
      'i.quantity',
    ])
    .orderBy('o.created_at', 'desc')
    .orderBy('o.id', 'desc')
    .orderBy('i.id');
}

type OrderWithItemRow = Awaited<ReturnType<ReturnType<typeof withItemsQuery>['execute']>>[number];

async function withItems(db: Db, orders: ReturnType<typeof orderColumns>): Promise<OrderRow[]> {
  return groupItems(await withItemsQuery(db, orders).execute());
}

function groupItems(rows: OrderWithItemRow[]): OrderRow[] {
  const byId = new Map<number, OrderRow>();
  for (const o of rows) {
    let order = byId.get(o.id);
    if (!order) {
      order = {
        id: o.id,
        orderNumber: o.order_number,
        kind: o.kind,
        couponCode: o.coupon_code,
        status: o.status,
        paymentStatus: o.payment_status,
        totalCents: o.total_cents,
        refundCents: o.refund_cents,
        // The tracking page shows where a gift went: that is its recipient's news (issue 26).
        trackingNumber: o.gift_subscription_id !== null ? null : o.tracking_number,
        declineReason: o.decline_reason,
        confirmable: o.payment_status === 'unpaid' && o.payment_confirmation_ref !== null,
        createdAt: o.created_at,
        shipToPartnerFirstName: o.partner_first_name,
        giftForFirstName: o.gift_subscription_id !== null ? o.gift_recipient_first_name : null,
        shipping:
          o.gift_subscription_id !== null
            ? null
            : {
                address: o.ship_address,
                address2: o.ship_address2,
                city: o.ship_city,
                state: o.ship_state,
                zip: o.ship_zip,
                country: o.ship_country,
              },
        items: [],
      };
      byId.set(o.id, order);
    }
    if (o.item_id !== null)
      order.items.push({
        productId: o.product_id ?? 0,
        productName: o.product_name ?? '',
        productImage: o.product_image ?? '',
        category: o.category ?? '',
        frequency: o.frequency ?? '',
        unitPriceCents: o.unit_price_cents ?? 0,
        quantity: o.quantity ?? 0,
      });
  }
  // A Map keeps the order in which its keys were first set: the orders' own.
  return [...byId.values()];
}

/** Where a page of a customer's orders starts: after this order (its date, then its id). */
export interface OrderKey {
  id: number;
  createdAt: string;
}

/**
 * One page of a customer's orders, newest first (by date, then id, so orders placed in the same
 * instant keep one order), each with its lines: up to `limit` orders older than `after`, or the
 * newest without it. Keyset, not offset: an order placed between two pages shifts nothing.
 */
export async function selectOrdersPage(
  db: Db,
  customerId: number,
  after: OrderKey | null,
  limit: number,
): Promise<OrderRow[]> {
  if (!after) return groupItems(await firstOrdersPage(db, customerId, limit));
  const query = orderColumns(db)
    .where('orders.customer_id', '=', customerId)
    .where((eb) =>
      eb.or([
        eb('orders.created_at', '<', after.createdAt),
        eb.and([eb('orders.created_at', '=', after.createdAt), eb('orders.id', '<', after.id)]),
      ]),
    );
  return withItems(
    db,
    query.orderBy('orders.created_at', 'desc').orderBy('orders.id', 'desc').limit(limit),
  );
}

/**
 * The newest page, which every visit to Orders and Home reads: compiled once per page size, with
 * the size written into the SQL. SQLite ran the page with a bound `LIMIT ?` in 65 µs and with the
 * number in the text in 30 µs (the demo customer's five orders and their lines, decision 017).
 * The schema lets a page be 1 to 50 orders, so there are at most 50 of these.
 */
const firstOrdersPages = new Map<
  number,
  (db: Db, customerId: number) => Promise<OrderWithItemRow[]>
>();

function firstOrdersPage(db: Db, customerId: number, limit: number) {
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 100)
    throw new Error(`not a page size: ${limit}`);
  let page = firstOrdersPages.get(limit);
  if (!page) {
    page = reusable((db: Db, customerId: number) =>
      withItemsQuery(
        db,
        orderColumns(db)
          .where('orders.customer_id', '=', customerId)
          .orderBy('orders.created_at', 'desc')
          .orderBy('orders.id', 'desc')
          .limit(sql.lit(limit)),
      ),
    );
    firstOrdersPages.set(limit, page);
  }
  return page(db, customerId);
}

/** The customer's own orders among these ids, newest first, each with its lines. */
export async function selectOrdersByIds(
  db: Db,
  customerId: number,
  ids: number[],
): Promise<OrderRow[]> {
  if (ids.length === 0) return [];
  return withItems(
    db,
    orderColumns(db).where('orders.customer_id', '=', customerId).where('orders.id', 'in', ids),
  );
}

/** The customer's own order with this number, with its lines; undefined for anyone else's. */
export async function selectOrderByNumber(
  db: Db,
  customerId: number,
  orderNumber: string,
): Promise<OrderRow | undefined> {
  const [order] = await withItems(
    db,
    orderColumns(db)
      .where('orders.customer_id', '=', customerId)
      .where('orders.order_number', '=', orderNumber),
  );
  return order;
}

/** Where the customer's own order with this number sits in their history; undefined for another's. */
export async function selectOrderKey(
  db: Db,
  customerId: number,
  orderNumber: string,
): Promise<OrderKey | undefined> {
  const row = await db
    .selectFrom('orders')
    .select(['id', 'created_at'])
    .where('customer_id', '=', customerId)
    .where('order_number', '=', orderNumber)
    .executeTakeFirst();
  return row && { id: row.id, createdAt: row.created_at };
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

export interface VisitCareRow {
  orderId: number;
  orderStatus: OrderStatus;
  visitStatus: string;
  category: 'ed' | 'sleep' | 'hair';
  prescription: {
    drug: string;
    dosage: string;
    quantity: number;
    refills: number;
    validUntil: string;
    directions: string | null;
    /** The refill plan's refills still to come and its status; null when no plan started. */
    plan: { refillsRemaining: number | null; status: string } | null;
  } | null;
}

/**
 * The online visits behind the customer's orders (or behind one of them), each with its
 * prescription and refill plan: only visits of `customerId` whose order is also theirs.
 */
function visitCareQuery(db: Db, customerId: number) {
  return db
    .selectFrom('visits')
    .innerJoin('orders', 'orders.id', 'visits.order_id')
    .leftJoin('prescriptions', (join) =>
      join
        .onRef('prescriptions.visit_id', '=', 'visits.id')
        .on('prescriptions.customer_id', '=', customerId)
        .on('prescriptions.request_id', 'is', null),
    )
    .leftJoin('subscriptions', 'subscriptions.prescription_id', 'prescriptions.id')
    .select([
      'orders.id as order_id',
      'orders.status as order_status',
      'visits.status as visit_status',
      'visits.category',
      'prescriptions.id as prescription_id',
      'prescriptions.drug',
      'prescriptions.dosage',
      'prescriptions.quantity',
      'prescriptions.refills',
      'prescriptions.valid_until',
      'prescriptions.directions',
      'subscriptions.id as plan_id',
      'subscriptions.refills_remaining',
      'subscriptions.status as plan_status',
    ])
    .where('visits.customer_id', '=', customerId)
    .where('orders.customer_id', '=', customerId);
}

/** Every visit behind the customer's orders, which each page of orders reads: compiled once. */
const allVisitCare = reusable((db: Db, customerId: number) => visitCareQuery(db, customerId));

export async function selectVisitCareOf(
  db: Db,
  customerId: number,
  orderId?: number,
): Promise<VisitCareRow[]> {
  const rows =
    orderId === undefined
      ? await allVisitCare(db, customerId)
      : await visitCareQuery(db, customerId).where('orders.id', '=', orderId).execute();
  return rows.map((r) => ({
    orderId: r.order_id,
    orderStatus: r.order_status,
    visitStatus: r.visit_status,
    category: r.category,
    prescription:
      r.prescription_id === null
        ? null
        : {
            drug: r.drug ?? '',
            dosage: r.dosage ?? '',
            quantity: r.quantity ?? 0,
            refills: r.refills ?? 0,
            validUntil: r.valid_until ?? '',
            directions: r.directions ?? null,
            plan:
              r.plan_id === null
                ? null
                : { refillsRemaining: r.refills_remaining, status: r.plan_status ?? '' },
          },
  }));
}

// --- What a linked partner may see (issue 16) ----------------------------------------------------

export interface StoreOrderRow {
  id: number;
  orderNumber: string;
  createdAt: string;
  status: OrderStatus;
  trackingNumber: string | null;
  /** The owner's partner it ships to, if any (issue 16). */
  shipToPartnerId: number | null;
  items: { productName: string; quantity: number }[];
}

/**
 * The customer's newest 50 shop orders, each with its lines' names and quantities: never a visit's
 * order, never a renewal (prescription refills are). What a partner sees when orders are shared.
 */
export async function selectRecentStoreOrders(
  db: Db,
  customerId: number,
): Promise<StoreOrderRow[]> {
  const rows = await db
    .selectFrom('orders')
    .select(['id', 'order_number', 'created_at', 'status', 'tracking_number', 'ship_to_partner_id'])
    .where('customer_id', '=', customerId)
    .where('kind', '=', 'store')
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
  const ids = rows.map((r) => r.id);
  const lines =
    ids.length === 0
      ? []
      : await db
          .selectFrom('order_items')
          .select(['order_id', 'product_name', 'quantity'])
          .where('order_id', 'in', ids)
          .orderBy('id')
          .execute();
  return rows.map((r) => ({
    id: r.id,
    orderNumber: r.order_number,
    createdAt: r.created_at,
    status: r.status,
    trackingNumber: r.tracking_number,
    shipToPartnerId: r.ship_to_partner_id,
    items: lines
      .filter((l) => l.order_id === r.id)
      .map((l) => ({ productName: l.product_name, quantity: l.quantity })),
  }));
}

/** The subscription an order renews; null for an order placed at checkout or for a visit. */
export async function selectRenewedSubscriptionId(db: Db, orderId: number): Promise<number | null> {
  const row = await db
    .selectFrom('orders')
    .select('subscription_id')
    .where('id', '=', orderId)
    .executeTakeFirst();
  return row?.subscription_id ?? null;
}
