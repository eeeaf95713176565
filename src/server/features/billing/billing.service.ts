import type { AppContext } from '#server/context.ts';
import {
  addressOf,
  cardOnFileToken,
  shippingAddressOf,
} from '#server/features/accounts/accounts.service.ts';
import type { PaymentRetry } from '#shared/accounts.ts';
import { sessionUser } from '#server/features/auth/auth.service.ts';
import { offer } from '#server/features/catalog/catalog.service.ts';
import {
  selectDueRetries,
  selectOrderAttemptById,
  selectPaymentFailure,
  selectUnpaidOrdersOf,
  recordPayment,
  recordPaymentFailure,
  type UnpaidOrder,
} from '#server/features/orders/orders.billing.queries.ts';
import {
  insertPendingOrder,
  selectOrderByKey,
  selectOrderForPayment,
  selectOrderLines,
} from '#server/features/orders/orders.checkout.queries.ts';
import {
  advanceAfterPayment,
  refillPrescriptionOf,
  claimForCharge,
  claimRenewal,
  completeFinishedRefills,
  dueSubscriptions,
  markPastDue,
  pauseAfterFailedRetries,
  resumeEndedPauses,
  subscriptionById,
  type SubscriptionRow,
} from '#server/features/subscriptions/subscriptions.service.ts';
import { queueEmail, sendQueuedSoon } from '#server/features/outbox/outbox.service.ts';
import {
  awaitCustomer,
  awaitingCustomer,
  charge,
  confirmWithCustomer,
  gatewayRecord,
  ledgerCall,
  outcomeOf,
  recordCall,
  refundOrphanCharge,
  settleCall,
  type GatewayCall,
  type LedgerRow,
} from '#server/features/payments/payments.service.ts';
import type { Finishers } from '#server/features/payments/payments.jobs.ts';
import { queueRefill, sendToPharmacySoon } from '#server/features/pharmacy/pharmacy.service.ts';
import { emailHtml, emailSignature } from '#server/lib/email-layout.ts';
import { AppError } from '#server/lib/errors.ts';
import { faultPoint } from '#server/lib/faults.ts';
import { absoluteLink } from '#server/lib/links.ts';
import { bottlesText, type Frequency } from '#shared/catalog.ts';
import { couplesPriceCents } from '#shared/couples-price.ts';
import { usDateFromIso } from '#shared/dates.ts';
import { formatCents } from '#shared/money.ts';
import { site } from '#shared/site.ts';
import { paths } from '#shared/paths.ts';

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
/**
 * Renewals or retries one job run takes on. Small, so a run is over in milliseconds and requests
 * get the event loop (and SQLite's single connection) between runs; each renewal commits on its own.
 */
export const BILLING_BATCH = 25;

export interface BillingRun {
  renewed: number;
  failed: number;
  recovered: number;
}

/**
 * One walk over everything billing has to do, a batch at a time: first the bulk status changes,
 * then the due subscriptions in (billing date, id) order, then the due payment retries in (retry
 * time, id) order. The walk keeps its place, so a subscription it cannot bill now (another instance
 * holds its renewal, its product is gone) never holds up the ones after it. A walk that billed
 * anything walks the due list again, so a subscription far behind (a server that was down)
 * catches up period by period. Nothing here is a lock: the unique renewal key is what claims a
 * period, and every instance may walk at the same time.
 */
export interface BillingSweep {
  /** Does the next small batch; false when the walk is over (the next call starts a new one). */
  batch(): Promise<boolean>;
  /** What the walk has done so far. */
  readonly totals: BillingRun;
}

type SweepStep =
  | { kind: 'start' }
  | { kind: 'renewals'; after?: { date: string; id: number }; progressed: boolean }
  | { kind: 'retries'; after?: { at: string; id: number } };

export interface SweepOptions {
  /**
   * After each renewal or retry, rest this many times the processor time the process used while it
   * ran (its own statements, and any requests answered while it let them in), so billing takes at
   * most about 1 / (1 + restFactor) of a busy process and backs off further the busier it gets
   * (the job: 3). 0: only let waiting requests go first (tests, and anyone who needs it all now).
   */
  restFactor?: number;
}

