// Gifts and couples' plans as each partner sees them (issue 16, decision 018): every gift or plan
// between the caller and their linked partner, read now, with what the caller may do with it, the
// card it is billed to (for its payer only) and the address it ships to (when they may see it).
import type { AppContext } from '#server/context.ts';
import { addressOf, cardSummaryOf } from '#server/features/accounts/accounts.service.ts';
import type { ActiveSession } from '#server/features/auth/auth.service.ts';
import { offer as catalogOffer } from '#server/features/catalog/catalog.service.ts';
import {
  subscriptionById,
  type SubscriptionRow,
} from '#server/features/subscriptions/subscriptions.service.ts';
import { notFound } from '#server/lib/errors.ts';
import { bottlesPerDelivery } from '#shared/catalog.ts';
import { couplesPriceCents } from '#shared/couples-price.ts';
import type {
  AddressText,
  TogetherKind,
  ShipTo,
  TogetherAction,
  TogetherItem,
  TogetherLine,
  TogetherOverview,
} from '#shared/partners-together.ts';
import { linkedPartner, type Partner } from './partners.people.ts';
import * as pq from './partners.queries.ts';
import * as q from './partners.together.queries.ts';

export const togetherNotFound = 'We could not find that gift or plan.';

/** A gift or plan between the caller and their partner now; anyone else's is "not found". */
export async function visibleTogether(
  ctx: AppContext,
  session: ActiveSession,
  togetherId: number,
): Promise<{ together: q.TogetherRow; partner: Partner }> {
  const together = await q.selectTogetherItem(ctx.db, togetherId);
  const me = session.customerId;
  if (!together || (together.fromId !== me && together.toId !== me))
    throw notFound(togetherNotFound);
  const partner = await linkedPartner(ctx, me);
  const other = together.fromId === me ? together.toId : together.fromId;
  if (!partner || partner.customerId !== other) throw notFound(togetherNotFound);
  return { together, partner };
}

// --- What each partner sees ----------------------------------------------------------------------

function actionsFor(
  kind: TogetherKind,
  role: TogetherItem['role'],
  status: TogetherItem['status'],
): TogetherAction[] {
  if (status === 'pending') return role === 'payer' ? ['withdraw'] : ['accept', 'decline'];
  const dates: TogetherAction[] =
    status === 'active' ? ['skip', 'move_date', 'pause'] : status === 'paused' ? ['resume'] : [];
  if (kind === 'gift')
    // The recipient keeps the dates and the address; the payer keeps the billing and can end it.
    return role === 'partner' ? [...dates, 'address'] : ['cancel'];
  // A plan's owner pays and keeps the dates; either may end it (decision 018).
  return role === 'payer' ? [...dates, 'cancel'] : ['cancel'];
}

const statusOf = (row: SubscriptionRow | undefined): TogetherItem['status'] | null => {
  if (!row) return 'pending';
  if (row.status === 'ACTIVE') return 'active';
  if (row.status === 'PAUSED') return 'paused';
  if (row.status === 'PAST_DUE') return 'payment_due';
  return null;
};

async function lineOf(
  ctx: AppContext,
  productId: number,
  quantity: number,
  forWhom: TogetherLine['for'],
  couples: boolean,
): Promise<TogetherLine | null> {
  const found = await catalogOffer(ctx.db, productId);
  if (!found || found.frequency === 'ONE_TIME') return null;
  return {
    for: forWhom,
    product_id: found.productId,
    product_name: found.name,
    frequency: found.frequency,
    quantity,
    bottles: bottlesPerDelivery(
      { product_id: found.productId, frequency: found.frequency },
      quantity,
    ),
    unit_price_cents: couples ? couplesPriceCents(found.priceCents) : found.priceCents,
  };
}

const addressText = (row: AddressText | null | undefined): AddressText | null =>
  row
    ? {
        address: row.address,
        address2: row.address2,
        city: row.city,
        state: row.state,
        zip: row.zip,
      }
    : null;

