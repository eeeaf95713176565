import type { AppContext } from '#server/context.ts';
import { cardSummaryOf } from '#server/features/accounts/accounts.service.ts';
import type { ActiveSession } from '#server/features/auth/auth.service.ts';
import { offer, offersAt, siblingOffer } from '#server/features/catalog/catalog.service.ts';
import {
  selectChargeInFlight,
  voidUnpaidRenewals,
} from '#server/features/orders/orders.billing.queries.ts';
import { sendQueuedSoon } from '#server/features/outbox/outbox.service.ts';
import { queueCancelRx, sendToPharmacySoon } from '#server/features/pharmacy/pharmacy.service.ts';
import { AppError, notFound } from '#server/lib/errors.ts';
import type { Frequency } from '#shared/catalog.ts';
import { couplesPriceCents } from '#shared/couples-price.ts';
import { formatCents } from '#shared/money.ts';
import {
  applySubscriptionChange,
  changeMessage,
  nextBillingDate,
  type Subscription,
  type SubscriptionChange,
  type SubscriptionFrequency,
} from '#shared/subscriptions.ts';
import { queueCancellationConfirmation } from './subscriptions.emails.ts';
import * as q from './subscriptions.queries.ts';

export type { SubscriptionRow } from './subscriptions.queries.ts';

function today(ctx: AppContext): string {
  return ctx.clock.now().toISOString().slice(0, 10);
}

/** One subscription for each monthly or quarterly line of a paid order; returns how many started. */
export async function startSubscriptionsForOrder(
  ctx: AppContext,
  order: {
    id: number;
    customerId: number;
    placedAt: Date;
    lines: { productId: number; frequency: Frequency; quantity: number; unitPriceCents: number }[];
  },
): Promise<number> {
  const day = order.placedAt.toISOString().slice(0, 10);
  const anchorDay = Number(day.slice(8, 10));
  let started = 0;
  for (const line of order.lines) {
    if (line.frequency === 'ONE_TIME') continue;
    await q.insertSubscription(ctx.db, {
      customerId: order.customerId,
      productId: line.productId,
      frequency: line.frequency,
      quantity: line.quantity,
      unitPriceCents: line.unitPriceCents,
      nextBillingDate: nextBillingDate(day, line.frequency, anchorDay),
      anchorDay,
      createdOrderId: order.id,
      now: order.placedAt.toISOString(),
    });
    started++;
  }
  return started;
}

/**
 * The refill plan an approved prescription starts: one fill a month after the first (the visit's
 * order), at the price the patient agreed to, for the prescribed number of refills and never after
 * the prescription's last valid day. Started once per prescription.
 */
export async function startRefillPlan(
  ctx: AppContext,
  plan: {
    customerId: number;
    prescriptionId: number;
    refills: number;
    validUntil: string;
    name: string;
    image: string;
    category: string;
    unitPriceCents: number;
    orderId: number;
  },
): Promise<boolean> {
  const day = today(ctx);
  const anchorDay = Number(day.slice(8, 10));
  const first = nextBillingDate(day, 'MONTHLY', anchorDay);
  if (plan.refills <= 0 || first > plan.validUntil) return false;
  return q.insertRefill(ctx.db, {
    customerId: plan.customerId,
    prescriptionId: plan.prescriptionId,
    refills: plan.refills,
    validUntil: plan.validUntil,
    name: plan.name,
    image: plan.image,
    category: plan.category,
    unitPriceCents: plan.unitPriceCents,
    nextBillingDate: first,
    anchorDay,
    createdOrderId: plan.orderId,
    now: ctx.clock.now().toISOString(),
  });
}

