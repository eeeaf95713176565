import type { AppContext } from '#server/context.ts';
import { customerBrief } from '#server/features/accounts/accounts.people.ts';
import { addressOf, cardSummaryOf } from '#server/features/accounts/accounts.service.ts';
import type { ActiveSession } from '#server/features/auth/auth.service.ts';
import { billNow } from '#server/features/billing/billing.service.ts';
import { offer as catalogOffer } from '#server/features/catalog/catalog.service.ts';
import { subscriptionRenewedBy } from '#server/features/orders/orders.history.ts';
import { startTogetherSubscription } from '#server/features/subscriptions/subscriptions.service.ts';
import { AppError, notFound } from '#server/lib/errors.ts';
import { couplesPriceCents } from '#shared/couples-price.ts';
import {
  togetherClosedText,
  type TogetherKind,
  type ShipTo,
  type TogetherItem,
} from '#shared/partners-together.ts';
import type { SubscriptionFrequency } from '#shared/subscriptions.ts';
import { linkedPartner, notLinked, type Partner } from './partners.people.ts';
import * as pq from './partners.queries.ts';
import { itemOf, togetherNotFound, toItem, visibleTogether } from './partners.together-items.ts';
import * as q from './partners.together.queries.ts';

/**
 * Buying together (issue 16, decision 018): gift subscriptions and couples' plans. Each is a gift
 * or plan the other partner answers; accepting it starts one subscription billed to the payer (the
 * giver, or whoever started the plan), which renews through billing exactly as any other. Every
 * call names the gift or plan by its `together_id` and is checked against the session and the
 * link, read fresh: someone else's, or one with a partner no longer linked, is "not found".
 *
 * This file gives, proposes and answers; partners.together-items.ts says how each reads to each
 * partner, partners.together-changes.ts changes and ends them.
 */

const noCardText =
  'Add a card to your account first (Accounts, Payment method): gifts and plans are billed to it.';

type Tx = AppContext;

/**
 * The couples' price is for two people who proved who they are (decision 018): both linked
 * accounts' addresses confirmed by a link mailed to them, not merely typed (decision 016).
 */
