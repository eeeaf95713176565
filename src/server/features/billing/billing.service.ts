import type { AppContext } from '#server/context.ts';
import {
  cardOnFileToken,
  shippingAddressOf,
  updateCard,
} from '#server/features/accounts/accounts.service.ts';
import type { ActiveSession } from '#server/features/auth/auth.service.ts';
import type { CardPayload, CardSummary } from '#shared/accounts.ts';
import { sessionUser } from '#server/features/auth/auth.service.ts';
import { offer } from '#server/features/catalog/catalog.service.ts';
import {
  createPendingOrder,
  dueRetries,
  orderAttempt,
  orderById,
  recordPayment,
  recordPaymentFailure,
  unpaidOrdersOf,
  type UnpaidOrder,
} from '#server/features/orders/orders.service.ts';
import {
  advanceAfterPayment,
  completeFinishedRefills,
  dueSubscriptions,
  markPastDue,
  pauseAfterFailedRetries,
  resumeEndedPauses,
  type SubscriptionRow,
} from '#server/features/subscriptions/subscriptions.service.ts';
import { emailHtml, emailSignature } from '#server/lib/email-layout.ts';
import { formatCents } from '#shared/money.ts';
import { site } from '#shared/site.ts';

/**
 * Renewal billing (DESIGN §3). Exactly once per subscription per period, from any number of
 * instances: the renewal order's idempotency key (`renewal:<subscription>:<period>`) is unique in
 * the database, the gateway charge's key is the order's (`order:<id>:attempt:<n>`), and every state
 * change is a compare-and-set. A crash between charge and commit is repaired by the next run, which
 * asks the gateway again with the same key and gets the same charge back.
 *
 * Failed payments follow the retry policy: again 1, 3 and 7 days after the first failure; after the
 * last one fails the subscription pauses until the customer updates their card.
 */
export const retryPolicyDays = [1, 3, 7] as const;
const DAY_MS = 24 * 60 * 60_000;
/** A pending renewal this old was interrupted: the next run drives it again. */
const STALE_PENDING_MS = 5 * 60_000;
const BATCH = 500;

export interface BillingRun {
  renewed: number;
  failed: number;
  recovered: number;
}

export async function runBilling(ctx: AppContext): Promise<BillingRun> {
  const run: BillingRun = { renewed: 0, failed: 0, recovered: 0 };
  await resumeEndedPauses(ctx);
  await completeFinishedRefills(ctx);
  // Each pass bills one period per due subscription; a subscription far behind (a server that was
  // down) catches up period by period.
  for (;;) {
    const due = await dueSubscriptions(ctx, BATCH);
    let progressed = 0;
    for (const subscription of due) {
      const outcome = await renewSubscription(ctx, subscription);
      if (outcome === 'paid') run.renewed++;
      if (outcome === 'failed') run.failed++;
      if (outcome !== 'busy') progressed++;
    }
    if (due.length < BATCH || progressed === 0) break;
  }
  for (const order of await dueRetries(ctx, BATCH)) {
    if ((await chargeUnpaid(ctx, order, 'retry')) === 'paid') run.recovered++;
  }
  return run;
}

type Outcome = 'paid' | 'failed' | 'busy';

async function renewSubscription(ctx: AppContext, subscription: SubscriptionRow): Promise<Outcome> {
  const period = subscription.nextBillingDate;
  const key = `renewal:${subscription.id}:${period}`;
  let attempt = await orderAttempt(ctx, key);
  let createdHere = false;
  if (!attempt) {
    const line = await renewalLine(ctx, subscription);
    const shipping = await shippingAddressOf(ctx, subscription.customerId);
    if (!line || !shipping) return 'busy';
    const priceCents = line.unitPriceCents;
    const created = await createPendingOrder(ctx, {
      customerId: subscription.customerId,
      kind: 'renewal',
      idempotencyKey: key,
      subscriptionId: subscription.id,
      billingPeriod: period,
      subtotalCents: priceCents * subscription.quantity,
      discountCents: 0,
      totalCents: priceCents * subscription.quantity,
      couponCode: null,
      clickId: null,
      shipping,
      lines: [{ ...line, frequency: subscription.frequency, quantity: subscription.quantity }],
      now: ctx.clock.now().toISOString(),
    });
    // Another instance inserted it between our look and our insert: it is theirs to bill.
    if (!created) return 'busy';
    createdHere = true;
    attempt = await orderAttempt(ctx, key);
    if (!attempt) return 'busy';
  }
  if (attempt.paymentStatus === 'paid') {
    await advanceAfterPayment(ctx, subscription.id, period);
    return 'busy';
  }
  if (attempt.paymentStatus === 'unpaid') {
    // The period already failed: retries own it now; the subscription waits as past due.
    await markPastDue(ctx, subscription.id);
    return 'busy';
  }
  // Pending and not ours: another instance is charging it, unless it has been pending too long.
  if (!createdHere && ctx.clock.now().getTime() - Date.parse(attempt.updatedAt) < STALE_PENDING_MS)
    return 'busy';
  const order = await orderById(ctx, attempt.id);
  if (!order) return 'busy';
  return chargeUnpaid(ctx, order, 'renewal');
}

/**
 * What a renewal sells: a supplement at its offer's current price, or a refill as the prescription
 * and visit set it (order lines of prescriptions name no catalogue product: product id 0).
 */
