import crypto from 'node:crypto';
import type Stripe from 'stripe';
import {
  automaticPaymentMethods,
  cardOf,
  declineError,
  find,
  newId,
  requireReturnUrl,
  usePaymentMethod,
  type Bank,
} from './fake-stripe-bank.ts';
import { paymentOutcome, type Decline } from './fake-stripe-cards.ts';
import { chargeFor } from './fake-stripe-charges.ts';
import {
  allowOnly,
  boolean,
  integer,
  invalidParam,
  invalidRequest,
  listPage,
  mergeMetadata,
  oneOf,
  requiredText,
  text,
  textList,
  type Params,
} from './fake-stripe-params.ts';

/**
 * PaymentIntents (https://docs.stripe.com/api/payment_intents), through the statuses of
 * https://docs.stripe.com/payments/paymentintents/lifecycle.
 */

type Status = Stripe.PaymentIntent.Status;

function unexpectedState(paymentIntent: Stripe.PaymentIntent, message: string) {
  return invalidRequest(message, {
    code: 'payment_intent_unexpected_state',
    payment_intent: structuredClone(paymentIntent),
  });
}

/** https://docs.stripe.com/api/payment_intents/create */
export function createPaymentIntent(bank: Bank, params: Params): Stripe.PaymentIntent {
  allowOnly(params, [
    'amount',
    'currency',
    'customer',
    'payment_method',
    'payment_method_types',
    'automatic_payment_methods',
    'confirm',
    'off_session',
    'capture_method',
    'metadata',
    'statement_descriptor_suffix',
    'description',
    'receipt_email',
    'setup_future_usage',
    'return_url',
  ]);
  const amount = integer(params, 'amount');
  if (amount === undefined)
    throw invalidParam('Missing required param: amount.', 'amount', 'parameter_missing');
  const currency = requiredText(params, 'currency').toLowerCase();
  // https://docs.stripe.com/currencies#minimum-and-maximum-charge-amounts
  if (amount < 50) {
    throw invalidParam(`Amount must be at least $0.50 ${currency}`, 'amount', 'amount_too_small');
  }
  const customer = text(params, 'customer') ?? null;
  if (customer) find(bank.customers, 'customer', customer, 'customer');
  const confirm = boolean(params, 'confirm') ?? false;
  if (params.off_session !== undefined && !confirm) {
    throw invalidParam(
      'The parameter off_session can only be used with confirm=true.',
      'off_session',
    );
  }
  const id = newId('pi');
  const paymentIntent: Stripe.PaymentIntent = {
    id,
    object: 'payment_intent',
    allowed_payment_method_types: null,
    amount,
    amount_capturable: 0,
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: automaticPaymentMethods(params),
    canceled_at: null,
    cancellation_reason: null,
    // automatic_async is the default capture method (https://docs.stripe.com/api/payment_intents/create#create_payment_intent-capture_method).
    capture_method:
      oneOf(params, 'capture_method', ['automatic', 'automatic_async', 'manual'] as const) ??
      'automatic_async',
    client_secret: `${id}_secret_${crypto.randomBytes(12).toString('hex')}`,
    confirmation_method: 'automatic',
    created: bank.now,
    currency,
    customer,
    customer_account: null,
    description: text(params, 'description') ?? null,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    managed_payments: null,
    metadata: mergeMetadata({}, params),
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: {
      card: {
        installments: null,
        mandate_options: null,
        network: null,
        request_three_d_secure: 'automatic',
      },
    },
    payment_method_types: textList(params, 'payment_method_types') ?? ['card'],
    payment_record: null,
    processing: null,
    receipt_email: text(params, 'receipt_email') ?? null,
    review: null,
    setup_future_usage:
      oneOf(params, 'setup_future_usage', ['off_session', 'on_session'] as const) ?? null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: text(params, 'statement_descriptor_suffix') ?? null,
    status: 'requires_payment_method',
    transfer_data: null,
    transfer_group: null,
  };
  const paymentMethod = text(params, 'payment_method');
  if (paymentMethod) {
    paymentIntent.payment_method = usePaymentMethod(bank, paymentMethod, customer).id;
    paymentIntent.status = 'requires_confirmation';
  }
  bank.paymentIntents.set(id, paymentIntent);
  bank.emit('payment_intent.created', paymentIntent);
  if (confirm) {
    const confirmation: Params = {};
    for (const name of ['off_session', 'return_url'] as const) {
      const value = params[name];
      if (value !== undefined) confirmation[name] = value;
    }
    return confirmPaymentIntent(bank, id, confirmation);
  }
  return paymentIntent;
}

