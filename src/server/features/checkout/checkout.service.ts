import type { AppContext } from '#server/context.ts';
import {
  cardOnFileToken,
  rememberCheckoutAddresses,
  updateCard,
} from '#server/features/accounts/accounts.service.ts';
import { sessionUser, type ActiveSession } from '#server/features/auth/auth.service.ts';
import { offer, siblingOffer } from '#server/features/catalog/catalog.service.ts';
import {
  claimCheckout,
  pricedCart,
  releaseCheckout,
  removeOrdered,
} from '#server/features/cart/cart.service.ts';
import { clickExists } from '#server/features/clicks/clicks.service.ts';
import { claimCouponUse, releaseCouponUse } from '#server/features/coupons/coupons.service.ts';
import {
  createPendingOrder,
  discardOrderAttempt,
  markOrderPaid,
  orderAttempt,
  orderLines,
} from '#server/features/orders/orders.service.ts';
import { startSubscriptionsForOrder } from '#server/features/subscriptions/subscriptions.service.ts';
import { emailHtml, emailSignature } from '#server/lib/email-layout.ts';
import { AppError } from '#server/plugins/errors.ts';
import type { Frequency } from '#shared/catalog.ts';
import type { PlaceOrder, PlacedOrder, Upsell } from '#shared/checkout.ts';
import { formatCents } from '#shared/money.ts';
import { site } from '#shared/site.ts';

const WAIT_FOR_ATTEMPT_MS = 10_000;
/** A pending attempt this old was interrupted (a crash between charge and commit): drive it again. */
const STALE_ATTEMPT_MS = 60_000;

