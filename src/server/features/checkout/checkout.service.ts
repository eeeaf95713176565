import type { AppContext } from '#server/context.ts';
import {
  cardOnFileToken,
  rememberCheckoutAddresses,
  saveCheckoutCard,
} from '#server/features/accounts/accounts.service.ts';
import { sessionUser, type ActiveSession } from '#server/features/auth/auth.service.ts';
import { offer, siblingOffer } from '#server/features/catalog/catalog.service.ts';
import {
  claimCheckout,
  pricedCart,
  releaseCheckout,
  removeOrdered,
  takeStaleCheckoutClaims,
} from '#server/features/cart/cart.service.ts';
import { clickExists } from '#server/features/clicks/clicks.service.ts';
import { claimCouponUse, releaseCouponUse } from '#server/features/coupons/coupons.service.ts';
import {
  deletePendingOrder,
  insertPendingOrder,
  markOrderPaid,
  selectOrderByKey,
  selectOrderForPayment,
  selectOrderLines,
} from '#server/features/orders/orders.checkout.queries.ts';
import { queueEmail, sendQueuedSoon } from '#server/features/outbox/outbox.service.ts';
import {
  charge,
  gatewayRecord,
  awaitCustomer,
  awaitingCustomer,
  ledgerCall,
  outcomeOf,
  refundOrphanCharge,
  settleCall,
  type LedgerRow,
} from '#server/features/payments/payments.service.ts';
import type { Finishers, StaleWork } from '#server/features/payments/payments.jobs.ts';
import { startSubscriptionsForOrder } from '#server/features/subscriptions/subscriptions.service.ts';
import {
  emailHtml,
  emailSignature,
  receiptText,
  type ReceiptLine,
} from '#server/lib/email-layout.ts';
import { faultPoint } from '#server/lib/faults.ts';
import type { PartnerShipping } from './checkout.partners.ts';
import { forgetCheckoutProgress } from './checkout.progress.ts';
import { absoluteLink } from '#server/lib/links.ts';
import { AppError } from '#server/lib/errors.ts';
import { stacks } from '#shared/cart.ts';
import { bottlesText, type Frequency } from '#shared/catalog.ts';
import type { PlaceOrder, PlacedOrder, Upsell } from '#shared/checkout.ts';
import { formatCents, priceLabel } from '#shared/money.ts';
import { site } from '#shared/site.ts';
import { usDateFromIso } from '#shared/dates.ts';
import { paths } from '#shared/paths.ts';

const WAIT_FOR_ATTEMPT_MS = 10_000;
/** A pending attempt this old was interrupted (a crash between charge and commit): drive it again. */
const STALE_ATTEMPT_MS = 60_000;

const inProgress = () =>
  new AppError(
    'CHECKOUT_IN_PROGRESS',
    'Your order is already being placed. Please wait a moment and check your orders.',
  );

/**
 * Places the order for the customer's server cart, exactly once per idempotency key:
 * the cart is claimed by one attempt, the order is written as pending, the card is charged with the
 * order's own idempotency key, and only a successful charge makes it an order (with its
 * subscriptions). A decline leaves no order, keeps the cart and says why.
 */
