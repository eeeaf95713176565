import crypto from 'node:crypto';
import type Stripe from 'stripe';
import {
  automaticPaymentMethods,
  cardOf,
  find,
  newId,
  requireReturnUrl,
  usePaymentMethod,
  type Bank,
} from './fake-stripe-bank.ts';
import { setupOutcome } from './fake-stripe-cards.ts';
import {
  allowOnly,
  boolean,
  FakeStripeError,
  invalidRequest,
  mergeMetadata,
  oneOf,
  text,
  textList,
  withDocUrl,
  type Params,
} from './fake-stripe-params.ts';

/**
 * SetupIntents (https://docs.stripe.com/api/setup_intents): saving a card for later payments,
 * through the statuses of https://docs.stripe.com/payments/setupintents/lifecycle.
 */

/** https://docs.stripe.com/api/setup_intents/create */
export function createSetupIntent(bank: Bank, params: Params): Stripe.SetupIntent {
  allowOnly(params, [
    'customer',
    'payment_method',
    'confirm',
    'usage',
    'payment_method_types',
    'automatic_payment_methods',
    'metadata',
    'return_url',
    'description',
  ]);
  const customerId = text(params, 'customer') ?? null;
  if (customerId) find(bank.customers, 'customer', customerId, 'customer');
  const automatic = automaticPaymentMethods(params);
  const id = newId('seti');
  const setupIntent: Stripe.SetupIntent = {
    id,
    object: 'setup_intent',
    allowed_payment_method_types: null,
    application: null,
    automatic_payment_methods: automatic,
    cancellation_reason: null,
    client_secret: `${id}_secret_${crypto.randomBytes(12).toString('hex')}`,
    created: bank.now,
    customer: customerId,
    description: text(params, 'description') ?? null,
    excluded_payment_method_types: null,
    flow_directions: null,
    last_setup_error: null,
    latest_attempt: null,
    livemode: false,
    mandate: null,
    metadata: mergeMetadata({}, params),
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: {
      card: { mandate_options: null, network: null, request_three_d_secure: 'automatic' },
    },
    payment_method_types: textList(params, 'payment_method_types') ?? ['card'],
    single_use_mandate: null,
    status: 'requires_payment_method',
    usage: oneOf(params, 'usage', ['off_session', 'on_session'] as const) ?? 'off_session',
  };
  const paymentMethodId = text(params, 'payment_method');
  if (paymentMethodId) {
    setupIntent.payment_method = usePaymentMethod(bank, paymentMethodId, customerId).id;
    setupIntent.status = 'requires_confirmation';
  }
  bank.setupIntents.set(id, setupIntent);
  bank.emit('setup_intent.created', setupIntent);
  if (boolean(params, 'confirm')) {
    return confirmSetupIntent(bank, id, { return_url: text(params, 'return_url') ?? '' }, true);
  }
  return setupIntent;
}

/**
 * https://docs.stripe.com/api/setup_intents/confirm: the card is verified; it succeeds, asks for
 * 3-D Secure (requires_action, next_action use_stripe_sdk) or fails back to
 * requires_payment_method with last_setup_error (https://docs.stripe.com/payments/setupintents/lifecycle).
 */
export function confirmSetupIntent(
  bank: Bank,
  id: string,
  params: Params,
  fromCreate = false,
): Stripe.SetupIntent {
  if (!fromCreate) allowOnly(params, ['payment_method', 'return_url']);
  const setupIntent = find(bank.setupIntents, 'setup_intent', id);
  if (
    setupIntent.status !== 'requires_payment_method' &&
    setupIntent.status !== 'requires_confirmation'
  ) {
    throw invalidRequest(
      `You cannot confirm this SetupIntent because it has a status of ${setupIntent.status}.`,
      { code: 'setup_intent_unexpected_state', setup_intent: structuredClone(setupIntent) },
    );
  }
  const customerId = typeof setupIntent.customer === 'string' ? setupIntent.customer : null;
  const paymentMethodId = text(params, 'payment_method');
  if (paymentMethodId)
    setupIntent.payment_method = usePaymentMethod(bank, paymentMethodId, customerId).id;
  if (typeof setupIntent.payment_method !== 'string') {
    throw invalidRequest(
      "You cannot confirm this SetupIntent because it's missing a payment method. Update the SetupIntent with a payment method and then confirm it again.",
      { code: 'setup_intent_unexpected_state', setup_intent: structuredClone(setupIntent) },
    );
  }
  requireReturnUrl(setupIntent.automatic_payment_methods, text(params, 'return_url') || null);
  setupIntent.last_setup_error = null;
  settleSetupIntent(bank, setupIntent, false);
  // settleSetupIntent may have set it again: the compiler only saw the reset above.
  const error = setupIntent.last_setup_error as Stripe.SetupIntent.LastSetupError | null;
  if (setupIntent.status === 'requires_payment_method' && error) {
    throw new FakeStripeError(
      402,
      withDocUrl({
        type: 'card_error',
        code: error.code ?? 'card_declined',
        decline_code: error.decline_code ?? 'generic_decline',
        message: error.message ?? 'Your card was declined.',
        setup_intent: structuredClone(setupIntent),
      }),
    );
  }
  return setupIntent;
}

