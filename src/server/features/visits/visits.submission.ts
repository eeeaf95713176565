// Submitting the visit: the card is authorised now, charged only on approval.
import type { AppContext } from '#server/context.ts';
import type { AddressInput } from '#shared/accounts.ts';
import type { CheckoutPayment } from '#shared/checkout.ts';
import {
  cardOnFileToken,
  rememberCheckoutAddresses,
  saveCheckoutCard,
} from '#server/features/accounts/accounts.service.ts';
import { sessionUser, type ActiveSession } from '#server/features/auth/auth.service.ts';
import {
  deletePendingOrder,
  insertPendingOrder,
  selectOrderByKey,
} from '#server/features/orders/orders.checkout.queries.ts';
import { markAuthorized, selectVisitOrder } from '#server/features/orders/orders.visit.queries.ts';
import { queueEmail, sendQueuedSoon } from '#server/features/outbox/outbox.service.ts';
import {
  authorize,
  awaitCustomer,
  awaitingCustomer,
  gatewayRecord,
  outcomeOf,
  settleCall,
  type LedgerRow,
} from '#server/features/payments/payments.service.ts';
import { finishByAskingAgain, type Finishers } from '#server/features/payments/payments.jobs.ts';
import { emailHtml, emailSignature } from '#server/lib/email-layout.ts';
import { faultPoint } from '#server/lib/faults.ts';
import { AppError } from '#server/lib/errors.ts';
import { absoluteLink } from '#server/lib/links.ts';
import { programs, treatmentsFor, type VisitCheckoutSummary } from '#shared/visits.ts';
import { formatCents } from '#shared/money.ts';
import { prescriptionShipsOnlyTo } from '#shared/us-states.ts';
import { paths } from '#shared/paths.ts';
import { releaseHold } from './visits.holds.ts';
import { toPreferences } from './visits.preferences.ts';
import {
  ownVisit,
  providerFor,
  requireCovered,
  requireIntake,
  requireOpen,
} from './visits.program.ts';
import * as q from './visits.queries.ts';

/**
 * Submits the visit for review: the treatment's price is held on the card (not charged), an order
 * waits for the provider, and a provider licensed in the patient's state is assigned (spec §7
 * `/doctor`). Resubmitting the same visit answers the same order.
 */
export async function submitVisit(
  ctx: AppContext,
  session: ActiveSession,
  input: {
    visitId: number;
    shipping: AddressInput & { phoneNo: string };
    billing: AddressInput | null;
    payment: CheckoutPayment;
  },
): Promise<{ orderNumber: string; amountCents: number; destination: string }> {
  const visit = await ownVisit(ctx, session, input.visitId);
  const key = visitOrderKey(visit.id);
  const previous = await selectOrderByKey(ctx.db, key);
  if (previous && visit.status === 'PENDING_REVIEW') {
    return {
      orderNumber: previous.orderNumber,
      amountCents: previous.totalCents,
      destination: paths.visitScreen(visit.category, 'submitted'),
    };
  }
  requireAtCheckout(visit);
  const { treatment, dosage, frequency } = await chosenTreatment(ctx, visit);
  // The provider is licensed, and the prescription valid, only where the visit was eligible.
  if (!visit.state || input.shipping.state !== visit.state) {
    const message = prescriptionShipsOnlyTo(visit.state ?? '');
    throw new AppError('SHIPPING_STATE', message, { 'shipping.state': message });
  }
  // Never hold the card for a visit nobody can review.
  await requireCovered(ctx, visit.state);

  await saveCheckoutCard(ctx, session, input.payment);
  const token = await cardOnFileToken(ctx, session.customerId);
  if (!token)
    throw new AppError('NO_CARD', 'Add a card to pay with.', {
      ccnum: 'Add a card to pay with.',
    });
  const { phoneNo, ...shippingAddress } = input.shipping;
  const shipping = { ...shippingAddress, country: 'US' };
  await rememberCheckoutAddresses(
    ctx,
    session.customerId,
    shipping,
    input.billing ? { ...input.billing, country: 'US' } : shipping,
    phoneNo,
  );

  const order =
    previous ??
    (await insertPendingOrder(ctx.db, {
      customerId: session.customerId,
      kind: 'visit',
      idempotencyKey: key,
      subtotalCents: frequency.priceCents,
      discountCents: 0,
      totalCents: frequency.priceCents,
      couponCode: null,
      clickId: null,
      shipping,
      lines: [
        {
          productId: 0,
          name: `${treatment.label} ${dosage.label}`,
          image: programs[visit.category].illustration,
          category: visit.category,
          frequency: 'MONTHLY',
          unitPriceCents: frequency.priceCents,
          quantity: 1,
        },
      ],
      now: ctx.clock.now().toISOString(),
    }));
  const attempt = await selectOrderByKey(ctx.db, key);
  if (!order || !attempt)
    throw new AppError('VISIT_BUSY', 'Your visit is being submitted. Please wait a moment.');
  const call = {
    purpose: 'visit',
    idempotencyKey: authorizationKey(attempt.id),
    amountCents: attempt.totalCents,
    orderId: attempt.id,
    visitId: visit.id,
  };
  const held = await authorize(ctx, call, token, { customerPresent: true });
  if (!held.ok && held.action) {
    // The bank asks the patient to confirm the hold (3-D Secure): the order stays pending while
    // they do, and the same visit sent again finishes it.
    await awaitCustomer(ctx, call.idempotencyKey);
    throw new AppError(
      'CARD_AUTHENTICATION',
      held.message,
      { ccnum: held.message },
      { client_secret: held.action.clientSecret },
    );
  }
  if (!held.ok) {
    await ctx.db.transaction().execute(async (trx) => {
      const tx = { ...ctx, db: trx };
      await settleCall(tx, call.idempotencyKey, outcomeOf(held));
      await deletePendingOrder(tx.db, attempt.id);
    });
    throw new AppError('CARD_DECLINED', held.message, { ccnum: held.message });
  }
  if (!(await completeSubmission(ctx, visit.id, attempt.id, held.authorizationId))) {
    // The attempt was undone while the gateway was answering: nothing stays held.
    await releaseHold(ctx, attempt.id, held.authorizationId, attempt.totalCents);
    throw new AppError('VISIT_BUSY', 'Your visit is being submitted. Please wait a moment.');
  }
  return {
    orderNumber: attempt.orderNumber,
    amountCents: attempt.totalCents,
    destination: paths.visitScreen(visit.category, 'submitted'),
  };
}

