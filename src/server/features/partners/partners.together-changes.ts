// Changing and ending a gift or couples' plan (issue 16, decision 018): withdrawing a waiting
// one, ending a running one, the recipient's or owner's dates and address, and everything
// between two partners ending with their link.
import type { AppContext } from '#server/context.ts';
import { customerBrief } from '#server/features/accounts/accounts.people.ts';
import { addressOf } from '#server/features/accounts/accounts.service.ts';
import type { ActiveSession } from '#server/features/auth/auth.service.ts';
import {
  changeTogetherSubscription,
  endTogetherSubscription,
  setGiftShipTo,
  subscriptionById,
} from '#server/features/subscriptions/subscriptions.service.ts';
import { AppError, notFound } from '#server/lib/errors.ts';
import { usDateFromIso } from '#shared/dates.ts';
import type { HistoryKind } from '#shared/partners.ts';
import type {
  ShipTo,
  TogetherAction,
  TogetherChange,
  TogetherItem,
} from '#shared/partners-together.ts';
import { changeMessage } from '#shared/subscriptions.ts';
import type { Partner } from './partners.people.ts';
import * as pq from './partners.queries.ts';
import { itemOf, togetherNotFound, visibleTogether } from './partners.together-items.ts';
import * as q from './partners.together.queries.ts';

type Tx = AppContext;

const today = (ctx: AppContext) => ctx.clock.now().toISOString().slice(0, 10);

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
 * Withdraws a waiting gift or plan (its payer), or ends a running one (as decision 018 allows):
 * no further charge, and the other partner reads it in their history.
 */
export async function cancelTogether(
  ctx: AppContext,
  session: ActiveSession,
  togetherId: number,
): Promise<string> {
  const { together, partner } = await visibleTogether(ctx, session, togetherId);
  const item = await itemOf(ctx, session.customerId, together.id);
  const now = ctx.clock.now().toISOString();
  if (item.status === 'pending') {
    assertAllowed(item, 'withdraw');
    if (!(await q.closeTogetherItem(ctx.db, together.id, 'withdrawn', now)))
      throw new AppError(
        'SUBSCRIPTION_CHANGED',
        'This just changed. Please review it and try again.',
      );
    return together.kind === 'gift' ? 'Gift withdrawn.' : "Couples' plan withdrawn.";
  }
  assertAllowed(item, 'cancel');
  if (together.subscriptionId === null) throw notFound(togetherNotFound);
  const self = await customerBrief(ctx, session.customerId);
  await changeTogetherSubscription(ctx, together.subscriptionId, {
    action: 'cancel',
    reason: together.kind === 'gift' ? 'Gift ended' : "Couples' plan ended",
  });
  const kind: HistoryKind = together.kind === 'gift' ? 'gift_ended' : 'plan_ended';
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
  return together.kind === 'gift'
    ? 'The gift has ended. Nothing more will be charged.'
    : "Your couples' plan has ended. Nothing more will be charged.";
}

/** Skip, move, pause or resume: a gift's recipient, or a plan's owner. */
export async function changeTogether(
  ctx: AppContext,
  session: ActiveSession,
  togetherId: number,
  change: TogetherChange,
): Promise<{ item: TogetherItem; message: string }> {
  const { together } = await visibleTogether(ctx, session, togetherId);
  const item = await itemOf(ctx, session.customerId, together.id);
  assertAllowed(item, change.action);
  if (together.subscriptionId === null) throw notFound(togetherNotFound);
  if (together.kind === 'gift' && change.action === 'move_date')
    await refuseEarlierCharge(ctx, together.subscriptionId, change.date, item.partner_first_name);
  await changeTogetherSubscription(ctx, together.subscriptionId, change);
  const fresh = await itemOf(ctx, session.customerId, together.id);
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
  if (!row) throw notFound(togetherNotFound);
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
  togetherId: number,
  shipTo: ShipTo,
): Promise<{ item: TogetherItem }> {
  const { together } = await visibleTogether(ctx, session, togetherId);
  const item = await itemOf(ctx, session.customerId, together.id);
  assertAllowed(item, 'address');
  if (!(await addressOf(ctx, session.customerId, shipTo)))
    throw new AppError('SUBSCRIPTION_REFUSED', `Add your ${shipTo} address in Accounts first.`);
  if (
    together.subscriptionId === null ||
    !(await setGiftShipTo(ctx, together.subscriptionId, shipTo))
  )
    throw notFound(togetherNotFound);
  return { item: await itemOf(ctx, session.customerId, together.id) };
}
// --- When the link ends --------------------------------------------------------------------------

/**
 * In the unlink's transaction: every gift and plan between the two ends at once (no further
 * charge, an unpaid renewal voided), waiting ones close, and each person's history says so.
 * No email, whatever the unlink chose: the link-ended note (if any) is the only one.
 */
export async function endTogetherOnUnlink(
  tx: Tx,
  a: Partner,
  b: Partner,
  now: string,
): Promise<void> {
  for (const together of await q.selectOpenTogetherBetween(tx.db, a.customerId, b.customerId)) {
    if (together.status === 'pending') {
      await q.closeTogetherItem(tx.db, together.id, 'closed', now);
      continue;
    }
    if (together.subscriptionId === null) continue;
    if (!(await endTogetherSubscription(tx, together.subscriptionId, 'The partner link ended')))
      continue;
    for (const [who, other] of [
      [a, b],
      [b, a],
    ] as const)
      await pq.insertEvent(tx.db, who.customerId, {
        kind: together.kind === 'gift' ? 'gift_ended' : 'plan_ended',
        item: null,
        counterpart: other.firstName,
        quiet: false,
        at: now,
      });
  }
}