/** https://docs.stripe.com/api/payment_intents/update */
export function updatePaymentIntent(bank: Bank, id: string, params: Params): Stripe.PaymentIntent {
  allowOnly(params, [
    'amount',
    'currency',
    'customer',
    'payment_method',
    'capture_method',
    'metadata',
    'description',
    'statement_descriptor_suffix',
    'receipt_email',
    'setup_future_usage',
  ]);
  const paymentIntent = find(bank.paymentIntents, 'payment_intent', id);
  const beforeConfirmation: Status[] = [
    'requires_payment_method',
    'requires_confirmation',
    'requires_action',
  ];
  const changesPayment = [
    'amount',
    'currency',
    'customer',
    'payment_method',
    'capture_method',
  ].some((name) => params[name] !== undefined);
  if (changesPayment && !beforeConfirmation.includes(paymentIntent.status)) {
    throw unexpectedState(
      paymentIntent,
      `You cannot update this PaymentIntent because it has a status of ${paymentIntent.status}.`,
    );
  }
  const amount = integer(params, 'amount');
  if (amount !== undefined) paymentIntent.amount = amount;
  paymentIntent.currency = text(params, 'currency')?.toLowerCase() ?? paymentIntent.currency;
  const customer = text(params, 'customer');
  if (customer) paymentIntent.customer = find(bank.customers, 'customer', customer, 'customer').id;
  paymentIntent.capture_method =
    oneOf(params, 'capture_method', ['automatic', 'automatic_async', 'manual'] as const) ??
    paymentIntent.capture_method;
  paymentIntent.metadata = mergeMetadata(paymentIntent.metadata, params);
  paymentIntent.description = text(params, 'description') ?? paymentIntent.description;
  paymentIntent.statement_descriptor_suffix =
    text(params, 'statement_descriptor_suffix') ?? paymentIntent.statement_descriptor_suffix;
  paymentIntent.receipt_email = text(params, 'receipt_email') ?? paymentIntent.receipt_email;
  paymentIntent.setup_future_usage =
    oneOf(params, 'setup_future_usage', ['off_session', 'on_session'] as const) ??
    paymentIntent.setup_future_usage;
  const paymentMethod = text(params, 'payment_method');
  if (paymentMethod) {
    const owner = typeof paymentIntent.customer === 'string' ? paymentIntent.customer : null;
    paymentIntent.payment_method = usePaymentMethod(bank, paymentMethod, owner).id;
    paymentIntent.status = 'requires_confirmation';
    paymentIntent.next_action = null;
  }
  return paymentIntent;
}

/**
 * https://docs.stripe.com/api/payment_intents/confirm and the statuses of
 * https://docs.stripe.com/payments/paymentintents/lifecycle. A decline answers 402 with the
 * PaymentIntent in the error and leaves it in requires_payment_method with last_payment_error
 * (https://docs.stripe.com/error-handling, "Payment errors").
 */
export function confirmPaymentIntent(bank: Bank, id: string, params: Params): Stripe.PaymentIntent {
  allowOnly(params, ['payment_method', 'off_session', 'return_url', 'setup_future_usage']);
  const paymentIntent = find(bank.paymentIntents, 'payment_intent', id);
  if (
    paymentIntent.status !== 'requires_payment_method' &&
    paymentIntent.status !== 'requires_confirmation'
  ) {
    throw unexpectedState(
      paymentIntent,
      `You cannot confirm this PaymentIntent because it has a status of ${paymentIntent.status}.`,
    );
  }
  const customer = typeof paymentIntent.customer === 'string' ? paymentIntent.customer : null;
  const paymentMethodId = text(params, 'payment_method');
  if (paymentMethodId)
    paymentIntent.payment_method = usePaymentMethod(bank, paymentMethodId, customer).id;
  paymentIntent.setup_future_usage =
    oneOf(params, 'setup_future_usage', ['off_session', 'on_session'] as const) ??
    paymentIntent.setup_future_usage;
  if (typeof paymentIntent.payment_method !== 'string') {
    throw unexpectedState(
      paymentIntent,
      "You cannot confirm this PaymentIntent because it's missing a payment method. To confirm the PaymentIntent with " +
        `${customer ?? 'a customer'}, specify a payment method attached to this customer along with the customer ID.`,
    );
  }
  // off_session also takes one_off and recurring (https://docs.stripe.com/api/payment_intents/confirm#confirm_payment_intent-off_session).
  const offSession = ['true', 'one_off', 'recurring'].includes(
    text(params, 'off_session') ?? 'false',
  );
  requireReturnUrl(paymentIntent.automatic_payment_methods, text(params, 'return_url') ?? null);
  paymentIntent.last_payment_error = null;
  attemptPayment(bank, paymentIntent, { offSession, authenticated: false });
  const failure = paymentIntent.last_payment_error as Stripe.PaymentIntent.LastPaymentError | null;
  if (paymentIntent.status === 'requires_payment_method' && failure) {
    throw declineError(
      {
        code: failure.code,
        decline_code: failure.decline_code,
        message: failure.message,
      } as Decline,
      {
        charge: failure.charge,
        payment_method: failure.payment_method,
        payment_intent: structuredClone(paymentIntent),
      },
    );
  }
  return paymentIntent;
}