/**
 * What the checkout will ask the patient to pay, for the page to show beside the card and in the
 * consent: the amount `submitVisit` holds (its order's, once there is one, as a resubmission answers
 * that order; else the chosen supply's monthly price), and the same amount for each refill, which
 * bills at the order's price (decision 008).
 */
export async function checkoutSummary(
  ctx: AppContext,
  session: ActiveSession,
  visitId: number,
): Promise<VisitCheckoutSummary> {
  const visit = await ownVisit(ctx, session, visitId);
  const previous = await selectOrderByKey(ctx.db, visitOrderKey(visit.id));
  if (!(previous && visit.status === 'PENDING_REVIEW')) requireAtCheckout(visit);
  const { treatment, dosage, frequency } = await chosenTreatment(ctx, visit);
  const amountCents = previous?.totalCents ?? frequency.priceCents;
  return {
    treatment: treatment.label,
    dose: dosage.label,
    supply: frequency.label,
    authorized_cents: amountCents,
    refill_cents: amountCents,
  };
}

/** One order per visit: a resubmission finds it by this key. */
const visitOrderKey = (visitId: number) => `visit:${visitId}`;

function requireAtCheckout(visit: q.VisitRow): void {
  requireOpen(visit);
  requireIntake(visit);
  if (visit.step !== 'checkout')
    throw new AppError('VISIT_STEP', 'Please finish the earlier steps of your visit first.');
}

/** The treatment, dose and monthly supply the patient chose, from the program's treatments. */
async function chosenTreatment(ctx: AppContext, visit: q.VisitRow) {
  const preferences = toPreferences(await q.selectPreferences(ctx.db, visit.id));
  const treatment = treatmentsFor(visit.category).find((t) => t.drug === preferences.drug);
  const frequency = treatment?.frequencies.find((f) => f.code === preferences.frequency);
  const dosage = treatment?.dosages.find((d) => d.code === preferences.dosage);
  if (!treatment || !frequency || !dosage)
    throw new AppError('VISIT_STEP', 'Please choose your treatment first.');
  return { treatment, dosage, frequency };
}

/** The gateway key of a visit order's authorisation. */
const authorizationKey = (orderId: number) => `authorize:${orderId}`;

