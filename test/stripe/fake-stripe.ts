import crypto from 'node:crypto';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import Stripe from 'stripe';
import {
  attachPaymentMethod,
  createCustomer,
  createPaymentMethod,
  detachPaymentMethod,
  find,
  newId,
  usePaymentMethod,
  type Bank,
} from './fake-stripe-bank.ts';
import { testPaymentMethods } from './fake-stripe-cards.ts';
import { closeDispute, earlyFraudWarning, openDispute } from './fake-stripe-disputes.ts';
import {
  allowOnly,
  FakeStripeError,
  integer,
  parseForm,
  requiredText,
  searchFilter,
  textList,
  type Params,
} from './fake-stripe-params.ts';
import {
  authenticatePaymentIntent,
  cancelPaymentIntent,
  capturePaymentIntent,
  confirmPaymentIntent,
  createPaymentIntent,
  listPaymentIntents,
  expireHolds,
  updatePaymentIntent,
} from './fake-stripe-payments.ts';
import { deliverWebhooks } from './fake-stripe-webhooks.ts';
import { expand } from './fake-stripe-expand.ts';
import { registerStripeJs } from './fake-stripe-js.ts';
import { checkPublishableRequest, publishableView } from './fake-stripe-publishable.ts';
import { createRefund, listRefunds } from './fake-stripe-refunds.ts';
import {
  authenticateSetupIntent,
  cancelSetupIntent,
  confirmSetupIntent,
  createSetupIntent,
} from './fake-stripe-setup-intents.ts';

/**
 * A fake of the part of Stripe's REST API (https://docs.stripe.com/api) our gateway uses, for tests
 * on a machine that cannot reach Stripe: customers, card PaymentMethods, SetupIntents,
 * PaymentIntents, refunds, idempotency, search and signed webhooks, with Stripe's object shapes
 * (the `stripe` SDK's types) and error bodies. The real SDK talks to it over HTTP. Browsers get a
 * stand-in for Stripe.js at `${url}/v3/` (fake-stripe-js.ts), which calls the API with the
 * publishable key as Stripe.js does.
 */
export interface FakeStripe {
  url: string;
  host: string;
  port: number;
  /** The key the fake accepts; others get Stripe's 401. */
  secretKey: string;
  /** The key Stripe.js uses: card PaymentMethods, and intents named by their client secret. */
  publishableKey: string;
  webhookSecret: string;
  /** Where events are POSTed, signed; null stops delivery (events are still recorded). */
  setWebhookEndpoint(url: string | null): void;
  /** The fake's clock, unix seconds: `created` of every object and event. */
  now(): number;
  /** Moves the clock; holds past their 7-day window are canceled (cancellation_reason automatic). */
  advanceClock(seconds: number): Promise<void>;
  /** What the customer does on the 3-D Secure page, for a PaymentIntent or SetupIntent in requires_action. */
  completeAuthentication(id: string, outcome: 'succeed' | 'fail'): Promise<void>;
  /** A refund made in Stripe's Dashboard: charge.refunded and refund.created. */
  refundFromDashboard(paymentIntentId: string, amount?: number): Promise<string>;
  /** The card holder disputes the payment: charge.dispute.created, with evidence_details.due_by. */
  openDispute(paymentIntentId: string): Promise<string>;
  closeDispute(disputeId: string, status: 'won' | 'lost'): Promise<void>;
  earlyFraudWarning(paymentIntentId: string): Promise<void>;
  /** Every event made, in order. */
  events: Stripe.Event[];
  /** Every webhook POST and the status our server answered (0: no answer). */
  deliveries: { eventId: string; status: number }[];
  requests: { method: string; path: string; idempotencyKey: string | null; status: number }[];
  /**
   * Fault injection for crash tests: the next request matching does its work, then the connection
   * is cut after the answer's headers, before its body. Cut there, the SDK reports a
   * StripeConnectionError and does not retry (a connection closed before any answer it retries
   * once, with the same idempotency key, and would get the saved answer).
   */
  dropNextResponse(match: { method: string; path: RegExp }): void;
  /** Resolves once every event made so far has been delivered (or given up on). */
  whenDelivered(): Promise<void>;
  close(): Promise<void>;
}