export function billingSweep(ctx: AppContext, options: SweepOptions = {}): BillingSweep {
  const restFactor = options.restFactor ?? 0;
  let step: SweepStep = { kind: 'start' };
  const totals: BillingRun = { renewed: 0, failed: 0, recovered: 0 };
  /** Runs one renewal or retry, then gives the event loop back for a while (see restFactor). */
  const paced = async <T>(work: () => Promise<T>): Promise<T> => {
    const before = process.cpuUsage();
    try {
      return await work();
    } finally {
      const used = process.cpuUsage(before);
      const restMs = ((used.user + used.system) / 1000) * restFactor;
      if (restMs >= 1) await new Promise((resolve) => setTimeout(resolve, restMs));
      else await letRequestsIn();
    }
  };
  return {
    totals,
    async batch() {
      if (step.kind === 'start') {
        Object.assign(totals, { renewed: 0, failed: 0, recovered: 0 });
        await resumeEndedPauses(ctx);
        await completeFinishedRefills(ctx);
        step = { kind: 'renewals', progressed: false };
        return true;
      }
      if (step.kind === 'renewals') {
        const due = await dueSubscriptions(ctx, BILLING_BATCH, step.after);
        let progressed = step.progressed;
        for (const subscription of due) {
          // Past this one even if it throws: the next run goes on with the rest.
          step = {
            kind: 'renewals',
            after: { date: subscription.nextBillingDate, id: subscription.id },
            progressed,
          };
          const outcome = await paced(() => renewSubscription(ctx, subscription));
          if (outcome === 'paid') totals.renewed++;
          if (outcome === 'failed') totals.failed++;
          if (outcome !== 'busy') progressed = true;
          step.progressed = progressed;
        }
        if (due.length === BILLING_BATCH) return true;
        step = progressed ? { kind: 'renewals', progressed: false } : { kind: 'retries' };
        return true;
      }
      const retries = await selectDueRetries(
        ctx.db,
        ctx.clock.now().toISOString(),
        BILLING_BATCH,
        step.after,
      );
      for (const order of retries) {
        step = { kind: 'retries', after: { at: order.nextRetryAt, id: order.id } };
        if ((await paced(() => chargeUnpaid(ctx, order, 'retry'))) === 'paid') totals.recovered++;
      }
      if (retries.length === BILLING_BATCH) return true;
      step = { kind: 'start' };
      return false;
    },
  };
}

/** Bills everything due now, batch after batch (tests, and anyone who needs it done at once). */
export async function runBilling(ctx: AppContext): Promise<BillingRun> {
  const sweep = billingSweep(ctx);
  let more = true;
  while (more) more = await sweep.batch();
  return sweep.totals;
}

export type Outcome = 'paid' | 'failed' | 'busy';

async function renewSubscription(ctx: AppContext, subscription: SubscriptionRow): Promise<Outcome> {
  const period = subscription.nextBillingDate;
  const key = `renewal:${subscription.id}:${period}`;
  let attempt = await selectOrderByKey(ctx.db, key);
  let createdHere = false;
  if (!attempt) {
    // The claim, the subscription read again and the order, in one transaction: what was due when
    // the batch was read may have been cancelled, skipped, paused or changed since (decision 018).
    const created = await ctx.db.transaction().execute(async (trx) => {
      const tx = { ...ctx, db: trx };
      if (!(await claimRenewal(tx, subscription.id, period))) return undefined;
      // Another instance created it first (its claim committed before ours could lock the row).
      // Looked up before inserting: the insert would wait on that order's row while its payment is
      // being recorded, which waits for the subscription this transaction holds.
      if (await selectOrderByKey(trx, key)) return undefined;
      const fresh = await subscriptionById(tx, subscription.id);
      if (!fresh) return undefined;
      const lines = await renewalLines(tx, fresh);
      // A gift ships to the address its recipient chose; anything else to the payer's.
      const shipping = fresh.gift
        ? await addressOf(tx, fresh.gift.recipientId, fresh.gift.shipTo)
        : await shippingAddressOf(tx, fresh.customerId);
      if (!lines || !shipping) return undefined;
      const totalCents = lines.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0);
      return insertPendingOrder(trx, {
        customerId: fresh.customerId,
        kind: 'renewal',
        idempotencyKey: key,
        subscriptionId: fresh.id,
        billingPeriod: period,
        subtotalCents: totalCents,
        discountCents: 0,
        totalCents,
        couponCode: null,
        clickId: null,
        shipping,
        lines: lines.map((line) => ({ ...line, frequency: fresh.frequency })),
        now: ctx.clock.now().toISOString(),
      });
    });
    // No longer due, or another instance inserted it between our look and our insert (theirs to bill).
    if (!created) return 'busy';
    createdHere = true;
    attempt = await selectOrderByKey(ctx.db, key);
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
  const order = await selectOrderAttemptById(ctx.db, attempt.id);
  if (!order) return 'busy';
  // The claim is committed: requests that arrived meanwhile go before the charge.
  await letRequestsIn();
  return chargeUnpaid(ctx, order, 'renewal');
}

