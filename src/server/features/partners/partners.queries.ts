import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import type { HistoryKind, Sharing, SharingItem } from '#shared/partners.ts';
import type { ProgramCategory } from '#shared/visits.ts';

// The partners feature's own tables: the people as partners see them (first name, proved email),
// the links and their sharing switches, and each person's partner history. Invitations, visit
// invitations and gifts and plans have their own queries files; what a partner may see of the
// other's orders, subscriptions and address is asked of the features that own them.

type Db = Kysely<Database>;

const shareColumn = {
  address: 'share_address',
  orders: 'share_orders',
  subscriptions: 'share_subscriptions',
} as const satisfies Record<SharingItem, string>;

// --- People --------------------------------------------------------------------------------------

export interface CustomerBrief {
  customerId: number;
  firstName: string;
  email: string;
  /** Whether `email` was proved by a link mailed to it: a typed address proves nothing. */
  emailVerified: boolean;
}

export async function selectCustomerBrief(
  db: Db,
  customerId: number,
): Promise<CustomerBrief | undefined> {
  const row = await db
    .selectFrom('customers')
    .select(['id', 'first_name', 'email', 'email_verified_at'])
    .where('id', '=', customerId)
    .executeTakeFirst();
  return (
    row && {
      customerId: row.id,
      firstName: row.first_name,
      email: row.email,
      emailVerified: row.email_verified_at !== null,
    }
  );
}

export async function customerExistsWithEmail(db: Db, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('customers')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Takes the write locks of both people's customer rows, the lower id first, before a link between
 * them is made or ended: two such changes sharing a person queue one behind the other instead of
 * each holding half of what the other needs (PostgreSQL would end one as a deadlock). SQLite
 * writes one transaction at a time anyway.
 */
export async function lockCustomers(db: Db, ids: number[]): Promise<void> {
  for (const id of [...ids].sort((a, b) => a - b))
    await db
      .updateTable('customers')
      .set((eb) => ({ updated_at: eb.ref('updated_at') }))
      .where('id', '=', id)
      .execute();
}

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

// --- For operations ------------------------------------------------------------------------------

/** For operations: whom a customer is linked with, by first name and customer id. */
export async function selectPartnerBrief(
  db: Db,
  customerId: number,
): Promise<{ customerId: number; firstName: string } | undefined> {
  const row = await db
    .selectFrom('partner_links')
    .innerJoin('customers', 'customers.id', 'partner_links.partner_id')
    .select(['customers.id', 'customers.first_name'])
    .where('partner_links.customer_id', '=', customerId)
    .executeTakeFirst();
  return row && { customerId: row.id, firstName: row.first_name };
}
