import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import type { TogetherKind } from '#shared/partners-together.ts';

type Db = Kysely<Database>;

// Gifts and couples' plans between partners (decision 018): each one partner proposes and the
// other answers. The subscription an accepted one starts is the subscriptions feature's.

/** Where the proposal stands; once accepted, its subscription says how it runs. */
export type TogetherRowStatus = 'pending' | 'accepted' | 'declined' | 'withdrawn' | 'closed';

export interface TogetherRow {
  id: number;
  kind: TogetherKind;
  fromId: number;
  toId: number;
  productId: number;
  quantity: number;
  partnerLine: { productId: number; quantity: number } | null;
  status: TogetherRowStatus;
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

function toTogetherRow(r: {
  id: number;
  kind: TogetherKind;
  from_id: number;
  to_id: number;
  product_id: number;
  quantity: number;
  partner_product_id: number | null;
  partner_quantity: number | null;
  status: TogetherRowStatus;
  subscription_id: number | null;
  created_at: string;
}): TogetherRow {
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

/** A new gift or plan, waiting for the other partner's answer. */
export async function insertTogetherItem(
  db: Db,
  item: Pick<TogetherRow, 'kind' | 'fromId' | 'toId' | 'productId' | 'quantity' | 'partnerLine'> & {
    now: string;
  },
): Promise<number> {
  const row = await db
    .insertInto('together_items')
    .values({
      kind: item.kind,
      from_id: item.fromId,
      to_id: item.toId,
      product_id: item.productId,
      quantity: item.quantity,
      partner_product_id: item.partnerLine?.productId ?? null,
      partner_quantity: item.partnerLine?.quantity ?? null,
      status: 'pending',
      subscription_id: null,
      created_at: item.now,
      answered_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function selectTogetherItem(db: Db, id: number): Promise<TogetherRow | undefined> {
  const row = await db
    .selectFrom('together_items')
    .select(columns)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toTogetherRow(row);
}

/** The gifts and plans between two people, either way, that wait for an answer or were accepted. */
export async function selectOpenTogetherBetween(
  db: Db,
  a: number,
  b: number,
): Promise<TogetherRow[]> {
  const rows = await db
    .selectFrom('together_items')
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
  return rows.map(toTogetherRow);
}

/** A waiting one becomes `to` (declined, withdrawn or closed): true when this call did it. */
export async function closeTogetherItem(
  db: Db,
  id: number,
  to: Exclude<TogetherRowStatus, 'pending' | 'accepted'>,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('together_items')
    .set({ status: to, answered_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Claims a waiting gift or plan for acceptance (compare-and-set): of any number of accepts, on any
 * number of instances, one gets true and starts the subscription in the same transaction.
 */
export async function claimAcceptance(db: Db, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('together_items')
    .set({ status: 'accepted', answered_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function setTogetherSubscription(
  db: Db,
  id: number,
  subscriptionId: number,
): Promise<void> {
  await db
    .updateTable('together_items')
    .set({ subscription_id: subscriptionId })
    .where('id', '=', id)
    .execute();
}

/** For operations: the gift or plan a subscription is, and its recipient. */
export async function selectTogetherForSubscription(
  db: Db,
  subscriptionId: number,
): Promise<{ kind: TogetherKind; toId: number } | undefined> {
  const row = await db
    .selectFrom('together_items')
    .select(['kind', 'to_id'])
    .where('subscription_id', '=', subscriptionId)
    .executeTakeFirst();
  return row && { kind: row.kind, toId: row.to_id };
}
