// An order being placed: inserted pending with its lines, found again by its idempotency key, then
// paid or removed. Store checkout, refill renewals and visit submissions all place orders this way.
import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';

type Db = Kysely<Database>;

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
  /** The customer's partner the order ships to (their shared address is `shipping`). */
  shipToPartnerId?: number | null;
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
      ship_to_partner_id: order.shipToPartnerId ?? null,
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
  subtotalCents: number;
  discountCents: number;
  totalCents: number;
  couponCode: string | null;
  /** The partner the order ships to, by first name (null: the customer's own address). */
  shipToPartnerFirstName: string | null;
  createdAt: string;
  updatedAt: string;
}

export async function selectOrderByKey(
  db: Db,
  idempotencyKey: string,
): Promise<OrderAttempt | undefined> {
  const row = await db
    .selectFrom('orders')
    .leftJoin('customers as partner', 'partner.id', 'orders.ship_to_partner_id')
    .select([
      'orders.id',
      'orders.order_number',
      'orders.payment_status',
      'orders.subtotal_cents',
      'orders.discount_cents',
      'orders.total_cents',
      'orders.coupon_code',
      'orders.created_at',
      'orders.updated_at',
      'partner.first_name as partner_first_name',
    ])
    .where('orders.idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      orderNumber: row.order_number,
      paymentStatus: row.payment_status,
      subtotalCents: row.subtotal_cents,
      discountCents: row.discount_cents,
      totalCents: row.total_cents,
      couponCode: row.coupon_code,
      shipToPartnerFirstName: row.partner_first_name,
      createdAt: row.created_at,
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
