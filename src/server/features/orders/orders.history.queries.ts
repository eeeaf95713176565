// A customer's own orders: the history in the member area, the failed-payment flag, first orders.
import type { Kysely } from 'kysely';
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
      'kind',
      'coupon_code',
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
      'product_id',
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
    kind: o.kind,
    couponCode: o.coupon_code,
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
        productId: i.product_id,
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

export interface VisitCareRow {
  orderId: number;
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
 * The online visits behind the customer's orders, each with its prescription and refill plan: only
 * visits of `customerId` whose order is also theirs.
 */
export async function selectVisitCareOf(db: Db, customerId: number): Promise<VisitCareRow[]> {
  const rows = await db
    .selectFrom('visits')
    .innerJoin('orders', 'orders.id', 'visits.order_id')
    .leftJoin('prescriptions', (join) =>
      join
        .onRef('prescriptions.visit_id', '=', 'visits.id')
        .on('prescriptions.customer_id', '=', customerId),
    )
    .leftJoin('subscriptions', 'subscriptions.prescription_id', 'prescriptions.id')
    .select([
      'orders.id as order_id',
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
    .where('orders.customer_id', '=', customerId)
    .execute();
  return rows.map((r) => ({
    orderId: r.order_id,
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
