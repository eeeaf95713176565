import crypto from 'node:crypto';
import type Stripe from 'stripe';
import {
  behaviourOf,
  brandOf,
  fingerprintOf,
  setupOutcome,
  testPaymentMethods,
  validateCard,
  type CardBehaviour,
  type Decline,
} from './fake-stripe-cards.ts';
import {
  allowOnly,
  boolean,
  FakeStripeError,
  integer,
  invalidParam,
  invalidRequest,
  mergeMetadata,
  nested,
  oneOf,
  requiredText,
  resourceMissing,
  text,
  textList,
  withDocUrl,
  type Params,
} from './fake-stripe-params.ts';

/** What the fake knows of a card beyond its PaymentMethod: its number's behaviour and history. */
export interface CardState {
  behaviour: CardBehaviour;
  /** Set up for off-session use by a SetupIntent or a payment with setup_future_usage. */
  setUpForOffSession: boolean;
  /** Used without a customer, or detached: Stripe refuses to use it again. */
  consumed: boolean;
}

/** The fake's whole state: Stripe's objects by id, its clock and its event log. */
export interface Bank {
  now: number;
  apiVersion: string;
  customers: Map<string, Stripe.Customer>;
  paymentMethods: Map<string, Stripe.PaymentMethod>;
  cards: Map<string, CardState>;
  setupIntents: Map<string, Stripe.SetupIntent>;
  paymentIntents: Map<string, Stripe.PaymentIntent>;
  charges: Map<string, Stripe.Charge>;
  refunds: Map<string, Stripe.Refund>;
  disputes: Map<string, Stripe.Dispute>;
  /** The API request being answered, named by the events it causes; null for the fake's own. */
  request: { id: string; idempotency_key: string | null } | null;
  emit(type: Stripe.Event.Type, object: object): void;
}

export function newId(prefix: string): string {
  return `${prefix}_${crypto.randomBytes(18).toString('base64url').replace(/[-_]/g, '').slice(0, 24)}`;
}

export function find<T>(map: Map<string, T>, kind: string, id: string, param = 'id'): T {
  const found = map.get(id);
  if (!found) throw resourceMissing(kind, id, param);
  return found;
}

const noAddress = {
  city: null,
  country: null,
  line1: null,
  line2: null,
  postal_code: null,
  state: null,
};

/** https://docs.stripe.com/api/customers/create */
export function createCustomer(bank: Bank, params: Params): Stripe.Customer {
  allowOnly(params, ['email', 'name', 'description', 'phone', 'metadata']);
  const customer: Stripe.Customer = {
    id: newId('cus'),
    object: 'customer',
    address: null,
    balance: 0,
    created: bank.now,
    currency: null,
    default_source: null,
    delinquent: false,
    description: text(params, 'description') ?? null,
    discount: null,
    email: text(params, 'email') ?? null,
    invoice_prefix: crypto.randomBytes(4).toString('hex').toUpperCase(),
    invoice_settings: {
      custom_fields: null,
      default_payment_method: null,
      footer: null,
      rendering_options: null,
    },
    livemode: false,
    metadata: mergeMetadata({}, params),
    name: text(params, 'name') ?? null,
    next_invoice_sequence: 1,
    phone: text(params, 'phone') ?? null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: null,
  };
  bank.customers.set(customer.id, customer);
  bank.emit('customer.created', customer);
  return customer;
}

function paymentMethodFor(
  bank: Bank,
  card: { number: string; expMonth: number; expYear: number },
  customer: string | null,
): Stripe.PaymentMethod {
  const brand = brandOf(card.number);
  const paymentMethod: Stripe.PaymentMethod = {
    id: newId('pm'),
    object: 'payment_method',
    allow_redisplay: 'unspecified',
    billing_details: { address: noAddress, email: null, name: null, phone: null, tax_id: null },
    card: {
      brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: null },
      country: 'US',
      display_brand: brand,
      exp_month: card.expMonth,
      exp_year: card.expYear,
      fingerprint: fingerprintOf(card.number),
      funding: 'credit',
      generated_from: null,
      last4: card.number.slice(-4),
      networks: { available: [brand], preferred: null },
      regulated_status: 'unregulated',
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: bank.now,
    customer,
    customer_account: null,
    livemode: false,
    metadata: {},
    type: 'card',
  };
  bank.paymentMethods.set(paymentMethod.id, paymentMethod);
  bank.cards.set(paymentMethod.id, {
    behaviour: behaviourOf(card.number),
    setUpForOffSession: false,
    consumed: false,
  });
  return paymentMethod;
}

/**
 * https://docs.stripe.com/api/payment_methods/create, as Stripe.js calls it with the card's
 * details: the details are checked (fake-stripe-cards.ts) and only brand, last 4 and expiry stay.
 */
export function createPaymentMethod(bank: Bank, params: Params): Stripe.PaymentMethod {
  allowOnly(params, ['type', 'card', 'billing_details', 'metadata']);
  if (requiredText(params, 'type') !== 'card') {
    throw invalidParam('This fake Stripe makes card PaymentMethods only.', 'type');
  }
  const card = nested(params, 'card');
  if (!card) throw invalidParam('Missing required param: card.', 'card', 'parameter_missing');
  const number = requiredText(card, 'number').replace(/\s/g, '');
  const expMonth = integer(card, 'exp_month');
  const expYear = integer(card, 'exp_year');
  if (expMonth === undefined) {
    throw invalidParam(
      'Missing required param: card[exp_month].',
      'card[exp_month]',
      'parameter_missing',
    );
  }
  if (expYear === undefined) {
    throw invalidParam(
      'Missing required param: card[exp_year].',
      'card[exp_year]',
      'parameter_missing',
    );
  }
  validateCard({ number, expMonth, expYear, cvc: text(card, 'cvc') }, bank.now);
  const paymentMethod = paymentMethodFor(
    bank,
    { number, expMonth, expYear: expYear < 100 ? 2000 + expYear : expYear },
    null,
  );
  paymentMethod.metadata = mergeMetadata({}, params);
  return paymentMethod;
}