/** Gives the event loop a turn: whatever requests are waiting are read and answered first. */
function letRequestsIn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * What a renewal sells: one line, or two for a couples' plan (the owner's and the partner's, each
 * at the couples' price of its offer's current price: decision 018). Undefined when a product is
 * gone, so nothing is billed for it.
 */
async function renewalLines(ctx: AppContext, subscription: SubscriptionRow) {
  const own = await renewalLine(ctx, subscription);
  if (!own) return undefined;
  const plan = subscription.planPartner;
  if (!plan) return [{ ...own, quantity: subscription.quantity }];
  const partner = await offer(ctx.db, plan.productId);
  if (!partner) return undefined;
  return [
    {
      ...own,
      unitPriceCents: couplesPriceCents(own.unitPriceCents),
      quantity: subscription.quantity,
    },
    {
      productId: partner.productId,
      name: partner.name,
      image: partner.img,
      category: partner.category,
      unitPriceCents: couplesPriceCents(partner.priceCents),
      quantity: plan.quantity,
    },
  ];
}

/** Bills a gift or plan's first delivery now, at acceptance, exactly as a renewal on its date. */
export async function billNow(ctx: AppContext, subscriptionId: number): Promise<Outcome> {
  const subscription = await subscriptionById(ctx, subscriptionId);
  if (!subscription || subscription.status !== 'ACTIVE') return 'busy';
  return renewSubscription(ctx, subscription);
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
  const key = attemptKey(order.id, order.paymentAttempts + 1);
  const call = {
    purpose: reason,
    idempotencyKey: key,
    amountCents: order.totalCents,
    orderId: order.id,
    subscriptionId: order.subscriptionId,
    billingPeriod: order.billingPeriod,
  };
  if (!(await claimCharge(ctx, order, call))) return 'busy';
  const token = await cardOnFileToken(ctx, order.customerId);
  // Through the payment ledger: written down before the gateway is asked, settled with the order.
  const result = token
    ? await charge(ctx, call, token, { recorded: true })
    : ({ ok: false, code: 'no_card', message: 'There is no card on file.' } as const);

  if (result.ok) {
    const recorded = await ctx.db.transaction().execute(async (trx) => {
      const tx = { ...ctx, db: trx };
      await settleCall(tx, key, outcomeOf(result));
      if (!(await recordPayment(tx.db, order.id, result.chargeId, tx.clock.now().toISOString())))
        return false;
      if (order.subscriptionId !== null && order.billingPeriod !== null)
        await advanceAfterPayment(tx, order.subscriptionId, order.billingPeriod);
      await sendReceipt(tx, order, reason);
      await fillRefill(tx, order);
      return true;
    });
    if (recorded) {
      sendQueuedSoon(ctx);
      sendToPharmacySoon(ctx);
      faultPoint(ctx.env, `${reason}:after-commit`);
    } else await refundIfUnused(ctx, order.id, result.chargeId, order.totalCents);
    return recorded ? 'paid' : 'busy';
  }

  // The retries keep to the policy's days after the first failure, whatever happens in between
  // (a card update that also fails does not shift them); past the last one, none is scheduled.
  const now = ctx.clock.now().getTime();
  const firstFailureAt = reason === 'renewal' ? now : Date.parse(order.createdAt);
  const nextDay = retryPolicyDays.find((days) => firstFailureAt + days * DAY_MS > now);
  const nextRetryAt =
    nextDay === undefined ? null : new Date(firstFailureAt + nextDay * DAY_MS).toISOString();
  // The failure, what it does to the subscription and the customer's email: all or nothing.
  const recorded = await ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    await settleCall(tx, key, outcomeOf(result));
    if (
      !(await recordPaymentFailure(tx.db, order.id, order.paymentAttempts, {
        message: result.message,
        nextRetryAt,
        now: tx.clock.now().toISOString(),
        // The bank wants the customer to confirm it: they can, from Home or the e-mail.
        confirmationRef: 'action' in result ? (result.action?.intentId ?? null) : null,
      }))
    )
      return false;
    if (order.subscriptionId !== null) {
      if (reason === 'renewal') await markPastDue(tx, order.subscriptionId);
      if (reason === 'retry' && nextRetryAt === null) {
        await pauseAfterFailedRetries(tx, order.subscriptionId);
        await sendSubscriptionPaused(tx, order);
      }
    }
    if (reason === 'renewal') {
      const confirmable = 'action' in result && result.action !== undefined;
      await (confirmable ? sendConfirmPayment(tx, order) : sendPaymentFailed(tx, order));
    }
    return true;
  });
  if (!recorded) return 'busy';
  sendQueuedSoon(ctx);
  return 'failed';
}

