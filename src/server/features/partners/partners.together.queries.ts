import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import type { OfferKind } from '#shared/partners-together.ts';

type Db = Kysely<Database>;

// Gifts and couples' plans between partners (decision 018): the offers one partner makes and the
// other answers. The subscription an accepted offer starts is the subscriptions feature's.

export type OfferStatus = 'pending' | 'accepted' | 'declined' | 'withdrawn' | 'closed';

export interface OfferRow {
  id: number;
  kind: OfferKind;
  fromId: number;
  toId: number;
  productId: number;
  quantity: number;
  partnerLine: { productId: number; quantity: number } | null;
  status: OfferStatus;
  subscriptionId: number | null;
  createdAt: string;
}

const columns = [
  'id',
  'kind',
  'from_id',
  'to_id',
  'product_id',
  'quantity',
  'partner_product_id',
  'partner_quantity',
  'status',
  'subscription_id',
  'created_at',
] as const;

function toOffer(r: {
  id: number;
  kind: OfferKind;
  from_id: number;
  to_id: number;
  product_id: number;
  quantity: number;
  partner_product_id: number | null;
  partner_quantity: number | null;
  status: OfferStatus;
  subscription_id: number | null;
  created_at: string;
}): OfferRow {
  return {
    id: r.id,
    kind: r.kind,
    fromId: r.from_id,
    toId: r.to_id,
    productId: r.product_id,
    quantity: r.quantity,
    partnerLine:
      r.partner_product_id === null || r.partner_quantity === null
        ? null
        : { productId: r.partner_product_id, quantity: r.partner_quantity },
    status: r.status,
    subscriptionId: r.subscription_id,
    createdAt: r.created_at,
  };
}

export async function insertOffer(
  db: Db,
  offer: {
    kind: OfferKind;
    fromId: number;
    toId: number;
    productId: number;
    quantity: number;
    partnerLine: { productId: number; quantity: number } | null;
    now: string;
  },
): Promise<number> {
  const row = await db
    .insertInto('partner_offers')
    .values({
      kind: offer.kind,
      from_id: offer.fromId,
      to_id: offer.toId,
      product_id: offer.productId,
      quantity: offer.quantity,
      partner_product_id: offer.partnerLine?.productId ?? null,
      partner_quantity: offer.partnerLine?.quantity ?? null,
      status: 'pending',
      subscription_id: null,
      created_at: offer.now,
      answered_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function selectOffer(db: Db, id: number): Promise<OfferRow | undefined> {
  const row = await db
    .selectFrom('partner_offers')
    .select(columns)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toOffer(row);
}

/** The offers between two people, either way, that wait for an answer or were accepted. */
export async function selectOpenOffersBetween(db: Db, a: number, b: number): Promise<OfferRow[]> {
  const rows = await db
    .selectFrom('partner_offers')
    .select(columns)
    .where((eb) =>
      eb.or([
        eb.and([eb('from_id', '=', a), eb('to_id', '=', b)]),
        eb.and([eb('from_id', '=', b), eb('to_id', '=', a)]),
      ]),
    )
    .where('status', 'in', ['pending', 'accepted'])
    .orderBy('id')
    .execute();
  return rows.map(toOffer);
}

/** An offer still waiting becomes `to` (declined, withdrawn, closed): true when this call did it. */
export async function closeOffer(
  db: Db,
  id: number,
  to: Exclude<OfferStatus, 'pending' | 'accepted'>,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('partner_offers')
    .set({ status: to, answered_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Claims a waiting offer for acceptance (compare-and-set): of any number of accepts, on any number
 * of instances, one gets true and starts the subscription in the same transaction.
 */
export async function claimAcceptance(db: Db, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('partner_offers')
    .set({ status: 'accepted', answered_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function setOfferSubscription(
  db: Db,
  id: number,
  subscriptionId: number,
): Promise<void> {
  await db
    .updateTable('partner_offers')
    .set({ subscription_id: subscriptionId })
    .where('id', '=', id)
    .execute();
}

/** For operations: the gift or plan a subscription is, with its recipient's first name. */
export async function selectOfferForSubscription(
  db: Db,
  subscriptionId: number,
): Promise<{ kind: OfferKind; toId: number; toFirstName: string } | undefined> {
  const row = await db
    .selectFrom('partner_offers')
    .innerJoin('customers', 'customers.id', 'partner_offers.to_id')
    .select(['partner_offers.kind', 'partner_offers.to_id', 'customers.first_name'])
    .where('partner_offers.subscription_id', '=', subscriptionId)
    .executeTakeFirst();
  return row && { kind: row.kind, toId: row.to_id, toFirstName: row.first_name };
}