async function renewalLine(ctx: AppContext, subscription: SubscriptionRow) {
  if (subscription.refill)
    return {
      productId: 0,
      name: subscription.refill.name,
      image: subscription.refill.image,
      category: subscription.refill.category,
      unitPriceCents: subscription.unitPriceCents,
    };
  const product =
    subscription.productId === null ? undefined : await offer(ctx.db, subscription.productId);
  return (
    product && {
      productId: product.productId,
      name: product.name,
      image: product.img,
      category: product.category,
      unitPriceCents: product.priceCents,
    }
  );
}

/**
 * Charges an order that is pending (a renewal) or unpaid (a retry, or a card update). Attempt n uses
 * the gateway key `order:<id>:attempt:<n>`, so every instance asking for the same attempt shares
 * one charge.
 */
async function chargeUnpaid(
  ctx: AppContext,
  order: UnpaidOrder,
  reason: 'renewal' | 'retry' | 'card_update',
): Promise<Outcome> {
  const attemptNumber = order.paymentAttempts + 1;
  const token = await cardOnFileToken(ctx, order.customerId);
  const result = token
    ? await ctx.payments.charge(
        {
          token,
          amountCents: order.totalCents,
          idempotencyKey: `order:${order.id}:attempt:${attemptNumber}`,
        },
        ctx.clock.now(),
      )
    : ({ ok: false, code: 'no_card', message: 'There is no card on file.' } as const);

  if (result.ok) {
    const recorded = await ctx.db.transaction().execute(async (trx) => {
      const tx = { ...ctx, db: trx };
      if (!(await recordPayment(tx, order.id, result.chargeId))) return false;
      if (order.subscriptionId !== null && order.billingPeriod !== null)
        await advanceAfterPayment(tx, order.subscriptionId, order.billingPeriod);
      return true;
    });
    return recorded ? 'paid' : 'busy';
  }

  // The retries keep to the policy's days after the first failure, whatever happens in between
  // (a card update that also fails does not shift them); past the last one, none is scheduled.
  const now = ctx.clock.now().getTime();
  const firstFailureAt = reason === 'renewal' ? now : Date.parse(order.createdAt);
  const nextDay = retryPolicyDays.find((days) => firstFailureAt + days * DAY_MS > now);
  const nextRetryAt =
    nextDay === undefined ? null : new Date(firstFailureAt + nextDay * DAY_MS).toISOString();
  const recorded = await recordPaymentFailure(
    ctx,
    order.id,
    order.paymentAttempts,
    result.message,
    nextRetryAt,
  );
  if (!recorded) return 'busy';
  if (order.subscriptionId !== null) {
    if (reason === 'renewal') await markPastDue(ctx, order.subscriptionId);
    if (reason === 'retry' && nextRetryAt === null) {
      await pauseAfterFailedRetries(ctx, order.subscriptionId);
      await sendSubscriptionPaused(ctx, order);
    }
  }
  if (reason === 'renewal') await sendPaymentFailed(ctx, order);
  return 'failed';
}

/** After the customer updates their card: retry every unpaid order at once. */
export async function retryUnpaidOrders(ctx: AppContext, customerId: number): Promise<number> {
  let paid = 0;
  for (const order of await unpaidOrdersOf(ctx, customerId)) {
    if ((await chargeUnpaid(ctx, order, 'card_update')) === 'paid') paid++;
  }
  return paid;
}

async function sendPaymentFailed(ctx: AppContext, order: UnpaidOrder): Promise<void> {
  const user = await sessionUser(ctx, order.customerId);
  const link = `${ctx.env.PUBLIC_URL ?? ''}/accounts/editPaymentMethod`;
  const lines = [
    `Hello ${user.first_name},`,
    `We could not charge your card ${formatCents(order.totalCents)} for your subscription renewal, order ${order.orderNumber}.`,
    'We will try again in a day. To keep your deliveries on time, please update your card now: we will charge it right away.',
  ];
  await ctx.mailer.send({
    to: user.email,
    subject: `We couldn't process your ${site.name} payment`,
    text: [...lines, '', link, '', ...emailSignature].join('\n'),
    html: emailHtml(
      lines,
      { href: link, label: 'Update your card' },
      'You can also reply to this e-mail if you need help.',
    ),
  });
}

async function sendSubscriptionPaused(ctx: AppContext, order: UnpaidOrder): Promise<void> {
  const user = await sessionUser(ctx, order.customerId);
  const link = `${ctx.env.PUBLIC_URL ?? ''}/accounts/editPaymentMethod`;
  const lines = [
    `Hello ${user.first_name},`,
    `We tried several times but could not charge your card for order ${order.orderNumber}, so we have paused that subscription.`,
    'Update your card and we will charge the order and resume your deliveries.',
  ];
  await ctx.mailer.send({
    to: user.email,
    subject: `Your ${site.name} subscription is paused`,
    text: [...lines, '', link, '', ...emailSignature].join('\n'),
    html: emailHtml(
      lines,
      { href: link, label: 'Update your card' },
      'You can also reply to this e-mail if you need help.',
    ),
  });
}

/** Spec §7 `/account/ccupdate/`: save the new card, then charge every unpaid order with it at once. */
export async function updateCardAndRetry(
  ctx: AppContext,
  session: ActiveSession,
  input: CardPayload,
): Promise<CardSummary> {
  const card = await updateCard(ctx, session, input);
  await retryUnpaidOrders(ctx, session.customerId);
  return card;
}
