import type { AppContext } from '#server/context.ts';
import { addressOf, cardSummaryOf } from '#server/features/accounts/accounts.service.ts';
import type { ActiveSession } from '#server/features/auth/auth.service.ts';
import { billNow } from '#server/features/billing/billing.service.ts';
import { offer as catalogOffer } from '#server/features/catalog/catalog.service.ts';
import {
  changeTogetherSubscription,
  endTogetherSubscription,
  setGiftShipTo,
  startTogetherSubscription,
  subscriptionById,
  type SubscriptionRow,
} from '#server/features/subscriptions/subscriptions.service.ts';
import { AppError, notFound } from '#server/lib/errors.ts';
import { bottlesPerDelivery } from '#shared/catalog.ts';
import { couplesPriceCents } from '#shared/couples-price.ts';
import { usDateFromIso } from '#shared/dates.ts';
import type { HistoryKind } from '#shared/partners.ts';
import {
  offerClosedText,
  type AddressText,
  type OfferKind,
  type ShipTo,
  type TogetherAction,
  type TogetherChange,
  type TogetherItem,
  type TogetherLine,
  type TogetherOverview,
} from '#shared/partners-together.ts';
import { changeMessage, type SubscriptionFrequency } from '#shared/subscriptions.ts';
import * as pq from './partners.queries.ts';
import * as q from './partners.together.queries.ts';

/**
 * Buying together (issue 16, decision 018): gift subscriptions and couples' plans. Each is an
 * offer the other partner answers; accepting it starts one subscription billed to the payer (the
 * giver, or whoever started the plan), which renews through billing exactly as any other. Every
 * call names the offer by its id and is checked against the session and the link, read fresh:
 * someone else's offer, or one with a partner no longer linked, is "not found".
 */

const notLinked = 'You are not linked with a partner.';
const offerNotFound = 'We could not find that gift or plan.';
const noCardText =
  'Add a card to your account first (Accounts, Payment method): gifts and plans are billed to it.';

type Tx = AppContext;

const today = (ctx: AppContext) => ctx.clock.now().toISOString().slice(0, 10);

interface Partner {
  customerId: number;
  firstName: string;
}

/**
 * The couples' price is for two people who proved who they are (decision 018): both linked
 * accounts' addresses confirmed by a link mailed to them, not merely typed (decision 016).
 */
async function assertBothVerified(ctx: AppContext, me: number, partner: Partner): Promise<void> {
  const self = await pq.selectCustomerBrief(ctx.db, me);
  if (!self?.emailVerified)
    throw new AppError(
      'SUBSCRIPTION_REFUSED',
      "Confirm your email address first: a couples' plan needs both of you to confirm yours. Send the link again from the Partner page.",
    );
  const theirs = await pq.selectCustomerBrief(ctx.db, partner.customerId);
  if (!theirs?.emailVerified)
    throw new AppError(
      'SUBSCRIPTION_REFUSED',
      `${partner.firstName} has not confirmed their email address yet: a couples' plan needs both of you to confirm yours.`,
    );
}

/** The caller's linked partner, read now; undefined when not linked. */
async function linkedPartner(ctx: AppContext, customerId: number): Promise<Partner | undefined> {
  const link = await pq.selectOwnLink(ctx.db, customerId);
  if (!link) return undefined;
  const brief = await pq.selectCustomerBrief(ctx.db, link.partnerId);
  return brief && { customerId: brief.customerId, firstName: brief.firstName };
}

/** An offer between the caller and their partner now; anyone else's is "not found". */
async function visibleOffer(
  ctx: AppContext,
  session: ActiveSession,
  offerId: number,
): Promise<{ offer: q.OfferRow; partner: Partner }> {
  const offer = await q.selectOffer(ctx.db, offerId);
  const me = session.customerId;
  if (!offer || (offer.fromId !== me && offer.toId !== me)) throw notFound(offerNotFound);
  const partner = await linkedPartner(ctx, me);
  const other = offer.fromId === me ? offer.toId : offer.fromId;
  if (!partner || partner.customerId !== other) throw notFound(offerNotFound);
  return { offer, partner };
}