async function toSubscription(
  ctx: AppContext,
  row: q.SubscriptionRow,
  card: Subscription['card'],
  together: { view: NonNullable<Subscription['together']>; alsoCents: number } | null = null,
): Promise<Subscription> {
  const product = row.productId === null ? undefined : await offer(ctx.db, row.productId);
  // A gift or a plan is changed on the partner page, never swapped here.
  const swaps =
    row.refill || together
      ? []
      : (await offersAt(ctx.db, row.frequency)).filter(
          (o) => o.productId !== row.productId && o.category === 'supplements',
        );
  return {
    id: row.id,
    product_id: row.productId,
    name: row.refill?.name ?? product?.name ?? 'Discontinued product',
    slug: product?.slug ?? '',
    img: row.refill?.image ?? product?.img ?? '',
    category: row.refill?.category ?? product?.category ?? 'supplements',
    frequency: row.frequency,
    quantity: row.quantity,
    unit_price_cents: row.unitPriceCents,
    // A plan's one charge pays both lines.
    price_cents: row.unitPriceCents * row.quantity + (together?.alsoCents ?? 0),
    status: row.status,
    next_billing_date: row.nextBillingDate,
    paused_until: row.pausedUntil,
    cancel_reason: row.cancelReason,
    card,
    swap_options: swaps.map((o) => ({ product_id: o.productId, name: o.name })),
    refill: row.refill && {
      refills_remaining: row.refill.remaining,
      valid_until: row.refill.until,
    },
    together: together?.view ?? null,
  };
}

/**
 * How a gift or a plan reads for one of its two people: their role, the other's first name, what
 * each delivery holds and for whom, and what a plan's partner line adds to the one charge.
 */
async function togetherFor(
  ctx: AppContext,
  row: q.ListedSubscriptionRow,
  viewerId: number,
): Promise<{ view: NonNullable<Subscription['together']>; alsoCents: number } | null> {
  if (!row.gift && !row.planPartner) return null;
  const payer = row.customerId === viewerId;
  const withFirstName = payer ? (row.otherFirstName ?? '') : row.payerFirstName;
  const own = row.productId === null ? undefined : await offer(ctx.db, row.productId);
  const ownName = own?.name ?? 'Discontinued product';
  if (row.gift)
    return {
      view: {
        kind: 'gift',
        role: payer ? 'payer' : 'recipient',
        with_first_name: withFirstName,
        lines: [{ name: ownName, quantity: row.quantity, for: payer ? 'partner' : 'you' }],
      },
      alsoCents: 0,
    };
  const partnerLine = row.planPartner;
  if (!partnerLine) return null;
  const theirs = await offer(ctx.db, partnerLine.productId);
  return {
    view: {
      kind: 'plan',
      role: payer ? 'payer' : 'partner',
      with_first_name: withFirstName,
      lines: [
        { name: ownName, quantity: row.quantity, for: payer ? 'you' : 'partner' },
        {
          name: theirs?.name ?? 'Discontinued product',
          quantity: partnerLine.quantity,
          for: payer ? 'partner' : 'you',
        },
      ],
    },
    // Billing charges the partner's line at its couples' price, from the offer's current price.
    alsoCents: theirs ? couplesPriceCents(theirs.priceCents) * partnerLine.quantity : 0,
  };
}

/**
 * The Subscriptions page: the customer's own, and the gifts and plans they pay for, receive or
 * share (issue 26). Only the payer is shown the card a gift or plan is billed to.
 */
export async function listSubscriptions(
  ctx: AppContext,
  customerId: number,
): Promise<Subscription[]> {
  const rows = await q.selectSubscriptionsOf(ctx.db, customerId);
  const card = await cardSummaryOf(ctx, customerId);
  const own = card && { brand: card.brand, last4: card.last4 };
  return Promise.all(
    rows.map(async (row) =>
      toSubscription(
        ctx,
        row,
        row.customerId === customerId ? own : null,
        await togetherFor(ctx, row, customerId),
      ),
    ),
  );
}

async function ownSubscription(
  ctx: AppContext,
  session: ActiveSession,
  id: number,
): Promise<q.SubscriptionRow> {
  const row = await q.selectSubscription(ctx.db, id);
  // Another customer's subscription is "not found": its existence is not revealed. A gift or a
  // couples' plan is changed from the partner page, by the rules of decision 018, never here.
  if (!row || row.customerId !== session.customerId || row.gift || row.planPartner)
    throw notFound('We could not find that subscription.');
  return row;
}

