import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import type { HistoryKind, Sharing, SharingItem } from '#shared/partners.ts';
import type { ProgramCategory } from '#shared/visits.ts';

// The partners feature's own tables: the links and their sharing switches, and each person's
// partner history. Invitations, visit invitations and gifts and plans have their own queries files;
// who the people are (first name, proved email) and what a partner may see of the other's orders,
// subscriptions and address are asked of the features that own them.

type Db = Kysely<Database>;

const shareColumn = {
  address: 'share_address',
  orders: 'share_orders',
  subscriptions: 'share_subscriptions',
} as const satisfies Record<SharingItem, string>;

// --- Links ---------------------------------------------------------------------------------------

export interface LinkRow {
  customerId: number;
  partnerId: number;
  linkedAt: string;
  /** What `customerId` shares with `partnerId`. */
  shares: Sharing;
}

const linkColumns = [
  'customer_id',
  'partner_id',
  'linked_at',
  'share_address',
  'share_orders',
  'share_subscriptions',
] as const;

function toLink(row: {
  customer_id: number;
  partner_id: number;
  linked_at: string;
  share_address: number;
  share_orders: number;
  share_subscriptions: number;
}): LinkRow {
  return {
    customerId: row.customer_id,
    partnerId: row.partner_id,
    linkedAt: row.linked_at,
    shares: {
      address: row.share_address === 1,
      orders: row.share_orders === 1,
      subscriptions: row.share_subscriptions === 1,
    },
  };
}

/** The customer's own side of their link: who their partner is and what the customer shares. */
export async function selectOwnLink(db: Db, customerId: number): Promise<LinkRow | undefined> {
  const row = await db
    .selectFrom('partner_links')
    .select(linkColumns)
    .where('customer_id', '=', customerId)
    .executeTakeFirst();
  return row && toLink(row);
}

/** The partner's side of the link with `viewerId`: what that partner shares with the viewer. */
export async function selectSideSharedWith(db: Db, viewerId: number): Promise<LinkRow | undefined> {
  const row = await db
    .selectFrom('partner_links')
    .select(linkColumns)
    .where('partner_id', '=', viewerId)
    .executeTakeFirst();
  return row && toLink(row);
}

/**
 * One side of a new link, sharing nothing. False when the customer (or the partner) is already in
 * a link: the unique keys refuse it, so no race can give anyone two partners.
 */
export async function insertLinkSide(
  db: Db,
  customerId: number,
  partnerId: number,
  now: string,
): Promise<boolean> {
  const row = await db
    .insertInto('partner_links')
    .values({ customer_id: customerId, partner_id: partnerId, linked_at: now })
    .onConflict((oc) => oc.doNothing())
    .returning('customer_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Both sides of the link between a and b, with every sharing choice on them; how many went. */
export async function deleteLink(db: Db, a: number, b: number): Promise<number> {
  const result = await db
    .deleteFrom('partner_links')
    .where((eb) =>
      eb.or([
        eb.and([eb('customer_id', '=', a), eb('partner_id', '=', b)]),
        eb.and([eb('customer_id', '=', b), eb('partner_id', '=', a)]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function updateSharing(
  db: Db,
  customerId: number,
  item: SharingItem,
  shared: boolean,
): Promise<void> {
  await db
    .updateTable('partner_links')
    .set({ [shareColumn[item]]: shared ? 1 : 0 })
    .where('customer_id', '=', customerId)
    .execute();
}

// --- History -------------------------------------------------------------------------------------

export interface EventRow {
  kind: HistoryKind;
  item: SharingItem | null;
  counterpart: string;
  quiet: boolean;
  at: string;
  /** The program of a visit invitation's line. */
  program?: ProgramCategory | null;
}

export async function insertEvent(db: Db, customerId: number, event: EventRow): Promise<void> {
  await db
    .insertInto('partner_events')
    .values({
      customer_id: customerId,
      kind: event.kind,
      item: event.item,
      counterpart: event.counterpart,
      quiet: event.quiet ? 1 : 0,
      at: event.at,
      program: event.program ?? null,
    })
    .execute();
}

export async function selectEvents(db: Db, customerId: number, limit: number): Promise<EventRow[]> {
  const rows = await db
    .selectFrom('partner_events')
    .select(['kind', 'item', 'counterpart', 'quiet', 'at', 'program'])
    .where('customer_id', '=', customerId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    kind: r.kind as HistoryKind,
    item: r.item as SharingItem | null,
    counterpart: r.counterpart,
    quiet: r.quiet === 1,
    at: r.at,
    program: r.program as ProgramCategory | null,
  }));
}