export async function placeOrder(
  ctx: AppContext,
  session: ActiveSession,
  input: PlaceOrder,
  partners: PartnerShipping,
): Promise<PlacedOrder> {
  const customerId = session.customerId;
  const key = `${customerId}:${input.idempotency_key}`;

  const previous = await selectOrderByKey(ctx.db, key);
  if (previous) return resumeAttempt(ctx, customerId, key, previous.id);

  const priced = await pricedCart(ctx, customerId);
  if (priced.cart.item_count === 0) throw new AppError('EMPTY_CART', 'Your cart is empty.');

  const claim = await claimCheckout(ctx, customerId, input.idempotency_key);
  if (claim === 'taken') throw inProgress();
  if (claim === 'mine') return waitForAttempt(ctx, customerId, key);

  let orderId: number | null = null;
  try {
    // The card first: a card the gateway refuses never becomes an order.
    // Shipping to the partner (issue 16): checked before the card, and read again with the order.
    if (input.ship_to_partner) await partners.shippingFor(ctx, customerId);
    const token = await paymentToken(ctx, session, input);
    const { phoneNo, ...ownAddress } = input.shipping;
    const own = { ...ownAddress, country: 'US' };
    const explicitBilling = input.billing ? { ...input.billing, country: 'US' } : null;
    // The partner's address is never kept as the customer's own (refills ship to that one).
    if (input.ship_to_partner)
      await rememberCheckoutAddresses(ctx, customerId, null, explicitBilling, phoneNo);
    else await rememberCheckoutAddresses(ctx, customerId, own, explicitBilling ?? own, phoneNo);
    const clickId =
      input.click_id && (await clickExists(ctx, input.click_id)) ? input.click_id : null;

    // The coupon's use and the pending order appear together, so whoever removes the order (this
    // request on a decline, or the reconciler after a crash) gives the use back, once.
    const pending = await ctx.db.transaction().execute(async (trx) => {
      const tx = { ...ctx, db: trx };
      // The link and the sharing as they are now, and the address as the partner's account has it.
      const partner = input.ship_to_partner ? await partners.shippingFor(tx, customerId) : null;
      const shipping = partner ? { ...partner.address, country: 'US' } : own;
      if (priced.couponCode && !(await claimCouponUse(tx, priced.couponCode)))
        throw new AppError('COUPON_REFUSED', 'This coupon has reached its usage limit.', {
          code: 'This coupon has reached its usage limit.',
        });
      return insertPendingOrder(tx.db, {
        customerId,
        kind: 'store',
        idempotencyKey: key,
        subtotalCents: priced.cart.subtotal_cents,
        discountCents: priced.cart.discount_cents,
        totalCents: priced.cart.total_cents,
        couponCode: priced.couponCode,
        clickId,
        shipToPartnerId: partner?.partnerId ?? null,
        shipping,
        lines: priced.lines.map((line) => ({
          productId: line.productId,
          name: line.name,
          image: line.img,
          category: line.category,
          frequency: line.frequency,
          unitPriceCents: line.priceCents,
          quantity: line.quantity,
        })),
        now: ctx.clock.now().toISOString(),
      });
    });
    // The cart was claimed by this attempt alone, so its key cannot exist yet.
    if (!pending) throw inProgress();
    orderId = pending.id;
    faultPoint(ctx.env, 'checkout:after-pending');
    return await chargeAndComplete(ctx, customerId, key, pending.id, token);
  } catch (error) {
    // A charge whose answer never came is the reconciler's to finish (or undo) once the gateway
    // says what it did; any other failure gives back what the attempt held, at once.
    if (!(await chargeInDoubt(ctx, orderId)))
      await abandonAttempt(ctx, customerId, input.idempotency_key, orderId);
    throw error;
  }
}

async function chargeInDoubt(ctx: AppContext, orderId: number | null): Promise<boolean> {
  if (orderId === null) return false;
  return (await ledgerCall(ctx, chargeKey(orderId)))?.status === 'started';
}

/** The gateway key of a store order's charge. */
const chargeKey = (orderId: number) => `order:${orderId}`;

/**
 * Gives back what an unpaid attempt held: the pending order goes (and with it the coupon's use,
 * given back by whoever removed it) and the cart is free for the next attempt, whatever its key.
 */
async function abandonAttempt(
  ctx: AppContext,
  customerId: number,
  checkoutKey: string,
  orderId: number | null,
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    if (orderId !== null) {
      const order = await selectOrderForPayment(tx.db, orderId);
      if (order && (await deletePendingOrder(tx.db, orderId)) && order.couponCode)
        await releaseCouponUse(tx, order.couponCode);
    }
    await releaseCheckout(tx, customerId, checkoutKey);
  });
}

async function paymentToken(
  ctx: AppContext,
  session: ActiveSession,
  input: PlaceOrder,
): Promise<string> {
  // A new card is verified and saved as the card on file (renewals bill it); declines throw.
  await saveCheckoutCard(ctx, session, input.payment);
  const token = await cardOnFileToken(ctx, session.customerId);
  if (!token)
    throw new AppError('NO_CARD', 'Add a card to pay with.', {
      ccnum: 'Add a card to pay with.',
    });
  return token;
}