/** Moves a confirmed SetupIntent on by what its card answers; also the end of 3-D Secure. */
export function settleSetupIntent(
  bank: Bank,
  setupIntent: Stripe.SetupIntent,
  authenticated: boolean,
): void {
  const paymentMethod = find(
    bank.paymentMethods,
    'payment_method',
    String(setupIntent.payment_method),
  );
  const card = cardOf(bank, paymentMethod);
  const outcome = setupOutcome(card.behaviour, authenticated);
  setupIntent.latest_attempt = newId('setatt');
  if (outcome === 'needs_authentication') {
    setupIntent.status = 'requires_action';
    setupIntent.next_action = {
      type: 'use_stripe_sdk',
      use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: '', source: newId('src') },
    };
    bank.emit('setup_intent.requires_action', setupIntent);
    return;
  }
  setupIntent.next_action = null;
  if (outcome === 'succeeds') {
    setupIntent.status = 'succeeded';
    if (setupIntent.usage === 'off_session') card.setUpForOffSession = true;
    if (typeof setupIntent.customer === 'string' && paymentMethod.customer === null) {
      paymentMethod.customer = setupIntent.customer;
      bank.emit('payment_method.attached', paymentMethod);
    }
    bank.emit('setup_intent.succeeded', setupIntent);
    return;
  }
  setupIntent.status = 'requires_payment_method';
  setupIntent.last_setup_error = {
    type: 'card_error',
    code: outcome.code,
    decline_code: outcome.decline_code,
    message: outcome.message,
    doc_url: `https://stripe.com/docs/error-codes/${outcome.code.replaceAll('_', '-')}`,
    payment_method: structuredClone(paymentMethod),
  };
  bank.emit('setup_intent.setup_failed', setupIntent);
}

/**
 * What the customer does on the 3-D Secure page of a SetupIntent. A failure leaves
 * setup_intent_authentication_failure (https://docs.stripe.com/error-codes).
 */
export function authenticateSetupIntent(
  bank: Bank,
  setupIntent: Stripe.SetupIntent,
  succeed: boolean,
): void {
  if (succeed) {
    settleSetupIntent(bank, setupIntent, true);
    return;
  }
  setupIntent.status = 'requires_payment_method';
  setupIntent.next_action = null;
  setupIntent.last_setup_error = {
    type: 'invalid_request_error',
    code: 'setup_intent_authentication_failure',
    message:
      'The latest attempt to set up the payment method has failed because authentication failed.',
    doc_url: 'https://stripe.com/docs/error-codes/setup-intent-authentication-failure',
  };
  bank.emit('setup_intent.setup_failed', setupIntent);
}

/** https://docs.stripe.com/api/setup_intents/cancel */
export function cancelSetupIntent(bank: Bank, id: string, params: Params): Stripe.SetupIntent {
  allowOnly(params, ['cancellation_reason']);
  const setupIntent = find(bank.setupIntents, 'setup_intent', id);
  const reason =
    oneOf(params, 'cancellation_reason', [
      'abandoned',
      'duplicate',
      'requested_by_customer',
    ] as const) ?? null;
  if (setupIntent.status === 'succeeded' || setupIntent.status === 'canceled') {
    throw invalidRequest(
      `You cannot cancel this SetupIntent because it has a status of ${setupIntent.status}. Only a SetupIntent with one of the following statuses may be canceled: requires_payment_method, requires_confirmation, requires_action, processing.`,
      { code: 'setup_intent_unexpected_state', setup_intent: structuredClone(setupIntent) },
    );
  }
  setupIntent.status = 'canceled';
  setupIntent.cancellation_reason = reason;
  setupIntent.next_action = null;
  bank.emit('setup_intent.canceled', setupIntent);
  return setupIntent;
}