/**
 * Decides again, under the subscription's lock, that the order is still owed and this attempt still
 * due, and writes the charge down as started in the same transaction: from then on a change to the
 * subscription waits for the charge's answer (`refuseWhileCharging`), and a change that committed
 * first stops the charge here.
 */
async function claimCharge(
  ctx: AppContext,
  order: UnpaidOrder,
  call: GatewayCall,
): Promise<boolean> {
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const tx = { ...ctx, db: trx };
      // The ledger row first, then the subscription: the order a payment's record takes its locks
      // in (ledger, order, subscription), so a claim and a payment being recorded never deadlock.
      await recordCall(tx, 'charge', call);
      if (order.subscriptionId !== null && !(await claimForCharge(tx, order.subscriptionId)))
        throw new ChargeNotDue();
      const now = await selectOrderAttemptById(trx, order.id);
      if (
        !now ||
        now.paymentAttempts !== order.paymentAttempts ||
        (now.paymentStatus !== 'pending' && now.paymentStatus !== 'unpaid')
      )
        throw new ChargeNotDue();
    });
    return true;
  } catch (error) {
    // Rolled back: the charge is not written down, so nothing waits for it.
    if (error instanceof ChargeNotDue) return false;
    throw error;
  }
}

/** A claim that found the charge no longer due; thrown to roll its transaction back. */
class ChargeNotDue extends Error {}

/** The gateway key of an order's n-th payment attempt: every instance asking shares one charge. */
const attemptKey = (orderId: number, attempt: number) => `order:${orderId}:attempt:${attempt}`;

/**
 * A paid period of a refill plan is a fill: the pharmacy is told in the payment's transaction
 * (issue 29), so every paid period ships once and nothing unpaid ships.
 */
async function fillRefill(tx: AppContext, order: UnpaidOrder): Promise<void> {
  if (order.subscriptionId === null) return;
  const prescriptionId = await refillPrescriptionOf(tx, order.subscriptionId);
  if (prescriptionId !== null) await queueRefill(tx, { orderId: order.id, prescriptionId });
}

/** A charge that paid nothing (the order was paid by another meanwhile) goes back in full. */
async function refundIfUnused(
  ctx: AppContext,
  orderId: number,
  chargeId: string,
  amountCents: number,
): Promise<void> {
  const order = await selectOrderForPayment(ctx.db, orderId);
  if (order && order.chargeId !== chargeId && order.paymentStatus !== 'pending')
    await refundOrphanCharge(ctx, { chargeId, amountCents, orderId });
}