/**
 * Applies a customer's change, or with `preview` only says what it would be (the new price and
 * date, shown before the customer confirms). A refused change says why.
 */
export async function changeSubscription(
  ctx: AppContext,
  session: ActiveSession,
  id: number,
  change: SubscriptionChange,
  preview: boolean,
): Promise<{ subscription: Subscription; message: string }> {
  const row = await ownSubscription(ctx, session, id);
  return applyChange(ctx, row, change, { preview, email: true });
}

/**
 * A change to a gift or a couples' plan (decision 018), once the partners feature has checked who
 * may make it: the same rules and the same compare-and-set as any subscription, and no email (an
 * ending tells each partner in-app only, so a quiet unlink stays quiet).
 */
export async function changeTogetherSubscription(
  ctx: AppContext,
  subscriptionId: number,
  change: SubscriptionChange,
): Promise<q.SubscriptionRow> {
  const row = await q.selectSubscription(ctx.db, subscriptionId);
  if (!row || (!row.gift && !row.planPartner))
    throw notFound('We could not find that subscription.');
  await applyChange(ctx, row, change, { preview: false, email: false });
  return (await q.selectSubscription(ctx.db, subscriptionId)) ?? row;
}

async function applyChange(
  ctx: AppContext,
  row: q.SubscriptionRow,
  change: SubscriptionChange,
  options: { preview: boolean; email: boolean },
): Promise<{ subscription: Subscription; message: string }> {
  const { preview } = options;
  let productId: number | undefined;
  if (change.action === 'change_frequency' && row.productId !== null)
    productId = (await siblingOffer(ctx.db, row.productId, change.frequency))?.productId;
  if (change.action === 'swap' && row.productId !== null) {
    const target = await offer(ctx.db, change.product_id);
    const ok = target && target.frequency === row.frequency && target.category === 'supplements';
    productId = ok ? target.productId : undefined;
  }
  const outcome = applySubscriptionChange(
    {
      status: row.status,
      frequency: row.frequency,
      quantity: row.quantity,
      productId: row.productId,
      nextBillingDate: row.nextBillingDate,
      anchorDay: row.anchorDay,
      pausedUntil: row.pausedUntil,
      cancelReason: row.cancelReason,
      refill: row.refill && { remaining: row.refill.remaining, until: row.refill.until },
    },
    change,
    today(ctx),
    productId === undefined ? {} : { productId },
  );
  if (!outcome.ok) throw new AppError('SUBSCRIPTION_REFUSED', outcome.message);
  const { refill: _unchanged, ...next } = outcome.state;
  // A refill keeps the price agreed at the visit; a supplement takes its offer's current price.
  let unitPriceCents = row.unitPriceCents;
  if (next.productId !== null) {
    const product = await offer(ctx.db, next.productId);
    if (!product)
      throw new AppError('SUBSCRIPTION_REFUSED', 'This product is no longer available.');
    unitPriceCents = product.priceCents;
  }
  const anchorDay =
    change.action === 'move_date' ? Number(next.nextBillingDate.slice(8, 10)) : next.anchorDay;
  const saved: q.SubscriptionRow = {
    ...row,
    ...next,
    anchorDay,
    unitPriceCents,
    frequency: next.frequency as SubscriptionFrequency,
  };
  const card = await cardSummaryOf(ctx, row.customerId);
  const summary = card && { brand: card.brand, last4: card.last4 };
  if (preview)
    return {
      subscription: await toSubscription(ctx, saved, summary),
      message: changeMessage(change),
    };

  const now = ctx.clock.now().toISOString();
  // A cancellation, the unpaid renewal it ends and its confirmation email: all or nothing.
  await ctx.db.transaction().execute(async (trx) => {
    // Cancelled means no further charge: an unpaid renewal is no longer owed nor retried. Voided
    // first, so this takes its locks in the order a payment does (the order, then its
    // subscription) and a card update charging that renewal at the same moment cannot deadlock it.
    if (change.action === 'cancel') await voidUnpaidRenewals(trx, row.id, now);
    const done = await q.saveSubscription(
      trx,
      row.id,
      row.updatedAt,
      {
        ...saved,
        ...(change.action === 'cancel'
          ? { cancelledAt: now }
          : change.action === 'reactivate'
            ? { cancelledAt: null }
            : {}),
      },
      now,
    );
    // Someone changed it meanwhile: nothing of this change is kept (the void is rolled back).
    if (!done)
      throw new AppError(
        'SUBSCRIPTION_CHANGED',
        'This subscription just changed. Please review it and try again.',
      );
    // Asked only now that this change holds the row: a charge claimed it first (and is on its way),
    // or it claims nothing once this commits. Never both, so a change that is kept is never charged.
    await refuseWhileCharging(trx, row.id);
    if (change.action === 'cancel' && options.email)
      await queueCancellationConfirmation({ ...ctx, db: trx }, saved);
    // A refill plan cancelled: the pharmacy fills no more of its prescription (issue 29).
    if (change.action === 'cancel' && row.refill)
      await queueCancelRx(
        { ...ctx, db: trx },
        {
          prescriptionId: row.refill.prescriptionId,
          reason: 'The patient cancelled their refills.',
        },
      );
  });
  if (change.action === 'cancel' && options.email) sendQueuedSoon(ctx);
  if (change.action === 'cancel' && row.refill) sendToPharmacySoon(ctx);
  const fresh = await q.selectSubscription(ctx.db, row.id);
  return {
    subscription: await toSubscription(ctx, fresh ?? saved, summary),
    message: changeMessage(change),
  };
}

