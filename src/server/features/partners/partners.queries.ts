import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import type { OrderStatus } from '#shared/orders.ts';
import type { HistoryKind, Sharing, SharingItem } from '#shared/partners.ts';
import type { ProgramCategory } from '#shared/visits.ts';

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

// --- Invitations ---------------------------------------------------------------------------------

export interface InvitationRow {
  id: number;
  inviterId: number;
  email: string;
  tokenHash: string | null;
  /** `closed`: its invitee linked with someone else (see closeInvitationsTo). */
  status: 'pending' | 'accepted' | 'declined' | 'withdrawn' | 'closed';
  createdAt: string;
  expiresAt: string;
}

const invitationColumns = [
  'id',
  'inviter_id',
  'email',
  'token_hash',
  'status',
  'created_at',
  'expires_at',
] as const;

function toInvitation(row: {
  id: number;
  inviter_id: number;
  email: string;
  token_hash: string | null;
  status: InvitationRow['status'];
  created_at: string;
  expires_at: string;
}): InvitationRow {
  return {
    id: row.id,
    inviterId: row.inviter_id,
    email: row.email,
    tokenHash: row.token_hash,
    status: row.status,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

export async function insertInvitation(
  db: Db,
  invitation: { inviterId: number; email: string; now: string; expiresAt: string },
): Promise<number> {
  const row = await db
    .insertInto('partner_invitations')
    .values({
      inviter_id: invitation.inviterId,
      email: invitation.email,
      token_hash: null,
      status: 'pending',
      created_at: invitation.now,
      expires_at: invitation.expiresAt,
      answered_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function selectInvitation(db: Db, id: number): Promise<InvitationRow | undefined> {
  const row = await db
    .selectFrom('partner_invitations')
    .select(invitationColumns)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toInvitation(row);
}

/** The customer's latest invitation, whatever became of it. */
export async function selectLatestSent(
  db: Db,
  inviterId: number,
): Promise<InvitationRow | undefined> {
  const row = await db
    .selectFrom('partner_invitations')
    .select(invitationColumns)
    .where('inviter_id', '=', inviterId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && toInvitation(row);
}

/**
 * What an inviter may still withdraw: pending, or closed because its invitee linked with someone
 * else, which its inviter is never told (decision 016).
 */
const OPEN_TO_INVITER = ['pending', 'closed'] as const;

/** The customer's invitations still open to them (expired ones too: they are closed with the rest). */
export async function selectPendingSent(db: Db, inviterId: number): Promise<InvitationRow[]> {
  const rows = await db
    .selectFrom('partner_invitations')
    .select(invitationColumns)
    .where('inviter_id', '=', inviterId)
    .where('status', 'in', OPEN_TO_INVITER)
    .execute();
  return rows.map(toInvitation);
}

export interface ReceivedRow {
  id: number;
  fromFirstName: string;
  createdAt: string;
  expiresAt: string;
}

/**
 * Open invitations for someone: sent to their email (null while it is not proved), or the one
 * whose link (token) they hold; never their own.
 */
export async function selectReceived(
  db: Db,
  who: { customerId: number; email: string | null; tokenHash: string | null; now: string },
): Promise<ReceivedRow[]> {
  if (who.email === null && who.tokenHash === null) return [];
  const rows = await db
    .selectFrom('partner_invitations')
    .innerJoin('customers', 'customers.id', 'partner_invitations.inviter_id')
    .select([
      'partner_invitations.id',
      'customers.first_name',
      'partner_invitations.created_at',
      'partner_invitations.expires_at',
    ])
    .where('partner_invitations.status', '=', 'pending')
    .where('partner_invitations.expires_at', '>', who.now)
    .where('partner_invitations.inviter_id', '!=', who.customerId)
    .where((eb) =>
      eb.or([
        ...(who.email === null ? [] : [eb('partner_invitations.email', '=', who.email)]),
        ...(who.tokenHash === null
          ? []
          : [eb('partner_invitations.token_hash', '=', who.tokenHash)]),
      ]),
    )
    .orderBy('partner_invitations.id', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    fromFirstName: r.first_name,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
  }));
}

/** Answers a pending invitation; false when it was no longer pending (someone else answered). */
export async function closeInvitation(
  db: Db,
  id: number,
  status: 'accepted' | 'declined',
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('partner_invitations')
    .set({ status, answered_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The inviter withdraws an invitation still open to them; false when it no longer was. */
export async function withdrawSent(db: Db, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('partner_invitations')
    .set({ status: 'withdrawn', answered_at: now })
    .where('id', '=', id)
    .where('status', 'in', OPEN_TO_INVITER)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * A link was made: the invitations still waiting for either partner's address can no longer be
 * accepted (their inviters are not told; to them each reads as waiting until it expires).
 */
export async function closeInvitationsTo(db: Db, emails: string[], now: string): Promise<void> {
  await db
    .updateTable('partner_invitations')
    .set({ status: 'closed', answered_at: now })
    .where('email', 'in', emails)
    .where('status', '=', 'pending')
    .execute();
}

/** Stores the hash of the token an invitation's email carries, while the invitation is open. */
export async function setInvitationToken(
  db: Db,
  id: number,
  tokenHash: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('partner_invitations')
    .set({ token_hash: tokenHash })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
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

// --- What a partner may see ----------------------------------------------------------------------

export interface AddressRow {
  address: string;
  address2: string;
  city: string;
  state: string;
  zip: string;
}

export async function selectShippingAddress(
  db: Db,
  customerId: number,
): Promise<AddressRow | undefined> {
  return db
    .selectFrom('customer_addresses')
    .select(['address', 'address2', 'city', 'state', 'zip'])
    .where('customer_id', '=', customerId)
    .where('kind', '=', 'shipping')
    .executeTakeFirst();
}

export interface StoreOrderRow {
  id: number;
  orderNumber: string;
  createdAt: string;
  status: OrderStatus;
  trackingNumber: string | null;
  /** The owner's partner it ships to, if any (issue 16). */
  shipToPartnerId: number | null;
}

/** The shop's orders only: never a visit's order, never a renewal (prescription refills are). */
export async function selectStoreOrders(db: Db, customerId: number): Promise<StoreOrderRow[]> {
  const rows = await db
    .selectFrom('orders')
    .select(['id', 'order_number', 'created_at', 'status', 'tracking_number', 'ship_to_partner_id'])
    .where('customer_id', '=', customerId)
    .where('kind', '=', 'store')
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    orderNumber: r.order_number,
    createdAt: r.created_at,
    status: r.status,
    trackingNumber: r.tracking_number,
    shipToPartnerId: r.ship_to_partner_id,
  }));
}

export async function selectOrderLines(
  db: Db,
  orderIds: number[],
): Promise<{ orderId: number; productName: string; quantity: number }[]> {
  if (orderIds.length === 0) return [];
  const rows = await db
    .selectFrom('order_items')
    .select(['order_id', 'product_name', 'quantity'])
    .where('order_id', 'in', orderIds)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    orderId: r.order_id,
    productName: r.product_name,
    quantity: r.quantity,
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
 * Supplement subscriptions that are running or paused: a catalogue product (a prescription refill
 * plan has none and is never shared).
 */
export async function selectSupplementSubscriptions(
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