/** An address the caller may see: their own, or the partner's shipping address they share. */
async function visibleAddress(
  ctx: AppContext,
  viewerId: number,
  ownerId: number,
  kind: ShipTo,
): Promise<AddressText | null> {
  if (ownerId !== viewerId) {
    const side = await pq.selectSideSharedWith(ctx.db, viewerId);
    if (!side || side.customerId !== ownerId || !side.shares.address || kind !== 'shipping')
      return null;
  }
  return addressText(await addressOf(ctx, ownerId, kind));
}

export async function toItem(
  ctx: AppContext,
  me: number,
  partner: Partner,
  together: q.TogetherRow,
): Promise<TogetherItem | null> {
  const row = together.subscriptionId
    ? await subscriptionById(ctx, together.subscriptionId)
    : undefined;
  const status = statusOf(row);
  if (!status) return null;
  const role = together.fromId === me ? 'payer' : 'partner';
  const mine = (customerId: number) => (customerId === me ? 'you' : 'partner');
  const couples = together.kind === 'plan';
  const productId = row?.productId ?? together.productId;
  const quantity = row?.quantity ?? together.quantity;
  // A gift's one line is the recipient's; a plan's first line is its owner's.
  const first = await lineOf(
    ctx,
    productId,
    quantity,
    mine(together.kind === 'gift' ? together.toId : together.fromId),
    couples,
  );
  const second = row?.planPartner ?? together.partnerLine;
  const lines = [first];
  if (couples && second)
    lines.push(await lineOf(ctx, second.productId, second.quantity, mine(together.toId), true));
  const present = lines.filter((line): line is TogetherLine => line !== null);
  const card = role === 'payer' ? await cardSummaryOf(ctx, me) : null;
  // A gift ships to its recipient's chosen address; a plan to its owner's shipping address.
  const shipOwner = together.kind === 'gift' ? together.toId : together.fromId;
  const shipTo: ShipTo = row?.gift?.shipTo ?? 'shipping';
  const shipsTo =
    together.kind === 'gift' && !row
      ? null
      : await visibleAddress(ctx, me, shipOwner, together.kind === 'gift' ? shipTo : 'shipping');
  return {
    together_id: together.id,
    kind: together.kind,
    role,
    status,
    partner_first_name: partner.firstName,
    lines: present,
    total_cents: present.reduce((sum, line) => sum + line.unit_price_cents * line.quantity, 0),
    next_date: row?.nextBillingDate ?? null,
    paused_until: row?.pausedUntil ?? null,
    ships_to: shipsTo,
    ships_to_name: shipOwner === me ? 'you' : partner.firstName,
    ship_to: together.kind === 'gift' && role === 'partner' && row ? shipTo : null,
    billed_to: card ? `${card.brand} ending ${card.last4}` : null,
    actions: actionsFor(together.kind, role, status),
  };
}

export async function itemOf(
  ctx: AppContext,
  me: number,
  togetherId: number,
): Promise<TogetherItem> {
  const partner = await linkedPartner(ctx, me);
  const together = await q.selectTogetherItem(ctx.db, togetherId);
  const item = partner && together ? await toItem(ctx, me, partner, together) : null;
  if (!item) throw notFound(togetherNotFound);
  return item;
}

/** The partner page's and Home's view: gifts and plans with the partner, the card, the addresses. */
export async function togetherOverview(
  ctx: AppContext,
  session: ActiveSession,
): Promise<TogetherOverview> {
  const me = session.customerId;
  const card = await cardSummaryOf(ctx, me);
  const addresses = {
    shipping: addressText(await addressOf(ctx, me, 'shipping')),
    billing: addressText(await addressOf(ctx, me, 'billing')),
  };
  const partner = await linkedPartner(ctx, me);
  const items: TogetherItem[] = [];
  if (partner)
    for (const together of await q.selectOpenTogetherBetween(ctx.db, me, partner.customerId)) {
      const item = await toItem(ctx, me, partner, together);
      if (item) items.push(item);
    }
  return { card: card && { brand: card.brand, last4: card.last4 }, addresses, items };
}