/**
 * A change to a subscription whose charge is on its way waits for it: the customer is told which
 * charge, and nothing of the change is kept (the transaction rolls back).
 */
async function refuseWhileCharging(db: AppContext['db'], subscriptionId: number): Promise<void> {
  const charging = await selectChargeInFlight(db, subscriptionId);
  if (charging)
    throw new AppError(
      'SUBSCRIPTION_CHANGED',
      `We are charging your renewal right now (order ${charging.orderNumber}, ${formatCents(charging.totalCents)}). Please try again in a minute.`,
    );
}

// --- For the partners feature: gifts and couples' plans (decision 018) ---------------------------

/** Starts an accepted gift or plan; it bills today (the first delivery), then every period. */
export function startTogetherSubscription(
  ctx: AppContext,
  input: Omit<q.NewTogetherSubscription, 'nextBillingDate' | 'anchorDay' | 'now'>,
): Promise<number> {
  const day = today(ctx);
  return q.insertTogetherSubscription(ctx.db, {
    ...input,
    nextBillingDate: day,
    anchorDay: Number(day.slice(8, 10)),
    now: ctx.clock.now().toISOString(),
  });
}

export function setGiftShipTo(
  ctx: AppContext,
  subscriptionId: number,
  shipTo: 'shipping' | 'billing',
) {
  return q.setShipTo(ctx.db, subscriptionId, shipTo, ctx.clock.now().toISOString());
}

/**
 * Ends a gift or plan at once, in `ctx.db`'s transaction (an unlink): no further charge (an unpaid
 * renewal is voided, as a cancel does) and no email. True when it was still running.
 */
export async function endTogetherSubscription(
  ctx: AppContext,
  subscriptionId: number,
  reason: string,
): Promise<boolean> {
  const now = ctx.clock.now().toISOString();
  await voidUnpaidRenewals(ctx.db, subscriptionId, now);
  return q.cancelSubscription(ctx.db, subscriptionId, reason, now);
}

/**
 * The customer's own supplement subscriptions, running or paused, for the partner they share them
 * with (issue 16): the partners feature decides whether they may see them.
 */
export function runningSupplementsOf(ctx: AppContext, customerId: number) {
  return q.selectRunningSupplementsOf(ctx.db, customerId);
}

// --- For billing ---------------------------------------------------------------------------------

export function dueSubscriptions(
  ctx: AppContext,
  limit: number,
  after?: { date: string; id: number },
) {
  return q.selectDueSubscriptions(ctx.db, today(ctx), limit, after);
}