async function chargeAndComplete(
  ctx: AppContext,
  customerId: number,
  key: string,
  orderId: number,
  token: string,
): Promise<PlacedOrder> {
  const attempt = await selectOrderByKey(ctx.db, key);
  if (!attempt) throw inProgress();
  const call = {
    purpose: 'checkout',
    idempotencyKey: chargeKey(orderId),
    amountCents: attempt.totalCents,
    orderId,
  };
  const result = await charge(ctx, call, token, { customerPresent: true });
  if (!result.ok && result.action) {
    // The bank asks the customer to confirm (3-D Secure): the order stays pending and the charge
    // started while they do, and the same request sent again finishes it.
    await awaitCustomer(ctx, call.idempotencyKey);
    throw new AppError(
      'CARD_AUTHENTICATION',
      result.message,
      { ccnum: result.message },
      { client_secret: result.action.clientSecret },
    );
  }
  if (!result.ok) {
    await settleCall(ctx, call.idempotencyKey, outcomeOf(result));
    throw new AppError('CARD_DECLINED', result.message, { ccnum: result.message });
  }
  if (!(await completeCheckout(ctx, orderId, result.chargeId))) {
    // The attempt was undone while the gateway was answering: the charge goes back.
    await refundOrphanCharge(ctx, {
      chargeId: result.chargeId,
      amountCents: attempt.totalCents,
      orderId,
    });
    throw new AppError(
      'CHECKOUT_INTERRUPTED',
      'We could not complete this order and your card was refunded. Please place it again.',
    );
  }
  return placedOrder(ctx, key);
}

/**
 * Turns a succeeded charge into the paid order it was for, in one transaction with the ledger's
 * record of the charge: paid, subscriptions started, the ordered lines out of the cart, the
 * confirmation queued. The request and the reconciler both finish an order through here. False
 * when the order can no longer take this charge (it was undone, or another charge paid it): the
 * caller refunds the charge.
 */
async function completeCheckout(
  ctx: AppContext,
  orderId: number,
  chargeId: string,
): Promise<boolean> {
  const order = await selectOrderForPayment(ctx.db, orderId);
  const lines = order ? await selectOrderLines(ctx.db, orderId) : [];
  const placedAt = ctx.clock.now();
  const moved = await ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    await settleCall(tx, chargeKey(orderId), { ok: true, ref: chargeId });
    // Only the attempt that moves it from pending to paid starts subscriptions and empties the cart.
    if (
      !order?.idempotencyKey ||
      !(await markOrderPaid(tx.db, orderId, chargeId, tx.clock.now().toISOString()))
    )
      return false;
    await startSubscriptionsForOrder(tx, {
      id: orderId,
      customerId: order.customerId,
      placedAt,
      lines: lines.map((l) => ({
        productId: l.productId,
        frequency: l.frequency as Frequency,
        quantity: l.quantity,
        unitPriceCents: l.unitPriceCents,
      })),
    });
    await removeOrdered(tx, order.customerId, lines);
    await forgetCheckoutProgress(tx, order.customerId);
    // Paid and confirmed, or neither: the email is queued with the change it tells of.
    await sendConfirmation(tx, order.customerId, await placedOrder(tx, order.idempotencyKey));
    return true;
  });
  if (moved) {
    faultPoint(ctx.env, 'checkout:after-commit');
    sendQueuedSoon(ctx);
    return true;
  }
  const now = await selectOrderForPayment(ctx.db, orderId);
  return now !== undefined && now.paymentStatus !== 'pending' && now.chargeId === chargeId;
}

// --- For the payment reconciler ------------------------------------------------------------------

/**
 * Settles a checkout charge a crash left unanswered, by what the gateway did: a charge that went
 * through becomes the paid order (or is refunded when the order is gone); one that failed or never
 * arrived releases the attempt, so the customer can check out again with a new key.
 */
export async function finishCheckoutCharge(ctx: AppContext, call: LedgerRow): Promise<void> {
  // The customer is still confirming it with their bank: theirs to finish until their time is up.
  if (awaitingCustomer(ctx, call)) return;
  const orderId = call.orderId ?? 0;
  const record = await gatewayRecord(ctx, { idempotencyKey: call.idempotencyKey });
  if (record?.status === 'succeeded') {
    if (!(await completeCheckout(ctx, orderId, record.id)))
      await refundOrphanCharge(ctx, {
        chargeId: record.id,
        amountCents: record.amountCents,
        orderId,
      });
    return;
  }
  await settleCall(ctx, call.idempotencyKey, {
    ok: false,
    failure: record?.failureMessage ?? 'The charge never reached the gateway.',
  });
  const order = await selectOrderForPayment(ctx.db, orderId);
  if (order?.paymentStatus === 'pending' && order.idempotencyKey)
    await abandonAttempt(ctx, order.customerId, checkoutKeyOf(order.idempotencyKey), orderId);
}

/** The customer's own key of an attempt, from the order's key `<customer>:<key>`. */
function checkoutKeyOf(orderKey: string): string {
  return orderKey.slice(orderKey.indexOf(':') + 1);
}

/**
 * Settles a checkout attempt whose claim on the cart outlived the grace period: the attempt was
 * interrupted before, during or after its charge. Its charge, if it was made, decides; without
 * one, the attempt is released.
 */