/** A monthly or quarterly supplement of the catalogue, as it is sold now. */
async function subscribableOffer(ctx: AppContext, productId: number) {
  const found = await catalogOffer(ctx.db, productId);
  if (!found || found.category !== 'supplements' || found.frequency === 'ONE_TIME')
    throw new AppError(
      'SUBSCRIPTION_REFUSED',
      'Choose a supplement subscription, delivered monthly or quarterly.',
    );
  return { ...found, frequency: found.frequency as SubscriptionFrequency };
}

// --- What each partner sees ----------------------------------------------------------------------

function actionsFor(
  kind: OfferKind,
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

async function toItem(
  ctx: AppContext,
  me: number,
  partner: Partner,
  offer: q.OfferRow,
): Promise<TogetherItem | null> {
  const row = offer.subscriptionId ? await subscriptionById(ctx, offer.subscriptionId) : undefined;
  const status = statusOf(row);
  if (!status) return null;
  const role = offer.fromId === me ? 'payer' : 'partner';
  const mine = (customerId: number) => (customerId === me ? 'you' : 'partner');
  const couples = offer.kind === 'plan';
  const productId = row?.productId ?? offer.productId;
  const quantity = row?.quantity ?? offer.quantity;
  // A gift's one line is the recipient's; a plan's first line is its owner's.
  const first = await lineOf(
    ctx,
    productId,
    quantity,
    mine(offer.kind === 'gift' ? offer.toId : offer.fromId),
    couples,
  );
  const second = row?.planPartner ?? offer.partnerLine;
  const lines = [first];
  if (couples && second)
    lines.push(await lineOf(ctx, second.productId, second.quantity, mine(offer.toId), true));
  const present = lines.filter((line): line is TogetherLine => line !== null);
  const card = role === 'payer' ? await cardSummaryOf(ctx, me) : null;
  // A gift ships to its recipient's chosen address; a plan to its owner's shipping address.
  const shipOwner = offer.kind === 'gift' ? offer.toId : offer.fromId;
  const shipTo: ShipTo = row?.gift?.shipTo ?? 'shipping';
  const shipsTo =
    offer.kind === 'gift' && !row
      ? null
      : await visibleAddress(ctx, me, shipOwner, offer.kind === 'gift' ? shipTo : 'shipping');
  return {
    offer_id: offer.id,
    kind: offer.kind,
    role,
    status,
    partner_first_name: partner.firstName,
    lines: present,
    total_cents: present.reduce((sum, line) => sum + line.unit_price_cents * line.quantity, 0),
    next_date: row?.nextBillingDate ?? null,
    paused_until: row?.pausedUntil ?? null,
    ships_to: shipsTo,
    ships_to_name: shipOwner === me ? 'you' : partner.firstName,
    ship_to: offer.kind === 'gift' && role === 'partner' && row ? shipTo : null,
    billed_to: card ? `${card.brand} ending ${card.last4}` : null,
    actions: actionsFor(offer.kind, role, status),
  };
}

async function itemOf(ctx: AppContext, me: number, offerId: number): Promise<TogetherItem> {
  const partner = await linkedPartner(ctx, me);
  const offer = await q.selectOffer(ctx.db, offerId);
  const item = partner && offer ? await toItem(ctx, me, partner, offer) : null;
  if (!item) throw notFound(offerNotFound);
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
    for (const offer of await q.selectOpenOffersBetween(ctx.db, me, partner.customerId)) {
      const item = await toItem(ctx, me, partner, offer);
      if (item) items.push(item);
    }
  return { card: card && { brand: card.brand, last4: card.last4 }, addresses, items };
}

// --- Offering ------------------------------------------------------------------------------------

async function offerable(ctx: AppContext, session: ActiveSession): Promise<Partner> {
  const partner = await linkedPartner(ctx, session.customerId);
  if (!partner) throw notFound(notLinked);
  if (!(await cardSummaryOf(ctx, session.customerId))) throw new AppError('NO_CARD', noCardText);
  return partner;
}

/** Offers the partner a gift subscription, billed to the caller once they accept. */
export async function giveGift(
  ctx: AppContext,
  session: ActiveSession,
  input: { product_id: number; quantity: number },
): Promise<{ item: TogetherItem }> {
  const partner = await offerable(ctx, session);
  const product = await subscribableOffer(ctx, input.product_id);
  const id = await q.insertOffer(ctx.db, {
    kind: 'gift',
    fromId: session.customerId,
    toId: partner.customerId,
    productId: product.productId,
    quantity: input.quantity,
    partnerLine: null,
    now: ctx.clock.now().toISOString(),
  });
  return { item: await itemOf(ctx, session.customerId, id) };
}

/** Proposes a couples' plan: the caller's line and the partner's, one date, one charge. */
export async function startPlan(
  ctx: AppContext,
  session: ActiveSession,
  input: {
    product_id: number;
    quantity: number;
    partner_product_id: number;
    partner_quantity: number;
  },
): Promise<{ item: TogetherItem }> {
  const partner = await offerable(ctx, session);
  await assertBothVerified(ctx, session.customerId, partner);
  const own = await subscribableOffer(ctx, input.product_id);
  const theirs = await subscribableOffer(ctx, input.partner_product_id);
  if (own.frequency !== theirs.frequency)
    throw new AppError(
      'SUBSCRIPTION_REFUSED',
      "A couples' plan delivers both together: choose the same frequency for both.",
    );
  const open = await q.selectOpenOffersBetween(ctx.db, session.customerId, partner.customerId);
  for (const existing of open.filter((o) => o.kind === 'plan'))
    if (await toItem(ctx, session.customerId, partner, existing))
      throw new AppError(
        'SUBSCRIPTION_REFUSED',
        `You and ${partner.firstName} already have a couples' plan. End it before starting another.`,
      );
  const id = await q.insertOffer(ctx.db, {
    kind: 'plan',
    fromId: session.customerId,
    toId: partner.customerId,
    productId: own.productId,
    quantity: input.quantity,
    partnerLine: { productId: theirs.productId, quantity: input.partner_quantity },
    now: ctx.clock.now().toISOString(),
  });
  return { item: await itemOf(ctx, session.customerId, id) };
}

// --- Answering -----------------------------------------------------------------------------------

/**
 * Accepts a gift or plan: its subscription starts, billed to the payer, and the first delivery is
 * charged now under the renewal's exactly-once key. A second accept (a double click, another
 * instance) finds it accepted and answers the same; only one subscription and one charge exist.
 */
export async function acceptOffer(
  ctx: AppContext,
  session: ActiveSession,
  offerId: number,
  shipTo: ShipTo | undefined,
): Promise<{ item: TogetherItem; message: string }> {
  const { offer, partner } = await visibleOffer(ctx, session, offerId);
  if (offer.toId !== session.customerId) throw notFound(offerNotFound);
  if (offer.status === 'accepted' && offer.subscriptionId !== null)
    return { item: await itemOf(ctx, session.customerId, offer.id), message: acceptedText(offer) };
  if (offer.status !== 'pending') throw new AppError('INVITATION_CLOSED', offerClosedText);
  if (offer.kind === 'plan') await assertBothVerified(ctx, session.customerId, partner);

  let gift: { recipientId: number; shipTo: ShipTo } | null = null;
  if (offer.kind === 'gift') {
    if (!shipTo) {
      const message = 'Choose where it ships';
      throw new AppError('VALIDATION', message, { ship_to: message });
    }
    if (!(await addressOf(ctx, session.customerId, shipTo)))
      throw new AppError(
        'SUBSCRIPTION_REFUSED',
        `Add your ${shipTo} address in Accounts first, then accept the gift.`,
      );
    gift = { recipientId: session.customerId, shipTo };
  }
  const own = await subscribableOffer(ctx, offer.productId);
  const theirs = offer.partnerLine && (await subscribableOffer(ctx, offer.partnerLine.productId));

  const now = ctx.clock.now().toISOString();
  const subscriptionId = await ctx.db.transaction().execute(async (trx) => {
    const tx: Tx = { ...ctx, db: trx };
    if (!(await q.claimAcceptance(trx, offer.id, now))) return null;
    const id = await startTogetherSubscription(tx, {
      customerId: offer.fromId,
      productId: own.productId,
      frequency: own.frequency,
      quantity: offer.quantity,
      unitPriceCents: theirs ? couplesPriceCents(own.priceCents) : own.priceCents,
      gift,
      planPartner:
        theirs && offer.partnerLine
          ? {
              customerId: offer.toId,
              productId: theirs.productId,
              quantity: offer.partnerLine.quantity,
            }
          : null,
    });
    await q.setOfferSubscription(trx, offer.id, id);
    return id;
  });
  if (subscriptionId === null) {
    // Another accept got there first: the same answer, if it was accepted (not withdrawn).
    const now = await q.selectOffer(ctx.db, offer.id);
    if (now?.status !== 'accepted') throw new AppError('INVITATION_CLOSED', offerClosedText);
    return { item: await itemOf(ctx, session.customerId, offer.id), message: acceptedText(offer) };
  }
  // The first delivery, charged to the payer now; a failure follows the usual retries.
  const outcome = await billNow(ctx, subscriptionId);
  const item = await itemOf(ctx, session.customerId, offer.id);
  return {
    item,
    message:
      outcome === 'failed'
        ? `${acceptedText(offer)} The first payment did not go through yet; ${partner.firstName} has been asked to update their card.`
        : acceptedText(offer),
  };
}

const acceptedText = (offer: q.OfferRow) =>
  offer.kind === 'gift'
    ? 'Gift accepted. Your first delivery is on its way.'
    : "Couples' plan started. Your first delivery is on its way.";

export async function declineOffer(
  ctx: AppContext,
  session: ActiveSession,
  offerId: number,
): Promise<void> {
  const { offer, partner } = await visibleOffer(ctx, session, offerId);
  if (offer.toId !== session.customerId) throw notFound(offerNotFound);
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await q.closeOffer(trx, offer.id, 'declined', now)))
      throw new AppError('INVITATION_CLOSED', offerClosedText);
    const self = await pq.selectCustomerBrief(trx, session.customerId);
    await pq.insertEvent(trx, partner.customerId, {
      kind: offer.kind === 'gift' ? 'gift_declined' : 'plan_declined',
      item: null,
      counterpart: self?.firstName ?? 'Your partner',
      quiet: false,
      at: now,
    });
  });
}