/** Stripe keeps idempotency keys at least 24 hours (https://docs.stripe.com/api/idempotent_requests). */
const IDEMPOTENCY_SECONDS = 24 * 60 * 60;

interface SavedAnswer {
  /** The request the key was first used with: method, path and parameters in any order. */
  fingerprint: string;
  status: number;
  body: unknown;
  savedAt: number;
}

type Handler = (params: Params, id: string) => object;

export interface FakeStripeOptions {
  /** Where events are POSTed from the start (see `setWebhookEndpoint`). */
  webhookUrl?: string;
  /** The port to listen on, on 127.0.0.1; a free one when absent. */
  port?: number;
  /**
   * The signing secret of the webhook endpoint, for a server started apart from the fake with it
   * in its environment; a random one when absent. Shaped as Stripe's: `whsec_` and word characters.
   */
  webhookSecret?: string;
}

/** The app's environment for Stripe mode against this fake: its keys and its address. */
export function stripeEnv(fake: FakeStripe): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: fake.secretKey,
    STRIPE_PUBLISHABLE_KEY: fake.publishableKey,
    STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
    STRIPE_API_BASE: fake.url,
  };
}

export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const secretKey = 'sk_test_fake';
  const publishableKey = 'pk_test_fake';
  if (options.webhookSecret !== undefined && !/^whsec_[A-Za-z0-9_]+$/.test(options.webhookSecret))
    throw new Error("The fake Stripe's webhook secret must be whsec_ and letters, digits or _");
  const webhookSecret = options.webhookSecret ?? `whsec_${crypto.randomBytes(24).toString('hex')}`;
  const events: Stripe.Event[] = [];
  const deliveries: FakeStripe['deliveries'] = [];
  const requests: FakeStripe['requests'] = [];
  const saved = new Map<string, SavedAnswer>();
  const drops: { method: string; path: RegExp }[] = [];
  const webhooks = deliverWebhooks({ secret: webhookSecret, deliveries });
  webhooks.setEndpoint(options.webhookUrl ?? null);

  const bank: Bank = {
    now: Math.floor(Date.now() / 1000),
    apiVersion: Stripe.API_VERSION,
    customers: new Map(),
    paymentMethods: new Map(),
    cards: new Map(),
    setupIntents: new Map(),
    paymentIntents: new Map(),
    charges: new Map(),
    refunds: new Map(),
    disputes: new Map(),
    request: null,
    emit(type, object) {
      // Events carry a snapshot: the object as it was when the event happened.
      const event = {
        id: newId('evt'),
        object: 'event',
        api_version: bank.apiVersion,
        created: bank.now,
        data: { object: structuredClone(object) },
        livemode: false,
        pending_webhooks: webhooks.endpoint() ? 1 : 0,
        request: bank.request ?? { id: null, idempotency_key: null },
        type,
      } as unknown as Stripe.Event; // Stripe.Event is a union keyed by type; this builds any member.
      events.push(event);
      webhooks.enqueue(event);
    },
  };

  const retrieve =
    <T extends object>(map: Map<string, T>, kind: string): Handler =>
    (params, id) => {
      allowOnly(params, []);
      return find(map, kind, id);
    };
  /**
   * https://docs.stripe.com/search, newest first, a page at a time. Stripe indexes objects within
   * about a minute and warns against searching right after a write; the fake finds them at once.
   */
  const search =
    <T extends object>(map: Map<string, T>, url: string): Handler =>
    (params) => {
      allowOnly(params, ['query', 'limit', 'page']);
      const matches = searchFilter(requiredText(params, 'query'));
      const limit = integer(params, 'limit') ?? 10;
      const page =
        params.page === undefined
          ? 0
          : Number(Buffer.from(String(params.page), 'base64url').toString());
      const found = [...map.values()].filter(matches).reverse();
      const hasMore = found.length > page + limit;
      return {
        object: 'search_result',
        url,
        has_more: hasMore,
        next_page: hasMore ? Buffer.from(String(page + limit)).toString('base64url') : null,
        data: found.slice(page, page + limit),
      };
    };

  const routes: [method: 'GET' | 'POST', url: string, handle: Handler][] = [
    ['POST', '/v1/customers', (params) => createCustomer(bank, params)],
    ['GET', '/v1/customers/search', search(bank.customers, '/v1/customers/search')],
    ['GET', '/v1/customers/:id', retrieve(bank.customers, 'customer')],
    ['POST', '/v1/payment_methods', (params) => createPaymentMethod(bank, params)],
    [
      'GET',
      '/v1/payment_methods/:id',
      (params, id) => {
        allowOnly(params, []);
        return testPaymentMethods[id]
          ? usePaymentMethod(bank, id, null, 'id')
          : find(bank.paymentMethods, 'payment_method', id);
      },
    ],
    [
      'POST',
      '/v1/payment_methods/:id/attach',
      (params, id) => attachPaymentMethod(bank, id, params),
    ],
    [
      'POST',
      '/v1/payment_methods/:id/detach',
      (params, id) => detachPaymentMethod(bank, id, params),
    ],
    ['POST', '/v1/setup_intents', (params) => createSetupIntent(bank, params)],
    ['GET', '/v1/setup_intents/:id', retrieve(bank.setupIntents, 'setup_intent')],
    ['POST', '/v1/setup_intents/:id/confirm', (params, id) => confirmSetupIntent(bank, id, params)],
    ['POST', '/v1/setup_intents/:id/cancel', (params, id) => cancelSetupIntent(bank, id, params)],
    ['POST', '/v1/payment_intents', (params) => createPaymentIntent(bank, params)],
    ['GET', '/v1/payment_intents', (params) => listPaymentIntents(bank, params)],
    [
      'GET',
      '/v1/payment_intents/search',
      search(bank.paymentIntents, '/v1/payment_intents/search'),
    ],
    ['GET', '/v1/payment_intents/:id', retrieve(bank.paymentIntents, 'payment_intent')],
    ['POST', '/v1/payment_intents/:id', (params, id) => updatePaymentIntent(bank, id, params)],
    [
      'POST',
      '/v1/payment_intents/:id/confirm',
      (params, id) => confirmPaymentIntent(bank, id, params),
    ],
    [
      'POST',
      '/v1/payment_intents/:id/capture',
      (params, id) => capturePaymentIntent(bank, id, params),
    ],
    [
      'POST',
      '/v1/payment_intents/:id/cancel',
      (params, id) => cancelPaymentIntent(bank, id, params),
    ],
    ['GET', '/v1/charges/:id', retrieve(bank.charges, 'charge')],
    ['POST', '/v1/refunds', (params) => createRefund(bank, params)],
    ['GET', '/v1/refunds', (params) => listRefunds(bank, params)],
    ['GET', '/v1/refunds/:id', retrieve(bank.refunds, 'refund')],
    [
      'GET',
      '/v1/events/:id',
      (params, id) => {
        allowOnly(params, []);
        const event = events.find((candidate) => candidate.id === id);
        if (!event)
          throw new FakeStripeError(404, {
            type: 'invalid_request_error',
            code: 'resource_missing',
            message: `No such event: '${id}'`,
            param: 'id',
          });
        return event;
      },
    ],
  ];

  /**
   * https://docs.stripe.com/api/authentication: Bearer (as the SDK sends it) or Basic (as curl -u);
   * without either, the `key` parameter, as Stripe.js sends its publishable key.
   */
  function authenticate(header: string | undefined, params: Params): 'secret' | 'publishable' {
    const [scheme, value = ''] = (header ?? '').split(' ');
    const keyParam = params.key;
    delete params.key;
    const key =
      scheme === 'Bearer'
        ? value
        : scheme === 'Basic'
          ? Buffer.from(value, 'base64').toString().split(':')[0]
          : typeof keyParam === 'string'
            ? keyParam
            : '';
    if (key === secretKey) return 'secret';
    if (key === publishableKey) return 'publishable';
    const message = key
      ? `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(Math.max(key.length - 12, 0))}${key.slice(-4)}`
      : "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.";
    throw new FakeStripeError(401, { type: 'invalid_request_error', message }, false);
  }

  /** The same request, whatever order its parameters came in. */
  function canonical(value: unknown): string {
    if (typeof value !== 'object' || value === null) return JSON.stringify(value);
    if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }

  /**
   * Runs one API request under Stripe's idempotency rules: a POST's answer is saved under its
   * Idempotency-Key once the work began, and the same key with the same request replays it.
   */
  function execute(
    request: { method: 'GET' | 'POST'; path: string; params: Params; id: string },
    idempotencyKey: string | null,
    requestId: string,
    handle: Handler,
  ): { status: number; body: unknown; replayed: boolean } {
    const fingerprint = canonical([request.method, request.path, request.params]);
    const previous = idempotencyKey ? saved.get(idempotencyKey) : undefined;
    if (previous && previous.savedAt > bank.now - IDEMPOTENCY_SECONDS) {
      if (previous.fingerprint !== fingerprint) {
        // https://docs.stripe.com/api/idempotent_requests: a key names one request.
        return {
          status: 400,
          body: {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            },
          },
          replayed: false,
        };
      }
      return { status: previous.status, body: previous.body, replayed: true };
    }
    let answer: { status: number; body: unknown; save: boolean };
    bank.request = { id: requestId, idempotency_key: idempotencyKey };
    try {
      const result = handle(request.params, request.id);
      const body = expand(bank, result, textList(request.params, 'expand') ?? []);
      answer = { status: 200, body, save: true };
    } catch (error) {
      if (error instanceof FakeStripeError) {
        answer = { status: error.status, body: { error: error.body }, save: error.saved };
      } else {
        // A fault of the fake itself: said plainly, and marked not worth retrying.
        const message = `The fake Stripe failed: ${error instanceof Error ? error.message : String(error)}`;
        answer = { status: 500, body: { error: { type: 'api_error', message } }, save: false };
      }
    } finally {
      bank.request = null;
    }
    if (idempotencyKey && answer.save) {
      saved.set(idempotencyKey, {
        fingerprint,
        status: answer.status,
        body: answer.body,
        savedAt: bank.now,
      });
    }
    return { status: answer.status, body: answer.body, replayed: false };
  }

  function answer(
    method: 'GET' | 'POST',
    handle: Handler,
    request: FastifyRequest,
    reply: FastifyReply,
  ) {
    const [path = '', query = ''] = (request.raw.url ?? '').split('?');
    const headerKey = request.headers['idempotency-key'];
    // Stripe ignores the key on GET, which is idempotent already.
    const idempotencyKey = method === 'POST' && typeof headerKey === 'string' ? headerKey : null;
    const requestId = newId('req');
    let outcome: { status: number; body: unknown; replayed: boolean };
    let keyKind: 'secret' | 'publishable' = 'secret';
    try {
      const encoded =
        method === 'GET' ? query : typeof request.body === 'string' ? request.body : '';
      const params = parseForm(encoded);
      const id = (request.params as { id?: string }).id ?? '';
      keyKind = authenticate(request.headers.authorization, params);
      if (keyKind === 'publishable') {
        checkPublishableRequest(bank, `${method} ${request.routeOptions.url}`, id, params);
      }
      outcome = execute({ method, path, params, id }, idempotencyKey, requestId, handle);
    } catch (error) {
      if (!(error instanceof FakeStripeError)) throw error;
      outcome = { status: error.status, body: { error: error.body }, replayed: false };
    }
    const { status, replayed } = outcome;
    const body = keyKind === 'publishable' ? publishableView(outcome.body) : outcome.body;
    requests.push({ method, path, idempotencyKey, status });
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      // Stripe's API answers any origin, so that Stripe.js can call it from the merchant's page.
      'access-control-allow-origin': '*',
      ...(status >= 500 ? { 'stripe-should-retry': 'false' } : {}),
      'request-id': requestId,
      'stripe-version': String(request.headers['stripe-version'] ?? bank.apiVersion),
    };
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    if (replayed) headers['idempotent-replayed'] = 'true';
    const text = JSON.stringify(body, null, 2);
    const drop = drops.findIndex(
      (candidate) => candidate.method === method && candidate.path.test(path),
    );
    if (drop >= 0) {
      drops.splice(drop, 1);
      reply.hijack();
      reply.raw.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(text) });
      reply.raw.write(text.slice(0, Math.floor(text.length / 2)));
      reply.raw.socket?.end();
      return;
    }
    void reply.code(status).headers(headers).send(text);
  }

  const app = Fastify({ logger: false });
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, body),
  );
  for (const [method, url, handle] of routes) {
    app.route({ method, url, handler: (request, reply) => answer(method, handle, request, reply) });
  }
  registerStripeJs(app, {
    authenticate: (clientSecret, key, outcome) => {
      if (key !== publishableKey) {
        return {
          status: 401,
          body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } },
        };
      }
      const id = clientSecret.split('_secret_')[0] ?? '';
      const intent = id.startsWith('seti_')
        ? bank.setupIntents.get(id)
        : bank.paymentIntents.get(id);
      if (!intent || intent.client_secret !== clientSecret) {
        return {
          status: 404,
          body: { error: { type: 'invalid_request_error', message: 'No such intent.' } },
        };
      }
      if (intent.status !== 'requires_action') {
        return {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              message: `This authentication is over: the intent is ${intent.status}.`,
            },
          },
        };
      }
      bank.request = null;
      authenticateIntent(intent, outcome);
      return { status: 200, body: { id, status: intent.status } };
    },
  });
  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send({
      error: {
        type: 'invalid_request_error',
        message: `Unrecognized request URL (${request.method}: ${request.url.split('?')[0]}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
      },
    });
  });
  await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  const address = app.server.address();
  if (typeof address !== 'object' || address === null)
    throw new Error('The fake Stripe did not bind a port');

  /** The card holder's answer on the 3-D Secure page. */
  function authenticateIntent(
    intent: Stripe.PaymentIntent | Stripe.SetupIntent,
    outcome: 'succeed' | 'fail',
  ): void {
    if (intent.object === 'setup_intent')
      authenticateSetupIntent(bank, intent, outcome === 'succeed');
    else authenticatePaymentIntent(bank, intent, outcome === 'succeed');
  }

  /** The fake's own actions (Dashboard, card holder, issuer) run as Stripe's, outside any request. */
  async function act<T>(action: () => T): Promise<T> {
    bank.request = null;
    return action();
  }

  return {
    url: `http://127.0.0.1:${address.port}`,
    host: '127.0.0.1',
    port: address.port,
    secretKey,
    publishableKey,
    webhookSecret,
    setWebhookEndpoint: (url) => webhooks.setEndpoint(url),
    now: () => bank.now,
    advanceClock: (seconds) =>
      act(() => {
        bank.now += seconds;
        expireHolds(bank);
        for (const [key, answer] of saved) {
          if (answer.savedAt <= bank.now - IDEMPOTENCY_SECONDS) saved.delete(key);
        }
      }),
    completeAuthentication: (id, outcome) =>
      act(() => {
        const intent = id.startsWith('seti_')
          ? find(bank.setupIntents, 'setup_intent', id)
          : find(bank.paymentIntents, 'payment_intent', id);
        if (intent.status !== 'requires_action')
          throw new Error(`${id} is ${intent.status}, not requires_action`);
        authenticateIntent(intent, outcome);
      }),
    refundFromDashboard: (paymentIntentId, amount) =>
      act(() => {
        const params: Params = { payment_intent: paymentIntentId };
        if (amount !== undefined) params.amount = String(amount);
        return createRefund(bank, params).id;
      }),
    openDispute: (paymentIntentId) => act(() => openDispute(bank, paymentIntentId).id),
    closeDispute: (disputeId, status) => act(() => closeDispute(bank, disputeId, status)),
    earlyFraudWarning: (paymentIntentId) => act(() => earlyFraudWarning(bank, paymentIntentId)),
    events,
    deliveries,
    requests,
    dropNextResponse: (match) => {
      drops.push(match);
    },
    whenDelivered: () => webhooks.idle(),
    close: async () => {
      webhooks.stop();
      await app.close();
    },
  };
}