/**
 * For the payment reconciler: finishes a renewal, retry or card-update charge a crash left
 * unanswered. While the order still waits for that attempt, the attempt is made again with the same
 * key, so the gateway answers the charge it made (or makes it now, as was due) and the answer is
 * recorded as usual; once the order has moved on, the gateway's record settles the ledger and a
 * charge that paid nothing is refunded.
 */
export async function finishInterruptedCharge(ctx: AppContext, call: LedgerRow): Promise<void> {
  const orderId = call.orderId ?? 0;
  const order = await selectOrderAttemptById(ctx.db, orderId);
  const reason =
    call.purpose === 'retry' || call.purpose === 'card_update' ? call.purpose : 'renewal';
  if (
    order &&
    (order.paymentStatus === 'pending' || order.paymentStatus === 'unpaid') &&
    call.idempotencyKey === attemptKey(order.id, order.paymentAttempts + 1)
  ) {
    await chargeUnpaid(ctx, order, reason);
    // Settled by that attempt, or (its claim refused) left for the gateway's record below.
    if ((await ledgerCall(ctx, call.idempotencyKey))?.status !== 'started') return;
  }
  const record = await gatewayRecord(ctx, { idempotencyKey: call.idempotencyKey });
  if (record?.status !== 'succeeded') {
    await settleCall(ctx, call.idempotencyKey, {
      ok: false,
      failure: record?.failureMessage ?? 'The charge never reached the gateway.',
    });
    return;
  }
  await settleCall(ctx, call.idempotencyKey, { ok: true, ref: record.id });
  await refundIfUnused(ctx, orderId, record.id, record.amountCents);
}

/** What the payment reconciler runs for the charges billing makes (registered at start, app.ts). */
export const billingFinishers: Finishers = {
  confirm: finishConfirmation,
  renewal: finishInterruptedCharge,
  retry: finishInterruptedCharge,
  card_update: finishInterruptedCharge,
};

/**
 * After the customer updates their card: retry every unpaid order at once, and say what became of
 * each (a failure with the reason recorded for it). Accounts runs it when a card is replaced
 * (`cardReplaced`, registered in app.ts).
 */
export async function retryUnpaidOrders(
  ctx: AppContext,
  customerId: number,
): Promise<PaymentRetry[]> {
  const retries: PaymentRetry[] = [];
  for (const order of await selectUnpaidOrdersOf(ctx.db, customerId)) {
    const outcome = await chargeUnpaid(ctx, order, 'card_update');
    retries.push({
      order_number: order.orderNumber,
      amount_cents: order.totalCents,
      outcome: outcome === 'busy' ? 'pending' : outcome,
      reason:
        outcome === 'failed'
          ? ((await selectPaymentFailure(ctx.db, order.id)) ?? 'Your card was declined.')
          : null,
    });
  }
  return retries;
}

/**
 * What a renewal brings, for its emails: 'Sleep Gummies (3 bottles every 3 months)'. Null for a
 * prescription refill, which emails never name (they carry no health information).
 */
async function renewalItems(ctx: AppContext, orderId: number): Promise<string | null> {
  const lines = await selectOrderLines(ctx.db, orderId);
  if (lines.length === 0 || lines.some((line) => line.category !== 'supplements')) return null;
  return lines
    .map((line) => {
      const offer = { product_id: line.productId, frequency: line.frequency as Frequency };
      return `${line.name} (${bottlesText(offer, line.quantity)})`;
    })
    .join(', ');
}

/**
 * What a renewal's emails call what was paid for: a gift by its recipient's first name, a plan,
 * a supplement by name and bottles, a refill only as "your refill" (no health information).
 */
async function paidFor(ctx: AppContext, order: UnpaidOrder): Promise<string> {
  const items = await renewalItems(ctx, order.id);
  const subscription =
    order.subscriptionId === null ? undefined : await subscriptionById(ctx, order.subscriptionId);
  if (subscription?.gift) {
    const recipient = await sessionUser(ctx, subscription.gift.recipientId);
    return `your gift subscription for ${recipient.first_name}${items ? `, ${items}` : ''}`;
  }
  if (subscription?.planPartner) return `your couples' plan${items ? `, ${items}` : ''}`;
  return items ? `your subscription renewal of ${items}` : 'your refill';
}