// --- Changing and ending -------------------------------------------------------------------------

function assertAllowed(item: TogetherItem, action: TogetherAction): void {
  if (item.actions.includes(action)) return;
  const whose =
    item.kind === 'gift'
      ? item.role === 'payer'
        ? `${item.partner_first_name} manages the dates and address of this gift; you can end it.`
        : `${item.partner_first_name} pays for this gift; you manage its dates and address.`
      : item.role === 'partner'
        ? `${item.partner_first_name} manages this plan's dates; you can end it.`
        : 'This plan cannot be changed that way now.';
  throw new AppError('SUBSCRIPTION_REFUSED', whose);
}

/**
 * Withdraws a waiting offer (its payer), or ends a running gift or plan (as decision 018 allows):
 * no further charge, and the other partner reads it in their history.
 */
export async function cancelOffer(
  ctx: AppContext,
  session: ActiveSession,
  offerId: number,
): Promise<string> {
  const { offer, partner } = await visibleOffer(ctx, session, offerId);
  const item = await itemOf(ctx, session.customerId, offer.id);
  const now = ctx.clock.now().toISOString();
  if (item.status === 'pending') {
    assertAllowed(item, 'withdraw');
    if (!(await q.closeOffer(ctx.db, offer.id, 'withdrawn', now)))
      throw new AppError(
        'SUBSCRIPTION_CHANGED',
        'This just changed. Please review it and try again.',
      );
    return offer.kind === 'gift' ? 'Gift withdrawn.' : "Couples' plan withdrawn.";
  }
  assertAllowed(item, 'cancel');
  if (offer.subscriptionId === null) throw notFound(offerNotFound);
  const self = await pq.selectCustomerBrief(ctx.db, session.customerId);
  await changeTogetherSubscription(ctx, offer.subscriptionId, {
    action: 'cancel',
    reason: offer.kind === 'gift' ? 'Gift ended' : "Couples' plan ended",
  });
  const kind: HistoryKind = offer.kind === 'gift' ? 'gift_ended' : 'plan_ended';
  for (const [who, other] of [
    [session.customerId, partner.firstName],
    [partner.customerId, self?.firstName ?? 'your partner'],
  ] as const)
    await pq.insertEvent(ctx.db, who, {
      kind,
      item: null,
      counterpart: other,
      quiet: false,
      at: now,
    });
  return offer.kind === 'gift'
    ? 'The gift has ended. Nothing more will be charged.'
    : "Your couples' plan has ended. Nothing more will be charged.";
}