/**
 * A PaymentMethod id as a request names it. Stripe's test ids (pm_card_visa…) make a fresh
 * PaymentMethod each time they are used, attached to the customer when one is given
 * (https://docs.stripe.com/testing, "Test code").
 */
export function usePaymentMethod(
  bank: Bank,
  id: string,
  customer: string | null,
  param = 'payment_method',
): Stripe.PaymentMethod {
  const testCard = testPaymentMethods[id];
  if (testCard) {
    const created = paymentMethodFor(
      bank,
      {
        number: testCard.number,
        expMonth: 12,
        expYear: new Date(bank.now * 1000).getUTCFullYear() + 3,
      },
      customer,
    );
    if (customer) bank.emit('payment_method.attached', created);
    return created;
  }
  const paymentMethod = find(bank.paymentMethods, 'payment_method', id, param);
  if (cardOf(bank, paymentMethod).consumed) {
    throw invalidRequest(
      'This PaymentMethod was previously used without being attached to a Customer or was detached from a Customer, and may not be used again.',
      { param },
    );
  }
  if (paymentMethod.customer !== null && paymentMethod.customer !== customer) {
    throw invalidRequest(
      customer === null
        ? 'The provided PaymentMethod was previously attached to a Customer. To use it, provide the customer it is attached to.'
        : `The provided PaymentMethod belongs to another Customer than ${customer}.`,
      { param },
    );
  }
  return paymentMethod;
}

export function cardOf(bank: Bank, paymentMethod: Stripe.PaymentMethod): CardState {
  const card = bank.cards.get(paymentMethod.id);
  if (!card) throw new Error(`The fake lost the card behind ${paymentMethod.id}`);
  return card;
}

export function declineError(decline: Decline, extra: Record<string, unknown>) {
  return new FakeStripeError(402, withDocUrl({ type: 'card_error', ...decline, ...extra }));
}

/**
 * https://docs.stripe.com/api/payment_methods/attach. Attaching checks the card as a $0
 * authorisation would, so the always-declined card is refused while 4000 0000 0000 0341 attaches
 * (https://docs.stripe.com/testing, "Declined payments").
 */
export function attachPaymentMethod(bank: Bank, id: string, params: Params): Stripe.PaymentMethod {
  allowOnly(params, ['customer']);
  const customer = find(bank.customers, 'customer', requiredText(params, 'customer'), 'customer');
  const paymentMethod = testPaymentMethods[id]
    ? usePaymentMethod(bank, id, null)
    : find(bank.paymentMethods, 'payment_method', id);
  if (paymentMethod.customer === customer.id) return paymentMethod;
  if (paymentMethod.customer !== null) {
    throw invalidRequest(
      'The payment method you provided has already been attached to a customer.',
    );
  }
  const card = cardOf(bank, paymentMethod);
  if (card.consumed) {
    throw invalidRequest(
      'This PaymentMethod was previously used without being attached to a Customer or was detached from a Customer, and may not be used again.',
    );
  }
  const outcome = setupOutcome(card.behaviour, true);
  if (typeof outcome === 'object') throw declineError(outcome, {});
  paymentMethod.customer = customer.id;
  bank.emit('payment_method.attached', paymentMethod);
  return paymentMethod;
}

/** https://docs.stripe.com/api/payment_methods/detach: a detached card cannot be used again. */
export function detachPaymentMethod(bank: Bank, id: string, params: Params): Stripe.PaymentMethod {
  allowOnly(params, []);
  const paymentMethod = find(bank.paymentMethods, 'payment_method', id);
  if (paymentMethod.customer === null) {
    throw invalidRequest(
      `The payment method you provided is not attached to a customer so detachment is impossible.`,
    );
  }
  paymentMethod.customer = null;
  cardOf(bank, paymentMethod).consumed = true;
  bank.emit('payment_method.detached', paymentMethod);
  return paymentMethod;
}

/**
 * Confirming with automatic payment methods (the default since API version 2023-08-16 when no
 * payment_method_types are given) needs a return_url, since some of those methods redirect
 * (https://docs.stripe.com/payments/payment-methods/integration-options, and the off-session
 * example of https://docs.stripe.com/payments/save-and-reuse, which passes one).
 */
export function requireReturnUrl(
  automatic: { enabled: boolean | null; allow_redirects?: string } | null,
  returnUrl: string | null,
): void {
  if (automatic?.enabled && automatic.allow_redirects !== 'never' && !returnUrl) {
    throw invalidRequest(
      "This PaymentIntent is configured to accept payment methods enabled in your Dashboard. Because some of these payment methods might redirect your customer off of your page, you must provide a `return_url`. If you don't want to accept redirect-based payment methods, set `automatic_payment_methods[enabled]` to `true` and `automatic_payment_methods[allow_redirects]` to `never` when creating Setup Intents and Payment Intents.",
    );
  }
}

export function automaticPaymentMethods(
  params: Params,
): { enabled: boolean; allow_redirects?: 'always' | 'never' } | null {
  const given = nested(params, 'automatic_payment_methods');
  if (given) {
    return {
      enabled: boolean(given, 'enabled') ?? false,
      allow_redirects: oneOf(given, 'allow_redirects', ['always', 'never'] as const) ?? 'always',
    };
  }
  return textList(params, 'payment_method_types')
    ? null
    : { enabled: true, allow_redirects: 'always' };
}