/**
 * The payer's receipt for a renewal, retry or card-update charge (a gift's and a plan's too),
 * queued in the transaction that records the payment, so each charge has exactly one. It names no
 * address and no card number.
 */
async function sendReceipt(
  ctx: AppContext,
  order: UnpaidOrder,
  reason: 'renewal' | 'retry' | 'card_update',
): Promise<void> {
  const user = await sessionUser(ctx, order.customerId);
  const link = absoluteLink(ctx.env, paths.order(order.orderNumber));
  const day = usDateFromIso(ctx.clock.now().toISOString().slice(0, 10));
  const lines = [
    `Hello ${user.first_name},`,
    `We charged ${formatCents(order.totalCents)} to your card on file on ${day} for order ${order.orderNumber}: ${await paidFor(ctx, order)}.`,
    ...(reason === 'renewal'
      ? []
      : ['This pays the renewal we could not charge before. Thank you for sorting it out.']),
  ];
  await queueEmail(ctx, {
    to: user.email,
    subject: `Your ${site.name} receipt for order ${order.orderNumber}`,
    text: [...lines, '', `See your order: ${link}`, '', ...emailSignature].join('\n'),
    html: emailHtml(
      lines,
      { href: link, label: 'See your order' },
      'Questions? Just reply to this email or write to us.',
    ),
  });
}

/** Queued in `ctx.db`'s transaction, with the failure it tells of. */
async function sendPaymentFailed(ctx: AppContext, order: UnpaidOrder): Promise<void> {
  const user = await sessionUser(ctx, order.customerId);
  const link = absoluteLink(ctx.env, paths.editPaymentMethod);
  const items = await renewalItems(ctx, order.id);
  const lines = [
    `Hello ${user.first_name},`,
    `We could not charge your card ${formatCents(order.totalCents)} for your subscription renewal${items ? ` of ${items}` : ''}, order ${order.orderNumber}.`,
    'We will try again in a day. To keep your deliveries on time, please update your card now: we will charge it right away.',
  ];
  await queueEmail(ctx, {
    to: user.email,
    subject: `We couldn't process your ${site.name} payment`,
    text: [...lines, '', link, '', ...emailSignature].join('\n'),
    html: emailHtml(
      lines,
      { href: link, label: 'Update your card' },
      'You can also reply to this email if you need help.',
    ),
  });
}

/**
 * The bank would not take a renewal without the customer's say-so (3-D Secure): a link to the page
 * where they confirm it. Queued in `ctx.db`'s transaction, with the failure it tells of.
 */
async function sendConfirmPayment(ctx: AppContext, order: UnpaidOrder): Promise<void> {
  const user = await sessionUser(ctx, order.customerId);
  const link = absoluteLink(ctx.env, paths.confirmPayment(order.orderNumber));
  const lines = [
    `Hello ${user.first_name},`,
    `Your bank asked us to check with you before it pays ${formatCents(order.totalCents)} for ${await paidFor(ctx, order)}, order ${order.orderNumber}.`,
    'Please confirm the payment: it takes a moment, on your bank’s own page. Until then nothing is charged, and we will not ship.',
  ];
  await queueEmail(ctx, {
    to: user.email,
    subject: `Please confirm your ${site.name} payment`,
    text: [...lines, '', `Confirm your payment: ${link}`, '', ...emailSignature].join('\n'),
    html: emailHtml(
      lines,
      { href: link, label: 'Confirm your payment' },
      'You can also reply to this email if you need help.',
    ),
  });
}

/**
 * "Confirm your payment": the customer, at the page, confirms a renewal their bank refused while
 * they were away for want of authentication. The refused payment itself is asked again, the
 * customer present, so the bank can ask them (CARD_AUTHENTICATION, with what the browser
 * confirms); the page then sends this again, and the payment's answer is recorded as any other
 * (paid, with its receipt; or refused, with the reason). Only the customer's own unpaid order.
 */