/** Skip, move, pause or resume: a gift's recipient, or a plan's owner. */
export async function changeOffer(
  ctx: AppContext,
  session: ActiveSession,
  offerId: number,
  change: TogetherChange,
): Promise<{ item: TogetherItem; message: string }> {
  const { offer } = await visibleOffer(ctx, session, offerId);
  const item = await itemOf(ctx, session.customerId, offer.id);
  assertAllowed(item, change.action);
  if (offer.subscriptionId === null) throw notFound(offerNotFound);
  if (offer.kind === 'gift' && change.action === 'move_date')
    await refuseEarlierCharge(ctx, offer.subscriptionId, change.date, item.partner_first_name);
  await changeTogetherSubscription(ctx, offer.subscriptionId, change);
  const fresh = await itemOf(ctx, session.customerId, offer.id);
  const message =
    change.action === 'move_date' || change.action === 'skip'
      ? `${changeMessage(change)} It is now ${usDateFromIso(fresh.next_date ?? today(ctx))}.`
      : changeMessage(change);
  return { item: fresh, message };
}

/**
 * Only the payer brings a charge forward (decision 018): a gift's recipient may move the next
 * delivery later, or earlier only as far as the day the periods already paid run to. Otherwise
 * moving it to tomorrow right after each renewal would bill the payer again and again.
 */