export function resumeEndedPauses(ctx: AppContext) {
  return q.resumeEndedPauses(ctx.db, today(ctx), ctx.clock.now().toISOString());
}

export function completeFinishedRefills(ctx: AppContext) {
  return q.completeFinishedRefills(ctx.db, today(ctx), ctx.clock.now().toISOString());
}

/** After a period is paid: bill again one period later (once, whichever instance gets here first). */
export async function advanceAfterPayment(
  ctx: AppContext,
  subscriptionId: number,
  period: string,
): Promise<boolean> {
  const row = await q.selectSubscription(ctx.db, subscriptionId);
  if (!row) return false;
  const next = nextBillingDate(period, row.frequency, row.anchorDay);
  return q.advancePeriod(ctx.db, subscriptionId, period, next, ctx.clock.now().toISOString());
}

/** The prescription a refill plan fills; null for any other subscription. */
export async function refillPrescriptionOf(
  ctx: AppContext,
  subscriptionId: number,
): Promise<number | null> {
  return (await q.selectSubscription(ctx.db, subscriptionId))?.refill?.prescriptionId ?? null;
}

/**
 * A renewal's claim on its period, in `ctx.db`'s transaction (the one that creates the renewal
 * order): false when a cancel, skip, pause or new date committed first, so nothing is billed.
 */
export function claimRenewal(ctx: AppContext, subscriptionId: number, period: string) {
  return q.claimPeriod(ctx.db, subscriptionId, period, today(ctx), ctx.clock.now().toISOString());
}

/**
 * A charge's claim on the subscription its order pays, in `ctx.db`'s transaction (the one that
 * writes the charge down): false once the subscription no longer owes it (cancelled, or paused by
 * the customer).
 */
export function claimForCharge(ctx: AppContext, subscriptionId: number) {
  return q.claimForCharge(ctx.db, subscriptionId, ctx.clock.now().toISOString());
}

export function markPastDue(ctx: AppContext, subscriptionId: number) {
  return q.setStatus(ctx.db, subscriptionId, ['ACTIVE'], 'PAST_DUE', ctx.clock.now().toISOString());
}

export function pauseAfterFailedRetries(ctx: AppContext, subscriptionId: number) {
  return q.setStatus(
    ctx.db,
    subscriptionId,
    ['PAST_DUE', 'ACTIVE'],
    'PAUSED',
    ctx.clock.now().toISOString(),
  );
}

export function subscriptionById(ctx: AppContext, id: number) {
  return q.selectSubscription(ctx.db, id);
}

// --- Refill plans across a renewal (issue 29, decision 023) -------------------------------------

/** What the renewal rule needs of a prescription's refill plan. */
export interface RefillPlanStanding {
  prescriptionId: number;
  subscriptionId: number;
  status: q.SubscriptionRow['status'];
  refillsRemaining: number;
  nextBillingDate: string;
  unitPriceCents: number;
}

/** The refill plans of these prescriptions, by prescription. */
export async function refillPlansOf(
  ctx: AppContext,
  prescriptionIds: number[],
): Promise<Map<number, RefillPlanStanding>> {
  const rows = await q.selectRefillPlans(ctx.db, prescriptionIds);
  const plans = new Map<number, RefillPlanStanding>();
  for (const row of rows)
    if (row.refill)
      plans.set(row.refill.prescriptionId, {
        prescriptionId: row.refill.prescriptionId,
        subscriptionId: row.id,
        status: row.status,
        refillsRemaining: row.refill.remaining,
        nextBillingDate: row.nextBillingDate,
        unitPriceCents: row.unitPriceCents,
      });
  return plans;
}

/**
 * An approved renewal, in its transaction: the renewed prescription's refill plan continues under
 * the new prescription (every fill of it billed by the plan, the first at the plan's next date);
 * without a plan (a prescription written with no refills), one starts today at `unitPriceCents`.
 * The pharmacy cancels what is left of the renewed prescription (CancelRx), so only the new one is
 * filled from now on. False when the plan was cancelled meanwhile.
 */