/** Sends the payment to the card's issuer and moves the PaymentIntent by its answer. */
function attemptPayment(
  bank: Bank,
  paymentIntent: Stripe.PaymentIntent,
  attempt: { offSession: boolean; authenticated: boolean },
): void {
  const paymentMethod = find(
    bank.paymentMethods,
    'payment_method',
    String(paymentIntent.payment_method),
  );
  const card = cardOf(bank, paymentMethod);
  const outcome = paymentOutcome(card.behaviour, {
    ...attempt,
    setUpForOffSession: card.setUpForOffSession,
  });
  if (outcome === 'needs_authentication') {
    // https://docs.stripe.com/payments/3d-secure/authentication-flow: Stripe.js handles use_stripe_sdk.
    paymentIntent.status = 'requires_action';
    paymentIntent.next_action = {
      type: 'use_stripe_sdk',
      use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: '', source: newId('src') },
    };
    bank.emit('payment_intent.requires_action', paymentIntent);
    return;
  }
  paymentIntent.next_action = null;
  const charge = chargeFor(bank, paymentIntent, paymentMethod, outcome);
  paymentIntent.latest_charge = charge.id;
  if (outcome !== 'succeeds') {
    paymentIntent.status = 'requires_payment_method';
    paymentIntent.last_payment_error = {
      type: 'card_error',
      code: outcome.code,
      decline_code: outcome.decline_code,
      message: outcome.message,
      charge: charge.id,
      doc_url: `https://stripe.com/docs/error-codes/${outcome.code.replaceAll('_', '-')}`,
      payment_method: structuredClone(paymentMethod),
    };
    bank.emit('charge.failed', charge);
    bank.emit('payment_intent.payment_failed', paymentIntent);
    return;
  }
  if (paymentIntent.customer === null) card.consumed = true;
  else if (paymentIntent.setup_future_usage !== null) {
    card.setUpForOffSession =
      card.setUpForOffSession || paymentIntent.setup_future_usage === 'off_session';
    if (paymentMethod.customer === null) {
      paymentMethod.customer = String(paymentIntent.customer);
      bank.emit('payment_method.attached', paymentMethod);
    }
  }
  bank.emit('charge.succeeded', charge);
  if (paymentIntent.capture_method === 'manual') {
    paymentIntent.status = 'requires_capture';
    paymentIntent.amount_capturable = paymentIntent.amount;
    bank.emit('payment_intent.amount_capturable_updated', paymentIntent);
  } else {
    paymentIntent.status = 'succeeded';
    paymentIntent.amount_received = paymentIntent.amount;
    bank.emit('payment_intent.succeeded', paymentIntent);
  }
}

/**
 * What the customer does on the 3-D Secure page. Success sends the payment to the issuer; failure
 * leaves payment_intent_authentication_failure (https://docs.stripe.com/error-codes).
 */
export function authenticatePaymentIntent(
  bank: Bank,
  paymentIntent: Stripe.PaymentIntent,
  succeed: boolean,
): void {
  if (succeed) {
    attemptPayment(bank, paymentIntent, { offSession: false, authenticated: true });
    return;
  }
  const paymentMethod = find(
    bank.paymentMethods,
    'payment_method',
    String(paymentIntent.payment_method),
  );
  paymentIntent.status = 'requires_payment_method';
  paymentIntent.next_action = null;
  paymentIntent.last_payment_error = {
    type: 'invalid_request_error',
    code: 'payment_intent_authentication_failure',
    message:
      'The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.',
    doc_url: 'https://stripe.com/docs/error-codes/payment-intent-authentication-failure',
    payment_method: structuredClone(paymentMethod),
  };
  bank.emit('payment_intent.payment_failed', paymentIntent);
}