export async function finishCheckoutAttempt(
  ctx: AppContext,
  customerId: number,
  checkoutKey: string,
): Promise<void> {
  const order = await selectOrderByKey(ctx.db, `${customerId}:${checkoutKey}`);
  if (!order || order.paymentStatus !== 'pending') {
    await releaseCheckout(ctx, customerId, checkoutKey);
    return;
  }
  const call = await ledgerCall(ctx, chargeKey(order.id));
  if (call?.status === 'started' || call?.status === 'succeeded') {
    await finishCheckoutCharge(ctx, call);
    return;
  }
  await abandonAttempt(ctx, customerId, checkoutKey, order.id);
}

/** What the payment reconciler runs for checkout charges (registered at start, app.ts). */
export const checkoutFinishers: Finishers = { checkout: finishCheckoutCharge };

/**
 * For the payment reconciler: checkout claims on a cart held longer than the grace period, each
 * taken by this instance alone and finished as its charge decides.
 */
export const staleCheckoutAttempts: StaleWork = async (ctx, graceMs, limit) =>
  (await takeStaleCheckoutClaims(ctx, graceMs, limit)).map(
    (claim) => () => finishCheckoutAttempt(ctx, claim.customerId, claim.key),
  );

async function placedOrder(ctx: AppContext, key: string): Promise<PlacedOrder> {
  const attempt = await selectOrderByKey(ctx.db, key);
  if (!attempt || attempt.paymentStatus !== 'paid') throw inProgress();
  const lines = await selectOrderLines(ctx.db, attempt.id);
  return {
    orders_id: attempt.id,
    order_number: attempt.orderNumber,
    placed_at: attempt.createdAt,
    subtotal_cents: attempt.subtotalCents,
    discount_cents: attempt.discountCents,
    coupon_code: attempt.couponCode,
    total_cents: attempt.totalCents,
    ship_to_partner:
      attempt.shipToPartnerFirstName === null
        ? null
        : { first_name: attempt.shipToPartnerFirstName },
    subscriptions: lines.filter((l) => l.frequency !== 'ONE_TIME').length,
    items: lines.map((l) => ({
      product_id: l.productId,
      name: l.name,
      category: l.category,
      price_cents: l.unitPriceCents,
      quantity: l.quantity,
      frequency: l.frequency as Frequency,
    })),
  };
}

/** A retry of an attempt that exists: return it when paid, wait while it is in flight, re-drive it when it was interrupted. */
async function resumeAttempt(
  ctx: AppContext,
  customerId: number,
  key: string,
  orderId: number,
): Promise<PlacedOrder> {
  const attempt = await selectOrderByKey(ctx.db, key);
  if (attempt?.paymentStatus === 'paid') return placedOrder(ctx, key);
  if (attempt && awaitingCustomer(ctx, await ledgerCall(ctx, chargeKey(orderId)))) {
    // Sent again once the customer confirmed with their bank: the same charge, asked again with
    // its key, says how it ended. A decline undoes the attempt, as on the first try.
    const token = await cardOnFileToken(ctx, customerId);
    if (token) {
      try {
        return await chargeAndComplete(ctx, customerId, key, orderId, token);
      } catch (error) {
        if (!(await chargeInDoubt(ctx, orderId)))
          await abandonAttempt(ctx, customerId, checkoutKeyOf(key), orderId);
        throw error;
      }
    }
  }
  if (attempt && ctx.clock.now().getTime() - Date.parse(attempt.updatedAt) > STALE_ATTEMPT_MS) {
    const token = await cardOnFileToken(ctx, customerId);
    if (token) return chargeAndComplete(ctx, customerId, key, orderId, token);
  }
  return waitForAttempt(ctx, customerId, key);
}