export async function continueRefillPlan(
  tx: AppContext,
  renewal: {
    customerId: number;
    fromPrescriptionId: number;
    toPrescriptionId: number;
    /** Fills of the new prescription: its refills and the first fill, which the plan bills too. */
    fills: number;
    validUntil: string;
    name: string;
    image: string;
    category: string;
    unitPriceCents: number;
    orderId: number;
  },
): Promise<boolean> {
  const day = today(tx);
  const now = tx.clock.now().toISOString();
  await queueCancelRx(tx, {
    prescriptionId: renewal.fromPrescriptionId,
    reason: 'Replaced by a renewed prescription.',
  });
  const [plan] = await q.selectRefillPlans(tx.db, [renewal.fromPrescriptionId]);
  if (plan)
    return q.moveRefillPlan(tx.db, {
      fromPrescriptionId: renewal.fromPrescriptionId,
      toPrescriptionId: renewal.toPrescriptionId,
      fills: renewal.fills,
      validUntil: renewal.validUntil,
      name: renewal.name,
      today: day,
      now,
    });
  return q.insertRefill(tx.db, {
    customerId: renewal.customerId,
    prescriptionId: renewal.toPrescriptionId,
    refills: renewal.fills,
    validUntil: renewal.validUntil,
    name: renewal.name,
    image: renewal.image,
    category: renewal.category,
    unitPriceCents: renewal.unitPriceCents,
    nextBillingDate: day,
    anchorDay: Number(day.slice(8, 10)),
    createdOrderId: renewal.orderId,
    now,
  });
}

/**
 * A declined renewal, in its transaction: the refill plan ends now — nothing is charged after, an
 * unpaid period is no longer owed, and the pharmacy fills no more of the prescription — while a
 * period already paid for still ships. False when there was no plan still running.
 */
export async function endRefillPlan(
  tx: AppContext,
  prescriptionId: number,
  reason: string,
): Promise<boolean> {
  const [plan] = await q.selectRefillPlans(tx.db, [prescriptionId]);
  if (!plan) return false;
  const now = tx.clock.now().toISOString();
  await voidUnpaidRenewals(tx.db, plan.id, now);
  if (!(await q.cancelSubscription(tx.db, plan.id, reason, now))) return false;
  await queueCancelRx(tx, { prescriptionId, reason });
  return true;
}

/**
 * An early refill a provider approved (issue 29, decision 024), in the decision's transaction: the
 * refill plan's next fill moves to `date` (today or later, before the date it had), and its dates
 * go on from there. The billing job charges it on that date like any period, so exactly once; the
 * pharmacy is sent it with that charge. Refused, with the reason the provider reads, when the plan
 * is not running, has no fill left, would pass the prescription's end, or is being charged now.
 */
export async function bringRefillForward(
  tx: AppContext,
  subscriptionId: number,
  date: string,
): Promise<void> {
  const row = await q.selectSubscription(tx.db, subscriptionId);
  if (!row?.refill) throw notFound('We could not find that refill plan.');
  const day = today(tx);
  const refuse = (message: string) => {
    throw new AppError('SUBSCRIPTION_REFUSED', message, { date: message });
  };
  if (row.status !== 'ACTIVE')
    refuse(
      'This refill plan is not active (paused, payment due or ended), so its next refill cannot move. Write to the patient instead.',
    );
  if (row.refill.remaining <= 0) refuse('This prescription has no refills left.');
  if (date < day) refuse('Choose today or a later date.');
  if (date >= row.nextBillingDate)
    refuse(`Choose a date before the next refill, which is already on ${row.nextBillingDate}.`);
  if (date > row.refill.until)
    refuse(`The prescription ends on ${row.refill.until}. Choose an earlier date.`);
  const now = tx.clock.now().toISOString();
  const saved = await q.saveSubscription(
    tx.db,
    row.id,
    row.updatedAt,
    { ...row, nextBillingDate: date, anchorDay: Number(date.slice(8, 10)) },
    now,
  );
  if (!saved)
    throw new AppError(
      'SUBSCRIPTION_CHANGED',
      'This refill plan just changed. Please review it and try again.',
    );
  await refuseWhileCharging(tx.db, row.id);
}