async function assertBothVerified(ctx: AppContext, me: number, partner: Partner): Promise<void> {
  const self = await customerBrief(ctx, me);
  if (!self?.emailVerified)
    throw new AppError(
      'SUBSCRIPTION_REFUSED',
      "Confirm your email address first: a couples' plan needs both of you to confirm yours. Send the link again from the Partner page.",
    );
  const theirs = await customerBrief(ctx, partner.customerId);
  if (!theirs?.emailVerified)
    throw new AppError(
      'SUBSCRIPTION_REFUSED',
      `${partner.firstName} has not confirmed their email address yet: a couples' plan needs both of you to confirm yours.`,
    );
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

// --- Giving and proposing ------------------------------------------------------------------------

/** The linked partner a gift or plan would be for, once the caller has a card to pay with. */
async function partnerToPayFor(ctx: AppContext, session: ActiveSession): Promise<Partner> {
  const partner = await linkedPartner(ctx, session.customerId);
  if (!partner) throw notFound(notLinked);
  if (!(await cardSummaryOf(ctx, session.customerId))) throw new AppError('NO_CARD', noCardText);
  return partner;
}

/** Gives the partner a gift subscription, billed to the caller once they accept. */
export async function giveGift(
  ctx: AppContext,
  session: ActiveSession,
  input: { product_id: number; quantity: number },
): Promise<{ item: TogetherItem }> {
  const partner = await partnerToPayFor(ctx, session);
  const product = await subscribableOffer(ctx, input.product_id);
  const id = await q.insertTogetherItem(ctx.db, {
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
  const partner = await partnerToPayFor(ctx, session);
  await assertBothVerified(ctx, session.customerId, partner);
  const own = await subscribableOffer(ctx, input.product_id);
  const theirs = await subscribableOffer(ctx, input.partner_product_id);
  if (own.frequency !== theirs.frequency)
    throw new AppError(
      'SUBSCRIPTION_REFUSED',
      "A couples' plan delivers both together: choose the same frequency for both.",
    );
  const open = await q.selectOpenTogetherBetween(ctx.db, session.customerId, partner.customerId);
  for (const existing of open.filter((o) => o.kind === 'plan'))
    if (await toItem(ctx, session.customerId, partner, existing))
      throw new AppError(
        'SUBSCRIPTION_REFUSED',
        `You and ${partner.firstName} already have a couples' plan. End it before starting another.`,
      );
  const id = await q.insertTogetherItem(ctx.db, {
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
export async function acceptTogether(
  ctx: AppContext,
  session: ActiveSession,
  togetherId: number,
  shipTo: ShipTo | undefined,
): Promise<{ item: TogetherItem; message: string }> {
  const { together, partner } = await visibleTogether(ctx, session, togetherId);
  if (together.toId !== session.customerId) throw notFound(togetherNotFound);
  if (together.status === 'accepted' && together.subscriptionId !== null)
    return {
      item: await itemOf(ctx, session.customerId, together.id),
      message: acceptedText(together),
    };
  if (together.status !== 'pending') throw new AppError('INVITATION_CLOSED', togetherClosedText);
  if (together.kind === 'plan') await assertBothVerified(ctx, session.customerId, partner);

  let gift: { recipientId: number; shipTo: ShipTo } | null = null;
  if (together.kind === 'gift') {
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
  const own = await subscribableOffer(ctx, together.productId);
  const theirs =
    together.partnerLine && (await subscribableOffer(ctx, together.partnerLine.productId));

  const now = ctx.clock.now().toISOString();
  const subscriptionId = await ctx.db.transaction().execute(async (trx) => {
    const tx: Tx = { ...ctx, db: trx };
    if (!(await q.claimAcceptance(trx, together.id, now))) return null;
    const id = await startTogetherSubscription(tx, {
      customerId: together.fromId,
      productId: own.productId,
      frequency: own.frequency,
      quantity: together.quantity,
      unitPriceCents: theirs ? couplesPriceCents(own.priceCents) : own.priceCents,
      gift,
      planPartner:
        theirs && together.partnerLine
          ? {
              customerId: together.toId,
              productId: theirs.productId,
              quantity: together.partnerLine.quantity,
            }
          : null,
    });
    await q.setTogetherSubscription(trx, together.id, id);
    return id;
  });
  if (subscriptionId === null) {
    // Another accept got there first: the same answer, if it was accepted (not withdrawn).
    const current = await q.selectTogetherItem(ctx.db, together.id);
    if (current?.status !== 'accepted') throw new AppError('INVITATION_CLOSED', togetherClosedText);
    return {
      item: await itemOf(ctx, session.customerId, together.id),
      message: acceptedText(together),
    };
  }
  // The first delivery, charged to the payer now; a failure follows the usual retries.
  const outcome = await billNow(ctx, subscriptionId);
  const item = await itemOf(ctx, session.customerId, together.id);
  return {
    item,
    message:
      outcome === 'failed'
        ? `${acceptedText(together)} The first payment did not go through yet; ${partner.firstName} has been asked to update their card.`
        : acceptedText(together),
  };
}

const acceptedText = (together: q.TogetherRow) =>
  together.kind === 'gift'
    ? 'Gift accepted. Your first delivery is on its way.'
    : "Couples' plan started. Your first delivery is on its way.";

export async function declineTogether(
  ctx: AppContext,
  session: ActiveSession,
  togetherId: number,
): Promise<void> {
  const { together, partner } = await visibleTogether(ctx, session, togetherId);
  if (together.toId !== session.customerId) throw notFound(togetherNotFound);
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await q.closeTogetherItem(trx, together.id, 'declined', now)))
      throw new AppError('INVITATION_CLOSED', togetherClosedText);
    const self = await customerBrief({ ...ctx, db: trx }, session.customerId);
    await pq.insertEvent(trx, partner.customerId, {
      kind: together.kind === 'gift' ? 'gift_declined' : 'plan_declined',
      item: null,
      counterpart: self?.firstName ?? 'Your partner',
      quiet: false,
      at: now,
    });
  });
}

// --- For operations ------------------------------------------------------------------------------

/**
 * What operations see on a renewal order of a gift or plan: which it is and for whom (first name
 * and customer id), so they ship it right. The order's own address is where it goes.
 */
export async function togetherForStaff(
  ctx: AppContext,
  orderId: number,
): Promise<{ kind: TogetherKind; partner_first_name: string; partner_id: number } | null> {
  const subscriptionId = await subscriptionRenewedBy(ctx, orderId);
  const found =
    subscriptionId === null
      ? undefined
      : await q.selectTogetherForSubscription(ctx.db, subscriptionId);
  const recipient = found && (await customerBrief(ctx, found.toId));
  return found && recipient
    ? { kind: found.kind, partner_first_name: recipient.firstName, partner_id: found.toId }
    : null;
}