async function refuseEarlierCharge(
  ctx: AppContext,
  subscriptionId: number,
  date: string,
  payerFirstName: string,
): Promise<void> {
  const row = await subscriptionById(ctx, subscriptionId);
  if (!row) throw notFound(offerNotFound);
  const paidThrough = row.paidThrough ?? row.nextBillingDate;
  if (date < paidThrough)
    throw new AppError(
      'SUBSCRIPTION_REFUSED',
      `${payerFirstName} has paid for this gift until ${usDateFromIso(paidThrough)}. Choose that date or a later one: only ${payerFirstName} can bring a charge forward.`,
    );
}

/** A gift's recipient chooses another of their addresses; the payer never can. */
export async function changeShipTo(
  ctx: AppContext,
  session: ActiveSession,
  offerId: number,
  shipTo: ShipTo,
): Promise<{ item: TogetherItem }> {
  const { offer } = await visibleOffer(ctx, session, offerId);
  const item = await itemOf(ctx, session.customerId, offer.id);
  assertAllowed(item, 'address');
  if (!(await addressOf(ctx, session.customerId, shipTo)))
    throw new AppError('SUBSCRIPTION_REFUSED', `Add your ${shipTo} address in Accounts first.`);
  if (offer.subscriptionId === null || !(await setGiftShipTo(ctx, offer.subscriptionId, shipTo)))
    throw notFound(offerNotFound);
  return { item: await itemOf(ctx, session.customerId, offer.id) };
}

// --- When the link ends --------------------------------------------------------------------------

/**
 * In the unlink's transaction: every gift and plan between the two ends at once (no further
 * charge, an unpaid renewal voided), waiting offers close, and each person's history says so.
 * No email, whatever the unlink chose: the link-ended note (if any) is the only one.
 */
export async function endTogetherOnUnlink(
  tx: Tx,
  a: Partner,
  b: Partner,
  now: string,
): Promise<void> {
  for (const offer of await q.selectOpenOffersBetween(tx.db, a.customerId, b.customerId)) {
    if (offer.status === 'pending') {
      await q.closeOffer(tx.db, offer.id, 'closed', now);
      continue;
    }
    if (offer.subscriptionId === null) continue;
    if (!(await endTogetherSubscription(tx, offer.subscriptionId, 'The partner link ended')))
      continue;
    for (const [who, other] of [
      [a, b],
      [b, a],
    ] as const)
      await pq.insertEvent(tx.db, who.customerId, {
        kind: offer.kind === 'gift' ? 'gift_ended' : 'plan_ended',
        item: null,
        counterpart: other.firstName,
        quiet: false,
        at: now,
      });
  }
}

// --- For operations ------------------------------------------------------------------------------

/**
 * What operations see on a renewal order of a gift or plan: which it is and for whom (first name
 * and customer id), so they ship it right. The order's own address is where it goes.
 */
export async function togetherForStaff(
  ctx: AppContext,
  orderId: number,
): Promise<{ kind: OfferKind; partner_first_name: string; partner_id: number } | null> {
  const found = await q.selectOfferForOrder(ctx.db, orderId);
  return found
    ? { kind: found.kind, partner_first_name: found.toFirstName, partner_id: found.toId }
    : null;
}
