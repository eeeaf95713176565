// A visit's card hold, kept alive until its provider decides (issue 28).
import crypto from 'node:crypto';
import { HOLD_LIFETIME_MS } from '#server/adapters/payments.ts';
import type { AppContext } from '#server/context.ts';
import { cardOnFileToken } from '#server/features/accounts/accounts.service.ts';
import { sessionUser } from '#server/features/auth/auth.service.ts';
import { selectVisitOrder, swapHold } from '#server/features/orders/orders.visit.queries.ts';
import { queueEmail, sendQueuedSoon } from '#server/features/outbox/outbox.service.ts';
import type { Finishers, StaleWork } from '#server/features/payments/payments.jobs.ts';
import {
  authorize,
  gatewayRecord,
  holdGrantedAt,
  ledgerCall,
  release,
  settleCall,
  type GatewayCall,
  type LedgerRow,
} from '#server/features/payments/payments.service.ts';
import { emailHtml, emailSignature } from '#server/lib/email-layout.ts';
import { absoluteLink } from '#server/lib/links.ts';
import { formatCents } from '#shared/money.ts';
import { paths } from '#shared/paths.ts';
import * as q from './visits.queries.ts';

/**
 * A hold is renewed a day before the card network would drop it (HOLD_LIFETIME_MS), so a provider
 * who decides on day 8 still takes a live hold. The renewal is a new authorisation with the card on
 * file, made while the patient is away; the old hold is released once the new one is in place.
 */
export const HOLD_RENEWAL_AGE_MS = HOLD_LIFETIME_MS - 24 * 60 * 60 * 1000;

type HeldOrder = NonNullable<Awaited<ReturnType<typeof selectVisitOrder>>> & { chargeId: string };

/**
 * For the payment reconciler: the holds of visits still waiting for a provider that are old enough
 * to renew. Each is renewed once with a given card, whichever instance asks: its key names the
 * hold and the card. A card that refused is not asked again; a card the patient saves since is.
 */
export const staleHolds: StaleWork = async (ctx, _graceMs, limit) => {
  const renewBefore = ctx.clock.now().getTime() - HOLD_RENEWAL_AGE_MS;
  const due: (() => Promise<void>)[] = [];
  for (const orderId of await q.selectOrdersAwaitingReview(ctx.db)) {
    const order = await selectVisitOrder(ctx.db, orderId);
    if (order?.paymentStatus !== 'authorized' || order.chargeId === null) continue;
    const granted = await holdGrantedAt(ctx, order.chargeId);
    if (granted === null || granted.getTime() > renewBefore) continue;
    const token = await cardOnFileToken(ctx, order.customerId);
    if (!token) continue;
    const held: HeldOrder = { ...order, chargeId: order.chargeId };
    const call = renewalCall(held, token);
    if ((await ledgerCall(ctx, call.idempotencyKey))?.status === 'failed') continue;
    due.push(() => renewHold(ctx, call, held, token));
    if (due.length === limit) break;
  }
  return due;
};

/** The ledger call that renews the hold `chargeId` of a visit's order with this card. */
function renewalCall(order: HeldOrder, token: string): GatewayCall {
  const card = crypto.createHash('sha256').update(token).digest('hex').slice(0, 16);
  return {
    purpose: 'hold_renewal',
    idempotencyKey: `renew-hold:${order.chargeId}:${card}`,
    amountCents: order.totalCents,
    orderId: order.id,
    sourceRef: order.chargeId,
  };
}

async function renewHold(
  ctx: AppContext,
  call: GatewayCall,
  order: HeldOrder,
  token: string,
): Promise<void> {
  const held = await authorize(ctx, call, token);
  if (!held.ok) {
    await notRenewed(ctx, call, order, held.message);
    return;
  }
  await putRenewalInPlace(ctx, call, held.authorizationId);
}

/**
 * The renewed hold takes the old one's place on the order, in one transaction with the ledger's
 * record of it, and then the old one is released. When the order moved on meanwhile (decided, or
 * renewed by another instance), whichever hold the order does not hold is released.
 */