export async function confirmUnpaidPayment(
  ctx: AppContext,
  customerId: number,
  orderNumber: string,
): Promise<PaymentRetry> {
  const order = (await selectUnpaidOrdersOf(ctx.db, customerId)).find(
    (unpaid) => unpaid.orderNumber === orderNumber,
  );
  if (!order?.confirmationRef)
    throw new AppError('NOT_FOUND', 'There is no payment waiting for your confirmation.');
  const call: GatewayCall = {
    purpose: 'confirm',
    idempotencyKey: `confirm:${order.confirmationRef}`,
    amountCents: order.totalCents,
    orderId: order.id,
    subscriptionId: order.subscriptionId,
    billingPeriod: order.billingPeriod,
    sourceRef: order.confirmationRef,
  };
  const result = await confirmWithCustomer(ctx, call);
  const retry = { order_number: order.orderNumber, amount_cents: order.totalCents };
  if (result.ok) {
    const paid = await recordConfirmed(ctx, order, call, result.chargeId);
    return { ...retry, outcome: paid ? 'paid' : 'pending', reason: null };
  }
  if (result.action) {
    await awaitCustomer(ctx, call.idempotencyKey);
    throw new AppError(
      'CARD_AUTHENTICATION',
      result.message,
      {},
      { client_secret: result.action.clientSecret },
    );
  }
  await settleCall(ctx, call.idempotencyKey, outcomeOf(result));
  throw new AppError('CARD_DECLINED', result.message);
}

/** A confirmed payment paid its order: recorded as a retry's would be, receipt and all. */
async function recordConfirmed(
  ctx: AppContext,
  order: UnpaidOrder,
  call: { idempotencyKey: string },
  chargeId: string,
): Promise<boolean> {
  const recorded = await ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    await settleCall(tx, call.idempotencyKey, { ok: true, ref: chargeId });
    if (!(await recordPayment(tx.db, order.id, chargeId, tx.clock.now().toISOString())))
      return false;
    if (order.subscriptionId !== null && order.billingPeriod !== null)
      await advanceAfterPayment(tx, order.subscriptionId, order.billingPeriod);
    await sendReceipt(tx, order, 'retry');
    await fillRefill(tx, order);
    return true;
  });
  if (recorded) {
    sendQueuedSoon(ctx);
    sendToPharmacySoon(ctx);
  } else await refundIfUnused(ctx, order.id, chargeId, order.totalCents);
  return recorded;
}

/**
 * For the payment reconciler: a confirmation a crash interrupted, or one the customer left
 * unfinished past their time (its payment is cancelled at the processor first, by
 * `gatewayRecord`). What the payment became decides.
 */
async function finishConfirmation(ctx: AppContext, call: LedgerRow): Promise<void> {
  if (awaitingCustomer(ctx, call)) return;
  const record = await gatewayRecord(ctx, { id: call.sourceRef ?? '' });
  const order = await selectOrderAttemptById(ctx.db, call.orderId ?? 0);
  if (record?.status === 'succeeded' && order) {
    await recordConfirmed(ctx, order, call, record.id);
    return;
  }
  await settleCall(ctx, call.idempotencyKey, {
    ok: false,
    failure: record?.failureMessage ?? 'The payment was not confirmed.',
  });
}

async function sendSubscriptionPaused(ctx: AppContext, order: UnpaidOrder): Promise<void> {
  const user = await sessionUser(ctx, order.customerId);
  const link = absoluteLink(ctx.env, paths.editPaymentMethod);
  const items = await renewalItems(ctx, order.id);
  const lines = [
    `Hello ${user.first_name},`,
    `We tried several times but could not charge your card for order ${order.orderNumber}${items ? `, ${items}` : ''}, so we have paused that subscription.`,
    'Update your card and we will charge the order and resume your deliveries.',
  ];
  await queueEmail(ctx, {
    to: user.email,
    subject: `Your ${site.name} subscription is paused`,
    text: [...lines, '', link, '', ...emailSignature].join('\n'),
    html: emailHtml(
      lines,
      { href: link, label: 'Update your card' },
      'You can also reply to this email if you need help.',
    ),
  });
}
