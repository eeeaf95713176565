import type { Bank } from './fake-stripe-bank.ts';
import { FakeStripeError, type Params } from './fake-stripe-params.ts';

/**
 * What a publishable key may do (https://docs.stripe.com/keys#obtain-api-keys): what Stripe.js
 * does in the customer's browser. It makes PaymentMethods from card details, and reads and
 * confirms a PaymentIntent or SetupIntent named by its client secret
 * (https://docs.stripe.com/api/payment_intents/retrieve: "You can retrieve a PaymentIntent
 * client-side using a publishable key when the client_secret is in the query string"). Every other
 * endpoint needs the secret key.
 */
const publishableRoutes = new Map<string, 'payment_intent' | 'setup_intent' | null>([
  ['POST /v1/payment_methods', null],
  ['GET /v1/payment_intents/:id', 'payment_intent'],
  ['POST /v1/payment_intents/:id/confirm', 'payment_intent'],
  ['GET /v1/setup_intents/:id', 'setup_intent'],
  ['POST /v1/setup_intents/:id/confirm', 'setup_intent'],
]);

/**
 * Checks a request made with the publishable key, and takes its client_secret out of the
 * parameters (the endpoints' own checks do not expect it). An intent that does not exist is left
 * to the endpoint, which answers resource_missing.
 */
export function checkPublishableRequest(
  bank: Bank,
  route: string,
  id: string,
  params: Params,
): void {
  const intentKind = publishableRoutes.get(route);
  if (intentKind === undefined) {
    throw new FakeStripeError(
      401,
      {
        type: 'invalid_request_error',
        message:
          'This API call cannot be made with a publishable API key. Please use a secret API key. You can find a list of your API keys at https://dashboard.stripe.com/account/apikeys.',
      },
      false,
    );
  }
  if (intentKind === null) return;
  const clientSecret = params.client_secret;
  delete params.client_secret;
  const intent =
    intentKind === 'payment_intent' ? bank.paymentIntents.get(id) : bank.setupIntents.get(id);
  if (!intent) return;
  if (clientSecret === undefined) {
    throw new FakeStripeError(
      400,
      {
        type: 'invalid_request_error',
        code: 'parameter_missing',
        message: 'Missing required param: client_secret.',
        param: 'client_secret',
      },
      false,
    );
  }
  if (clientSecret !== intent.client_secret) {
    const name = intentKind === 'payment_intent' ? 'PaymentIntent' : 'SetupIntent';
    throw new FakeStripeError(
      400,
      {
        type: 'invalid_request_error',
        message: `The client_secret provided does not match any associated ${name} on this account. Ensure the publishable key used belongs to the same account that created the ${name}.`,
        param: 'client_secret',
      },
      false,
    );
  }
}

/**
 * The fields of an intent Stripe answers to a publishable key, those its API reference marks
 * "retrievable with publishable key": not the customer, metadata, amounts received or charges.
 */
const publishableFields: Record<string, readonly string[]> = {
  payment_intent: [
    'id',
    'object',
    'amount',
    'automatic_payment_methods',
    'canceled_at',
    'cancellation_reason',
    'capture_method',
    'client_secret',
    'confirmation_method',
    'created',
    'currency',
    'description',
    'excluded_payment_method_types',
    'last_payment_error',
    'livemode',
    'next_action',
    'payment_method',
    'payment_method_configuration_details',
    'payment_method_types',
    'processing',
    'receipt_email',
    'setup_future_usage',
    'shipping',
    'status',
  ],
  setup_intent: [
    'id',
    'object',
    'automatic_payment_methods',
    'cancellation_reason',
    'client_secret',
    'created',
    'description',
    'excluded_payment_method_types',
    'last_setup_error',
    'livemode',
    'next_action',
    'payment_method',
    'payment_method_configuration_details',
    'payment_method_types',
    'status',
    'usage',
  ],
};

function restricted(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const object = value as Record<string, unknown>;
  const fields = typeof object.object === 'string' ? publishableFields[object.object] : undefined;
  if (!fields) return value;
  return Object.fromEntries(fields.filter((field) => field in object).map((f) => [f, object[f]]));
}

/** An answer as a publishable key sees it: intents, alone or inside an error, cut down. */
export function publishableView(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) return body;
  const { error } = body as { error?: Record<string, unknown> };
  if (!error) return restricted(body);
  return {
    error: {
      ...error,
      ...(error.payment_intent ? { payment_intent: restricted(error.payment_intent) } : {}),
      ...(error.setup_intent ? { setup_intent: restricted(error.setup_intent) } : {}),
    },
  };
}