async function putRenewalInPlace(
  ctx: AppContext,
  call: GatewayCall,
  renewed: string,
): Promise<void> {
  const orderId = call.orderId ?? 0;
  const previous = call.sourceRef ?? '';
  await ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    await settleCall(tx, call.idempotencyKey, { ok: true, ref: renewed });
    await swapHold(tx.db, orderId, previous, renewed, tx.clock.now().toISOString());
  });
  const order = await selectVisitOrder(ctx.db, orderId);
  const unused = order?.chargeId === renewed ? previous : renewed;
  await releaseHold(ctx, orderId, unused, call.amountCents);
}

/** Releases a hold of this order, once however often asked (its key names the hold). */
export async function releaseHold(
  ctx: AppContext,
  orderId: number,
  authorizationId: string,
  amountCents: number,
): Promise<void> {
  const call = {
    purpose: 'release_orphan',
    idempotencyKey: `release:${authorizationId}`,
    amountCents,
    orderId,
    sourceRef: authorizationId,
  };
  await settleCall(ctx, call.idempotencyKey, await release(ctx, call));
}

/**
 * The card would not take a new hold: the renewal is settled as failed, and the patient is asked,
 * once, to update their card before the old hold lapses. Their visit still waits for its provider;
 * at approval the card on file is charged (reviews.service.ts), so an updated card is all it takes.
 */
async function notRenewed(
  ctx: AppContext,
  call: GatewayCall,
  order: HeldOrder,
  failure: string,
): Promise<void> {
  const user = await sessionUser(ctx, order.customerId);
  const told = await ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    // Settled once: the patient is asked once per hold, however often this runs.
    const settled = await settleCall(tx, call.idempotencyKey, { ok: false, failure });
    if (!settled) return false;
    await sendUpdateCard(tx, user, order);
    return true;
  });
  if (told) sendQueuedSoon(ctx);
}

/**
 * No program or medicine: that a visit waits, that its hold could not be renewed, and what to do.
 * The bank's reason is not repeated in an email.
 */
async function sendUpdateCard(
  ctx: AppContext,
  user: { first_name: string; email: string },
  order: HeldOrder,
): Promise<void> {
  const link = absoluteLink(ctx.env, paths.editPaymentMethod);
  const lines = [
    `Hello ${user.first_name},`,
    `Your online visit is still waiting for your provider. We hold ${formatCents(order.totalCents)} on your card while they review it, and card holds last only about a week, so we tried to renew it. Your card did not accept the new hold.`,
    'Please check your card, or add another, in your account. Nothing has been charged: your card is charged only if your provider approves treatment.',
  ];
  await queueEmail(ctx, {
    to: user.email,
    subject: 'Please update your card for your online visit',
    text: [...lines, '', `Update your card: ${link}`, '', ...emailSignature].join('\n'),
    html: emailHtml(
      lines,
      { href: link, label: 'Update your card' },
      'Questions? Write to us any time from your account.',
    ),
  });
}

/**
 * For the payment reconciler: a renewal a crash interrupted. The gateway says whether the new hold
 * was made (then it is put in place) or not (then the renewal failed and the patient is asked).
 */
async function finishHoldRenewal(ctx: AppContext, row: LedgerRow): Promise<void> {
  const call: GatewayCall = {
    purpose: row.purpose,
    idempotencyKey: row.idempotencyKey,
    amountCents: row.amountCents,
    orderId: row.orderId,
    sourceRef: row.sourceRef,
  };
  const record = await gatewayRecord(ctx, { idempotencyKey: row.idempotencyKey });
  if (record?.status === 'authorized') {
    await putRenewalInPlace(ctx, call, record.id);
    return;
  }
  const order = await selectVisitOrder(ctx.db, row.orderId ?? 0);
  const failure = record?.failureMessage ?? 'The renewal never reached the gateway.';
  if (order?.chargeId) await notRenewed(ctx, call, { ...order, chargeId: order.chargeId }, failure);
  else await settleCall(ctx, row.idempotencyKey, { ok: false, failure });
}

/** What the payment reconciler runs for hold renewals (registered at start, app.ts). */
export const holdFinishers: Finishers = { hold_renewal: finishHoldRenewal };