const inProgress = () =>
  new AppError(
    409,
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
): Promise<PlacedOrder> {
  const customerId = session.customerId;
  const key = `${customerId}:${input.idempotency_key}`;

  const previous = await orderAttempt(ctx, key);
  if (previous) return resumeAttempt(ctx, customerId, key, previous.id);

  const priced = await pricedCart(ctx, customerId);
  if (priced.cart.item_count === 0) throw new AppError(400, 'EMPTY_CART', 'Your cart is empty.');

  const claim = await claimCheckout(ctx, customerId, input.idempotency_key);
  if (claim === 'taken') throw inProgress();
  if (claim === 'mine') return waitForAttempt(ctx, customerId, key);

  let orderId: number | null = null;
  let couponClaimed = false;
  try {
    // The card first: a card the gateway refuses never becomes an order.
    const token = await paymentToken(ctx, session, input);
    if (priced.couponCode) {
      couponClaimed = await claimCouponUse(ctx, priced.couponCode);
      if (!couponClaimed)
        throw new AppError(400, 'COUPON_REFUSED', 'This coupon has reached its usage limit.', {
          code: 'This coupon has reached its usage limit.',
        });
    }
    const { phoneNo, ...shippingAddress } = input.shipping;
    const shipping = { ...shippingAddress, country: 'US' };
    const billing = input.billing ? { ...input.billing, country: 'US' } : shipping;
    await rememberCheckoutAddresses(ctx, customerId, shipping, billing, phoneNo);

    const pending = await createPendingOrder(ctx, {
      customerId,
      kind: 'store',
      idempotencyKey: key,
      subtotalCents: priced.cart.subtotal_cents,
      discountCents: priced.cart.discount_cents,
      totalCents: priced.cart.total_cents,
      couponCode: priced.couponCode,
      clickId: input.click_id && (await clickExists(ctx, input.click_id)) ? input.click_id : null,
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
    // The cart was claimed by this attempt alone, so its key cannot exist yet.
    if (!pending) throw inProgress();
    orderId = pending.id;
    return await chargeAndComplete(ctx, customerId, key, pending.id, token);
  } catch (error) {
    if (orderId !== null && !(await isPaid(ctx, key))) await discardOrderAttempt(ctx, orderId);
    if (couponClaimed && priced.couponCode && !(await isPaid(ctx, key)))
      await releaseCouponUse(ctx, priced.couponCode);
    if (!(await isPaid(ctx, key))) await releaseCheckout(ctx, customerId, input.idempotency_key);
    throw error;
  }
}

async function isPaid(ctx: AppContext, key: string): Promise<boolean> {
  return (await orderAttempt(ctx, key))?.paymentStatus === 'paid';
}

async function paymentToken(
  ctx: AppContext,
  session: ActiveSession,
  input: PlaceOrder,
): Promise<string> {
  if (input.payment.method === 'card') {
    const { ccnum, ccexp, cccvv } = input.payment;
    // Verifies and saves it as the card on file (renewals bill it); declines throw with the reason.
    await updateCard(ctx, session, { ccnum, ccexp, cccvv, consent: true });
  }
  const token = await cardOnFileToken(ctx, session.customerId);
  if (!token)
    throw new AppError(400, 'NO_CARD', 'Add a card to pay with.', {
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
  const attempt = await orderAttempt(ctx, key);
  if (!attempt) throw inProgress();
  const result = await ctx.payments.charge(
    { token, amountCents: attempt.totalCents, idempotencyKey: `order:${orderId}` },
    ctx.clock.now(),
  );
  if (!result.ok)
    throw new AppError(402, 'CARD_DECLINED', result.message, { ccnum: result.message });

  const lines = await orderLines(ctx, orderId);
  const placedAt = ctx.clock.now();
  const subscriptions = await ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    // Only the attempt that moves it from pending to paid starts subscriptions and empties the cart.
    if (!(await markOrderPaid(tx, orderId, result.chargeId))) return null;
    const started = await startSubscriptionsForOrder(tx, {
      id: orderId,
      customerId,
      placedAt,
      lines: lines.map((l) => ({
        productId: l.productId,
        frequency: l.frequency as Frequency,
        quantity: l.quantity,
        unitPriceCents: l.unitPriceCents,
      })),
    });
    await removeOrdered(tx, customerId, lines);
    return started;
  });
  const placed = await placedOrder(ctx, key);
  if (subscriptions !== null) await sendConfirmation(ctx, customerId, placed);
  return placed;
}

async function placedOrder(ctx: AppContext, key: string): Promise<PlacedOrder> {
  const attempt = await orderAttempt(ctx, key);
  if (!attempt || attempt.paymentStatus !== 'paid') throw inProgress();
  const lines = await orderLines(ctx, attempt.id);
  return {
    orders_id: attempt.id,
    order_number: attempt.orderNumber,
    total_cents: attempt.totalCents,
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
  const attempt = await orderAttempt(ctx, key);
  if (attempt?.paymentStatus === 'paid') return placedOrder(ctx, key);
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
    const attempt = await orderAttempt(ctx, key);
    if (attempt?.paymentStatus === 'paid') return placedOrder(ctx, key);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw inProgress();
}

async function sendConfirmation(
  ctx: AppContext,
  customerId: number,
  order: PlacedOrder,
): Promise<void> {
  const to = await sessionUser(ctx, customerId);
  const link = `${ctx.env.PUBLIC_URL ?? ''}/orders#${order.order_number}`;
  const count = order.items.reduce((sum, item) => sum + item.quantity, 0);
  const lines = [
    `Thank you, ${to.first_name}. We have your order ${order.order_number} and will e-mail you when it ships.`,
    `${count} ${count === 1 ? 'item' : 'items'}, ${formatCents(order.total_cents)} charged to your card on file.`,
    ...(order.subscriptions > 0
      ? [
          `${order.subscriptions === 1 ? 'Your subscription has' : `Your ${order.subscriptions} subscriptions have`} started. You can skip, pause or cancel any time from Subscriptions in your account.`,
        ]
      : []),
  ];
  await ctx.mailer.send({
    to: to.email,
    subject: `Your ${site.name} order ${order.order_number}`,
    text: [...lines, '', `See your order: ${link}`, '', ...emailSignature].join('\n'),
    html: emailHtml(
      lines,
      { href: link, label: 'See your order' },
      'Questions? Just reply to this e-mail or write to us.',
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
    if (line.frequency !== 'ONE_TIME' || !line.quantitySupported) continue;
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