/**
 * Makes an authorised visit order a submitted visit, in one transaction with the ledger's record of
 * the authorisation: the order waits for review, the visit for its provider, the email is queued.
 * The request and the reconciler both finish a submission through here. False when the order is
 * gone (the attempt was undone): the caller releases the hold.
 */
async function completeSubmission(
  ctx: AppContext,
  visitId: number,
  orderId: number,
  authorizationId: string,
): Promise<boolean> {
  const visit = await q.selectVisit(ctx.db, visitId);
  if (!visit) return false;
  const provider = await providerFor(ctx, visit.state ?? '');
  const user = await sessionUser(ctx, visit.customerId);
  const placed = await selectVisitOrder(ctx.db, orderId);
  // Submitted and acknowledged, or neither; a repeated submission queues no second email.
  const submitted = await ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    await settleCall(tx, authorizationKey(orderId), { ok: true, ref: authorizationId });
    await markAuthorized(tx.db, orderId, authorizationId, tx.clock.now().toISOString());
    if (
      !(await q.markSubmitted(
        trx,
        visitId,
        orderId,
        provider?.id ?? null,
        ctx.clock.now().toISOString(),
      ))
    )
      return false;
    await sendVisitReceived(tx, user, placed);
    return true;
  });
  if (submitted) {
    faultPoint(ctx.env, 'visit:after-commit');
    sendQueuedSoon(ctx);
  }
  const order = await selectVisitOrder(ctx.db, orderId);
  return order?.chargeId === authorizationId && order.paymentStatus !== 'pending';
}

/**
 * For the payment reconciler: settles a visit authorisation a crash left unanswered, by what the
 * gateway did. A hold that went through becomes the submitted visit (or is released when its order
 * is gone); one that failed or never arrived removes the pending order, so the patient can submit
 * again.
 */
export async function finishVisitAuthorization(ctx: AppContext, call: LedgerRow): Promise<void> {
  // The patient is still confirming the hold with their bank: theirs to finish until then.
  if (awaitingCustomer(ctx, call)) return;
  const orderId = call.orderId ?? 0;
  const record = await gatewayRecord(ctx, { idempotencyKey: call.idempotencyKey });
  if (record?.status === 'authorized' || record?.status === 'succeeded') {
    if (!(await completeSubmission(ctx, call.visitId ?? 0, orderId, record.id)))
      await releaseHold(ctx, orderId, record.id, record.amountCents);
    return;
  }
  await ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    await settleCall(tx, call.idempotencyKey, {
      ok: false,
      failure: record?.failureMessage ?? 'The authorisation never reached the gateway.',
    });
    await deletePendingOrder(tx.db, orderId);
  });
}

/** What the payment reconciler runs for the calls visits make (registered at start, app.ts). */
export const visitsFinishers: Finishers = {
  visit: finishVisitAuthorization,
  release_orphan: finishByAskingAgain,
};

/**
 * No program, answer or medicine in the email: it says only that a visit is waiting for review, and
 * (the acknowledgement California's automatic renewal law asks for) the amount held and how refills
 * renew and stop. The provider's decision is shown on the visit's order (Orders), so that is where
 * the link goes; their words (a decline's reason, any message) are in Messages.
 */
async function sendVisitReceived(
  ctx: AppContext,
  user: { first_name: string; email: string },
  order: { orderNumber: string; totalCents: number } | undefined,
): Promise<void> {
  const link = absoluteLink(ctx.env, order ? paths.order(order.orderNumber) : paths.orders);
  const amount = order ? formatCents(order.totalCents) : null;
  const lines = [
    `Hello ${user.first_name},`,
    'Thank you. We received your online visit, and a licensed provider will review it, usually within one business day.',
    `Your card has been authorised${amount ? ` for ${amount}` : ''} but will be charged only if your provider approves treatment. You will find their decision on the Orders page in your account, and anything they write to you in Messages.`,
    `If your treatment is approved with refills, ${amount ?? 'the same amount'} is charged to your card automatically each month, starting a month after approval, until the refills run out or you cancel. You can cancel any time on the Subscriptions page of your account, or by sending us a message.`,
  ];
  await queueEmail(ctx, {
    to: user.email,
    subject: 'We received your online visit',
    text: [...lines, '', `See your visit's order: ${link}`, '', ...emailSignature].join('\n'),
    html: emailHtml(
      lines,
      { href: link, label: "See your visit's order" },
      'Questions? Write to us any time from your account.',
    ),
  });
}