async function waitForAttempt(
  ctx: AppContext,
  _customerId: number,
  key: string,
): Promise<PlacedOrder> {
  const deadline = Date.now() + WAIT_FOR_ATTEMPT_MS;
  while (Date.now() < deadline) {
    const attempt = await selectOrderByKey(ctx.db, key);
    if (attempt?.paymentStatus === 'paid') return placedOrder(ctx, key);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw inProgress();
}

/**
 * An ordered supplement as the confirmation lists it: what arrives and what it costs, e.g. 'Immunity
 * Gummies: 3 bottles every 3 months, $45.00/quarterly'. Only supplements are named: emails carry
 * no health information.
 */
/** The receipt's rows: each line, then subtotal, discount, shipping, tax and the total. */
function receiptLines(order: PlacedOrder): ReceiptLine[] {
  const items = order.items
    .filter((item) => item.category === 'supplements')
    .map((item) => ({
      label: item.name,
      detail:
        item.quantity > 1
          ? `${bottlesText(item, item.quantity)}, ${item.quantity} × ${formatCents(item.price_cents)}`
          : bottlesText(item, item.quantity),
      amount: priceLabel(item.price_cents * item.quantity, item.frequency),
    }));
  return [
    ...items,
    { label: 'Subtotal', amount: formatCents(order.subtotal_cents) },
    ...(order.discount_cents > 0
      ? [
          {
            label: order.coupon_code ? `Discount (${order.coupon_code})` : 'Discount',
            amount: `−${formatCents(order.discount_cents)}`,
          },
        ]
      : []),
    { label: 'Shipping', amount: 'Free' },
    { label: 'Tax', amount: formatCents(0) },
    { label: 'Total charged', amount: formatCents(order.total_cents), total: true },
  ];
}

/** The order confirmation is its itemised receipt: what was bought, at what price, when. */
async function sendConfirmation(
  ctx: AppContext,
  customerId: number,
  order: PlacedOrder,
): Promise<void> {
  const to = await sessionUser(ctx, customerId);
  const link = absoluteLink(ctx.env, paths.order(order.order_number));
  const placed = usDateFromIso(order.placed_at.slice(0, 10));
  const opening = `Thank you, ${to.first_name}. We have your order ${order.order_number}, placed ${placed}, and will email you when it ships. Here is your receipt.`;
  const after = [
    // Issue 16: to the partner's shared address (their first name only; the address is theirs).
    ...(order.ship_to_partner
      ? [`Shipping to ${order.ship_to_partner.first_name}, at the address they share with you.`]
      : []),
    `Charged to your card on file on ${placed}.`,
    ...(order.subscriptions > 0
      ? [
          `${order.subscriptions === 1 ? 'Your subscription has' : `Your ${order.subscriptions} subscriptions have`} started. You can skip, pause or cancel any time from Subscriptions in your account.`,
        ]
      : []),
  ];
  const receipt = receiptLines(order);
  await queueEmail(ctx, {
    to: to.email,
    subject: `Your ${site.name} order ${order.order_number}`,
    text: [
      opening,
      '',
      ...receiptText(receipt),
      '',
      ...after,
      '',
      `See your order: ${link}`,
      '',
      ...emailSignature,
    ].join('\n'),
    html: emailHtml(
      [opening, ...after],
      { href: link, label: 'See your order' },
      'Questions? Just reply to this email or write to us.',
      { receipt },
    ),
  });
}

// --- Upsells -------------------------------------------------------------------------------------

const BUNDLE_ID = 160;

/** Checkout step 2: add the bundle when it is not in the cart; subscribe instead of buying once. */
export async function upsells(ctx: AppContext, customerId: number): Promise<Upsell[]> {
  const { lines } = await pricedCart(ctx, customerId);
  const offers: Upsell[] = [];
  for (const line of lines) {
    // Only a one-time product sold in quantities has a subscription twin (not the bundle).
    if (!stacks({ frequency: line.frequency, quantity_supported: line.quantitySupported }))
      continue;
    const monthly = await siblingOffer(ctx.db, line.productId, 'MONTHLY');
    if (!monthly || lines.some((l) => l.productId === monthly.productId)) continue;
    offers.push({
      kind: 'switch_to_subscription',
      product_id: monthly.productId,
      replaces_product_id: line.productId,
      title: `Subscribe to ${line.name} and save`,
      description: `Get ${line.name} every month for ${formatCents(monthly.priceCents)} instead of ${formatCents(line.priceCents)}. Skip, pause or cancel any time.`,
      img: line.img,
      price_cents: monthly.priceCents,
      frequency: 'MONTHLY',
      savings_cents: (line.priceCents - monthly.priceCents) * line.quantity,
    });
  }
  if (!lines.some((l) => l.productId === BUNDLE_ID)) {
    const bundle = await offer(ctx.db, BUNDLE_ID);
    if (bundle) {
      offers.push({
        kind: 'add_product',
        product_id: bundle.productId,
        replaces_product_id: null,
        title: 'Add the Holiday Bundle Special',
        description: `One bottle each of Sleep, Biotin and Immunity Gummies for ${formatCents(bundle.priceCents)}: three bottles for the price of one.`,
        img: bundle.img,
        price_cents: bundle.priceCents,
        frequency: 'ONE_TIME',
        savings_cents: 2 * bundle.priceCents,
      });
    }
  }
  return offers.slice(0, 2);
}