/** https://docs.stripe.com/api/payment_intents/capture: once, for at most what was authorised. */
export function capturePaymentIntent(bank: Bank, id: string, params: Params): Stripe.PaymentIntent {
  allowOnly(params, ['amount_to_capture', 'metadata', 'statement_descriptor_suffix']);
  const paymentIntent = find(bank.paymentIntents, 'payment_intent', id);
  if (paymentIntent.status !== 'requires_capture') {
    throw unexpectedState(
      paymentIntent,
      `This PaymentIntent could not be captured because it has a status of ${paymentIntent.status}. Only a PaymentIntent with one of the following statuses may be captured: requires_capture.`,
    );
  }
  const amount = integer(params, 'amount_to_capture') ?? paymentIntent.amount_capturable;
  if (amount > paymentIntent.amount_capturable || amount < 1) {
    throw invalidParam(
      `The amount to capture must be a positive integer less than or equal to the amount capturable (${paymentIntent.amount_capturable}).`,
      'amount_to_capture',
    );
  }
  const charge = find(bank.charges, 'charge', String(paymentIntent.latest_charge));
  charge.captured = true;
  charge.amount_captured = amount;
  charge.balance_transaction = newId('txn');
  paymentIntent.metadata = mergeMetadata(paymentIntent.metadata, params);
  paymentIntent.status = 'succeeded';
  paymentIntent.amount_received = amount;
  paymentIntent.amount_capturable = 0;
  bank.emit('charge.captured', charge);
  bank.emit('payment_intent.succeeded', paymentIntent);
  return paymentIntent;
}

/**
 * https://docs.stripe.com/api/payment_intents/cancel. Cancelling an authorised payment releases the
 * hold; the charge stays uncaptured and is marked refunded in full.
 */
export function cancelPaymentIntent(
  bank: Bank,
  id: string,
  params: Params,
  automatic = false,
): Stripe.PaymentIntent {
  allowOnly(params, ['cancellation_reason']);
  const paymentIntent = find(bank.paymentIntents, 'payment_intent', id);
  const reason = automatic
    ? 'automatic'
    : (oneOf(params, 'cancellation_reason', [
        'abandoned',
        'duplicate',
        'fraudulent',
        'requested_by_customer',
      ] as const) ?? null);
  if (paymentIntent.status === 'succeeded' || paymentIntent.status === 'canceled') {
    throw unexpectedState(
      paymentIntent,
      `You cannot cancel this PaymentIntent because it has a status of ${paymentIntent.status}. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.`,
    );
  }
  if (paymentIntent.status === 'requires_capture') {
    const charge = find(bank.charges, 'charge', String(paymentIntent.latest_charge));
    charge.refunded = true;
    charge.amount_refunded = charge.amount;
    // https://docs.stripe.com/api/events/types#event_types-charge.expired
    if (automatic) bank.emit('charge.expired', charge);
  }
  paymentIntent.status = 'canceled';
  paymentIntent.cancellation_reason = reason;
  paymentIntent.canceled_at = bank.now;
  paymentIntent.amount_capturable = 0;
  paymentIntent.next_action = null;
  bank.emit('payment_intent.canceled', paymentIntent);
  return paymentIntent;
}

/** Holds whose authorisation window has passed are cancelled, as Stripe does when they expire. */
export function expireHolds(bank: Bank): void {
  for (const paymentIntent of bank.paymentIntents.values()) {
    if (paymentIntent.status !== 'requires_capture') continue;
    const charge = bank.charges.get(String(paymentIntent.latest_charge));
    const captureBefore = charge?.payment_method_details?.card?.capture_before ?? Infinity;
    if (captureBefore <= bank.now) cancelPaymentIntent(bank, paymentIntent.id, {}, true);
  }
}

/** https://docs.stripe.com/api/payment_intents/list: newest first, optionally one customer's. */
export function listPaymentIntents(
  bank: Bank,
  params: Params,
): Stripe.ApiList<Stripe.PaymentIntent> {
  allowOnly(params, ['customer', 'limit', 'starting_after']);
  const customer = text(params, 'customer');
  const matching = [...bank.paymentIntents.values()].filter(
    (paymentIntent) => !customer || paymentIntent.customer === customer,
  );
  return listPage(matching, params, '/v1/payment_intents');
}
