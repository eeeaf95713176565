import Stripe from 'stripe';
import type {
  AuthenticationAction,
  AuthorizeResult,
  CardField,
  ChargeRequest,
  ChargeResult,
  GatewayRecord,
  PaymentGateway,
  PaymentMethodInput,
  RefundResult,
  TokenizeResult,
} from './payments.ts';

/**
 * The Stripe gateway (issue 28) behind our own `PaymentGateway`: Stripe's types stay in this file.
 *
 * - A customer per account, each card saved with a SetupIntent for off-session use; the token we
 *   keep is `<customer id>:<payment method id>`, so a later charge names both.
 * - A charge or authorisation is one PaymentIntent, confirmed at once, made with the ledger's
 *   idempotency key (which Stripe keeps 24 hours) and carrying it in `metadata.idempotency_key`
 *   (kept for good), which is how `find` answers the reconciler days later. Its id is the charge,
 *   the authorisation and the payment refunds are made against.
 * - A card's refusal is an answer (`ok: false`); anything else Stripe or the network does is thrown,
 *   so a ledger call is never settled as declined when we do not know what happened: it stays
 *   started and the reconciler asks again.
 * - An unconfirmed 3-D Secure payment has moved no money: it answers `authentication_required` with
 *   what the browser must confirm, and `find` calls it failed, with that action, until it is
 *   confirmed (then succeeded) or released.
 */

export interface StripeGatewayOptions {
  secretKey: string;
  /** Another host for the API, such as http://127.0.0.1:4242: tests and local fakes only. */
  apiBase?: string;
  /** Appended to the account's statement descriptor on every card payment; neutral words only. */
  statementDescriptorSuffix?: string;
}

const METADATA_KEY = 'idempotency_key';
const AUTHENTICATION_MESSAGE = 'Your bank needs you to confirm this payment.';
const DECLINED_MESSAGE = 'Your card was declined.';
const CAPTURE_FAILED_MESSAGE = 'The authorisation has expired or was released.';
const OVER_REFUND_MESSAGE = 'That is more than the payment left to refund.';
const NO_PAYMENT_MESSAGE = 'There is no payment to refund.';
const CARD_GONE_MESSAGE = 'Your saved card can no longer be used. Please add your card again.';
const NOTHING_TO_CONFIRM_MESSAGE = 'There is no payment waiting for your confirmation.';
/**
 * Stripe's search is fed asynchronously: "under normal operating conditions, data is searchable in
 * less than a minute … up to an hour behind during outages" (API reference, Search PaymentIntents).
 * A key the search does not know is looked for among the PaymentIntents made this long before the
 * newest, which the list API shows at once.
 */
const SEARCH_LAG_SECONDS = 2 * 60 * 60;
/**
 * Each request waits up to 15 s and is tried three times (the SDK retries connection failures, 409s
 * and 5xx with the same idempotency key, which Stripe answers with the first outcome): under 50 s in
 * all, inside the 60 s the reconciler leaves a call before it asks what became of it.
 */
const TIMEOUT_MS = 15_000;
const NETWORK_RETRIES = 2;

/**
 * A Stripe call that did not give a payment's outcome: the network, Stripe itself, or a request it
 * refused. Its message names the call, Stripe's error type and code and the request id (to find it
 * in Stripe's dashboard), never Stripe's own text, which can quote ids or a masked key.
 */
export class StripeGatewayError extends Error {
  constructor(
    readonly operation: string,
    readonly type: string,
    readonly code: string | null,
    readonly statusCode: number | null,
    readonly requestId: string | null,
  ) {
    const detail = [
      code,
      statusCode === null ? null : `HTTP ${statusCode}`,
      requestId === null ? null : `request ${requestId}`,
    ].filter((part) => part !== null);
    super(
      `Stripe ${operation} did not answer with an outcome: ${type}${detail.length > 0 ? ` (${detail.join(', ')})` : ''}.`,
    );
    this.name = 'StripeGatewayError';
  }
}

/** The Stripe customer a token of this gateway belongs to; null for any other token. */
export function stripeCustomerOf(token: string): string | null {
  return parseToken(token)?.customer ?? null;
}

/**
 * The SDK as the gateway uses it, for what must speak Stripe's own language: the webhook endpoint
 * verifies events with it and reads the objects they name afresh.
 */
export function createStripeClient(options: Pick<StripeGatewayOptions, 'secretKey' | 'apiBase'>) {
  return new Stripe(options.secretKey, {
    ...connectionOf(options.apiBase),
    maxNetworkRetries: NETWORK_RETRIES,
    timeout: TIMEOUT_MS,
  });
}

export function createStripeGateway(options: StripeGatewayOptions): PaymentGateway {
  const stripe = createStripeClient(options);
  const descriptor = options.statementDescriptorSuffix
    ? { statement_descriptor_suffix: options.statementDescriptorSuffix }
    : {};
  const dashboard = dashboardOf(options.secretKey);

  /** A PaymentIntent as it stands now; null when Stripe has none by that id. */
  async function currentIntent(id: string): Promise<Stripe.PaymentIntent | null> {
    try {
      return await stripe.paymentIntents.retrieve(id);
    } catch (error) {
      if (isMissing(error)) return null;
      throw wrap('retrieve payment', error);
    }
  }

  /**
   * A PaymentIntent with its latest charge, whose outcome carries Radar's rating; null when Stripe
   * has none by that id.
   */
  async function intentWithCharge(id: string): Promise<Stripe.PaymentIntent | null> {
    try {
      return await stripe.paymentIntents.retrieve(id, { expand: ['latest_charge'] });
    } catch (error) {
      if (isMissing(error)) return null;
      throw wrap('retrieve payment', error);
    }
  }

  /**
   * What a PaymentIntent's state means for the caller. One waiting for 3-D Secure is read again
   * first: an answer replayed for its idempotency key is the state it was in then, and the customer
   * may have confirmed it since.
   */
  async function settle(intent: Stripe.PaymentIntent): Promise<Outcome> {
    const outcome = outcomeOf(intent);
    if (outcome.kind !== 'action') return outcome;
    const now = await currentIntent(intent.id);
    return now ? outcomeOf(now) : outcome;
  }

  /** One PaymentIntent made and confirmed with the saved card, automatic or held for capture. */
  async function pay(
    request: ChargeRequest,
    captureMethod: 'automatic' | 'manual',
  ): Promise<Outcome> {
    const saved = parseToken(request.token);
    if (!saved)
      return { kind: 'failed', code: 'payment_method_missing', message: CARD_GONE_MESSAGE };
    const offSession = request.offSession ?? true;
    let intent: Stripe.PaymentIntent;
    try {
      intent = await stripe.paymentIntents.create(
        {
          amount: request.amountCents,
          currency: 'usd',
          customer: saved.customer,
          payment_method: saved.paymentMethod,
          confirm: true,
          off_session: offSession,
          capture_method: captureMethod,
          // Cards and wallets only: nothing that leaves the page for a bank's site, so no return
          // URL. On the page, 3-D Secure is completed by Stripe.js with the client secret
          // (handleNextAction), as Stripe's "upgrade to handle actions" guide does.
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          metadata: { [METADATA_KEY]: request.idempotencyKey },
          ...descriptor,
        },
        { idempotencyKey: request.idempotencyKey },
      );
    } catch (error) {
      // A decline still made a PaymentIntent (requires_payment_method, with the last error), which
      // says why, and for authentication_required off-session, what the customer can confirm.
      if (error instanceof Stripe.errors.StripeCardError) {
        if (error.payment_intent) return settle(error.payment_intent);
        return { kind: 'failed', code: codeOf(error), message: error.message || DECLINED_MESSAGE };
      }
      // The saved card or customer is gone (detached, deleted): refused before anything was made.
      if (
        error instanceof Stripe.errors.StripeInvalidRequestError &&
        (error.param === 'payment_method' || error.param === 'customer')
      )
        return {
          kind: 'failed',
          code: error.code ?? 'payment_method_missing',
          message: CARD_GONE_MESSAGE,
        };
      throw wrap(captureMethod === 'manual' ? 'authorize' : 'charge', error);
    }
    return settle(intent);
  }

  /** The refund of this PaymentIntent made with this key, however long ago. */
  async function refundWithKey(
    paymentIntent: string,
    idempotencyKey: string,
  ): Promise<Stripe.Refund | null> {
    try {
      for await (const refund of stripe.refunds.list({ payment_intent: paymentIntent, limit: 100 }))
        if (refund.metadata?.[METADATA_KEY] === idempotencyKey) return refund;
    } catch (error) {
      if (isMissing(error)) return null;
      throw wrap('list refunds', error);
    }
    return null;
  }

  /**
   * The PaymentIntent made with this key: Stripe's search first, then (for one too new for the
   * search) the newest PaymentIntents. A key asked again after Stripe forgot it (24 hours) can have
   * made a second one; the one that moved money is the answer, else the newest.
   */
  async function intentWithKey(idempotencyKey: string): Promise<Stripe.PaymentIntent | null> {
    let found: Stripe.PaymentIntent[];
    try {
      const query = `metadata['${METADATA_KEY}']:'${escapeSearch(idempotencyKey)}'`;
      found = (await stripe.paymentIntents.search({ query, limit: 100 })).data;
      if (found.length === 0) found = await recentIntentsWithKey(idempotencyKey);
    } catch (error) {
      throw wrap('search payments', error);
    }
    const moved = found.filter((intent) =>
      ['succeeded', 'requires_capture', 'processing'].includes(intent.status),
    );
    const candidates = moved.length > 0 ? moved : found;
    return candidates.reduce<Stripe.PaymentIntent | null>(
      (newest, intent) => (newest && newest.created >= intent.created ? newest : intent),
      null,
    );
  }

  /** By Stripe's own clock (the newest PaymentIntent's time), so ours does not have to agree. */
  async function recentIntentsWithKey(idempotencyKey: string): Promise<Stripe.PaymentIntent[]> {
    const matches: Stripe.PaymentIntent[] = [];
    let newest: number | null = null;
    for await (const intent of stripe.paymentIntents.list({ limit: 100 })) {
      newest ??= intent.created;
      if (intent.created < newest - SEARCH_LAG_SECONDS) break;
      if (intent.metadata?.[METADATA_KEY] === idempotencyKey) matches.push(intent);
    }
    return matches;
  }

  return {
    cardEntry: 'element',
    async tokenize(card) {
      if (!('paymentMethodId' in card)) {
        // Card numbers never reach our server in Stripe mode (PCI SAQ A): the card is entered in
        // Stripe's Payment Element, which gives us a payment method's id.
        return {
          ok: false,
          code: 'card_details_refused',
          message: 'Card details are taken only in the secure card form.',
          field: 'ccnum',
        };
      }
      return saveCard(stripe, card);
    },

    async charge(request): Promise<ChargeResult> {
      return chargeResultOf(await pay(request, 'automatic'));
    },

    async authorize(request): Promise<AuthorizeResult> {
      const outcome = await pay(request, 'manual');
      return outcome.kind === 'succeeded' || outcome.kind === 'authorized'
        ? { ok: true, authorizationId: outcome.id }
        : failureOf(outcome);
    },

    async confirmWithCustomer({ intentId }): Promise<ChargeResult> {
      const intent = await currentIntent(intentId);
      if (!intent)
        return { ok: false, code: 'payment_intent_missing', message: NOTHING_TO_CONFIRM_MESSAGE };
      // Confirmed since (the customer completed 3-D Secure), or still waiting for them: as it is.
      if (intent.status !== 'requires_payment_method') {
        const outcome = outcomeOf(intent);
        return outcome.kind === 'succeeded' || outcome.kind === 'authorized'
          ? { ok: true, chargeId: outcome.id }
          : failureOf(outcome);
      }
      // Refused off-session: Stripe took the card off the intent and kept it in the last error.
      // Confirmed again with it, the customer present, so the bank may ask them (Stripe's
      // "charge a saved card: recover from authentication_required" flow).
      const method = idOf(intent.last_payment_error?.payment_method ?? null);
      if (!method) return { ok: false, code: 'payment_method_missing', message: CARD_GONE_MESSAGE };
      try {
        return chargeResultOf(
          await settle(
            await stripe.paymentIntents.confirm(intentId, {
              payment_method: method,
              off_session: false,
            }),
          ),
        );
      } catch (error) {
        if (error instanceof Stripe.errors.StripeCardError && error.payment_intent)
          return chargeResultOf(await settle(error.payment_intent));
        throw wrap('confirm', error);
      }
    },

    async capture({ authorizationId }): Promise<ChargeResult> {
      const captureFailed = {
        ok: false as const,
        code: 'capture_failed',
        message: CAPTURE_FAILED_MESSAGE,
      };
      let captured: Stripe.PaymentIntent | null = null;
      let refusal: unknown = null;
      try {
        captured = await stripe.paymentIntents.capture(authorizationId);
      } catch (error) {
        if (
          !(error instanceof Stripe.errors.StripeInvalidRequestError) &&
          !(error instanceof Stripe.errors.StripeCardError)
        )
          throw wrap('capture', error);
        refusal = error;
      }
      // Refused: already captured (the same answer again), or no longer held (released, or
      // expired: Stripe cancels an uncaptured PaymentIntent when its authorisation lapses).
      const intent = captured ?? (await currentIntent(authorizationId));
      if (intent?.status === 'succeeded') return { ok: true, chargeId: intent.id };
      if (intent?.status === 'processing') throw pendingError('capture');
      if (
        intent?.status === 'requires_capture' &&
        refusal !== null &&
        codeOf(refusal) !== 'charge_expired_for_capture'
      )
        throw wrap('capture', refusal);
      return captureFailed;
    },

    async release({ authorizationId }) {
      try {
        await stripe.paymentIntents.cancel(authorizationId);
      } catch (error) {
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError))
          throw wrap('release', error);
        // Refused: already cancelled (done) or already captured (left as it is; `find` says so).
        const intent = await currentIntent(authorizationId);
        if (intent && intent.status !== 'canceled' && intent.status !== 'succeeded')
          throw wrap('release', error);
      }
    },

    async refund(request): Promise<RefundResult> {
      // Stripe forgets an idempotency key after 24 hours; the refund's metadata does not. A refund
      // asked again later (a reconciler finishing it days on) finds the one already made.
      const existing = await refundWithKey(request.chargeId, request.idempotencyKey);
      if (existing) return refundResultOf(existing);
      try {
        const refund = await stripe.refunds.create(
          {
            payment_intent: request.chargeId,
            amount: request.amountCents,
            metadata: { [METADATA_KEY]: request.idempotencyKey },
          },
          { idempotencyKey: request.idempotencyKey },
        );
        return refundResultOf(refund);
      } catch (error) {
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError))
          throw wrap('refund', error);
        // Refused: read the payment to say why in our words (nothing taken, or too little left).
        const intent = await stripe.paymentIntents
          .retrieve(request.chargeId, { expand: ['latest_charge'] })
          .catch((retrieveError: unknown) => {
            if (isMissing(retrieveError)) return null;
            throw wrap('retrieve payment', retrieveError);
          });
        if (intent?.status !== 'succeeded') return { ok: false, message: NO_PAYMENT_MESSAGE };
        const charge = intent.latest_charge;
        const left =
          charge && typeof charge === 'object'
            ? charge.amount_captured - charge.amount_refunded
            : intent.amount_received;
        if (request.amountCents > left) return { ok: false, message: OVER_REFUND_MESSAGE };
        throw wrap('refund', error);
      }
    },

    async find(query) {
      if ('id' in query) {
        if (query.id.startsWith('pi_')) {
          const intent = await intentWithCharge(query.id);
          return intent ? recordOfIntent(intent, dashboard) : null;
        }
        if (query.id.startsWith('re_') || query.id.startsWith('pyr_')) {
          try {
            return recordOfRefund(await stripe.refunds.retrieve(query.id));
          } catch (error) {
            if (isMissing(error)) return null;
            throw wrap('retrieve refund', error);
          }
        }
        // No call of ours answers with any other kind of id.
        return null;
      }
      // Stripe cannot search refunds: a refund is found among those of the payment it was made on.
      if (query.sourceRef) {
        const refund = await refundWithKey(query.sourceRef, query.idempotencyKey);
        if (refund) return recordOfRefund(refund);
      }
      const intent = await intentWithKey(query.idempotencyKey);
      return intent ? recordOfIntent(intent, dashboard) : null;
    },
  };
}

// --- Saving a card --------------------------------------------------------------------------------

/**
 * Saves the payment method to the account's customer (made now, with the email, when it has none)
 * with a SetupIntent for off-session use, so renewals can charge it without the customer. The bank
 * may ask for 3-D Secure here: the answer says what the browser must confirm, and the call made
 * again with `setupIntentId` reads how that ended.
 */
async function saveCard(stripe: Stripe, input: PaymentMethodInput): Promise<TokenizeResult> {
  let customer = input.customerRef ?? null;
  let setup: Stripe.SetupIntent;
  try {
    if (input.setupIntentId) {
      setup = await stripe.setupIntents.retrieve(input.setupIntentId, {
        expand: ['payment_method'],
      });
      // Only a saving made for the account's own customer is finished. (Its payment method is
      // not compared with the one named: Stripe's test ids, pm_card_visa…, make a new one.)
      if (!customer || idOf(setup.customer) !== customer || idOf(setup.payment_method) === null)
        return cardFailure(
          'setup_intent_mismatch',
          'That card confirmation is not for this account.',
        );
    } else {
      customer ??= (await stripe.customers.create(input.email ? { email: input.email } : {})).id;
      setup = await stripe.setupIntents.create({
        customer,
        payment_method: input.paymentMethodId,
        confirm: true,
        usage: 'off_session',
        // The customer is at the page: Stripe.js completes any 3-D Secure there.
        automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
        expand: ['payment_method'],
      });
    }
  } catch (error) {
    if (error instanceof Stripe.errors.StripeCardError) {
      if (error.setup_intent && codeOf(error) === 'authentication_required')
        return setupActionOf(error.setup_intent, customer);
      return {
        ...cardFailure(codeOf(error), error.message || DECLINED_MESSAGE),
        ...(customer ? { customerRef: customer } : {}),
      };
    }
    if (
      error instanceof Stripe.errors.StripeInvalidRequestError &&
      error.param === 'payment_method'
    )
      return cardFailure(error.code ?? 'payment_method_invalid', CARD_GONE_MESSAGE);
    // A confirmation Stripe has no SetupIntent for is not this account's either.
    if (input.setupIntentId && isMissing(error))
      return cardFailure(
        'setup_intent_mismatch',
        'That card confirmation is not for this account.',
      );
    throw wrap('save card', error);
  }
  switch (setup.status) {
    case 'succeeded':
      break;
    case 'requires_action':
      return setupActionOf(setup, customer);
    case 'requires_payment_method': {
      const last = setup.last_setup_error;
      return {
        ...cardFailure(
          last?.decline_code ?? last?.code ?? 'card_declined',
          last?.message ?? DECLINED_MESSAGE,
        ),
        ...(customer ? { customerRef: customer } : {}),
      };
    }
    default:
      return cardFailure('setup_incomplete', 'Your card could not be saved. Please try again.');
  }
  const method =
    typeof setup.payment_method === 'string'
      ? await stripe.paymentMethods.retrieve(setup.payment_method).catch((error: unknown) => {
          throw wrap('retrieve payment method', error);
        })
      : setup.payment_method;
  const card = method?.card;
  if (!method || !card) return cardFailure('payment_method_unsupported', 'Please pay with a card.');
  return {
    ok: true,
    token: `${customer}:${method.id}`,
    customerRef: customer,
    brand: brandOf(card.brand),
    last4: card.last4,
    expMonth: card.exp_month,
    expYear: card.exp_year,
  };
}

function setupActionOf(setup: Stripe.SetupIntent, customer: string | null): TokenizeResult {
  if (!setup.client_secret)
    return cardFailure('setup_incomplete', 'Your card could not be saved. Please try again.');
  return {
    ok: false,
    code: 'authentication_required',
    message: AUTHENTICATION_MESSAGE,
    field: 'ccnum',
    action: { intentId: setup.id, clientSecret: setup.client_secret },
    ...(customer ? { customerRef: customer } : {}),
  };
}

function cardFailure(code: string, message: string) {
  return { ok: false as const, code, message, field: fieldOf(code) };
}

/** Which of the card form's fields a refusal is about. */
function fieldOf(code: string): CardField {
  if (code === 'incorrect_cvc' || code === 'invalid_cvc') return 'cccvv';
  if (code === 'expired_card' || code === 'invalid_expiry_month' || code === 'invalid_expiry_year')
    return 'ccexp';
  return 'ccnum';
}

/** The brand as our card summaries (and the simulator) write it. */
function brandOf(brand: string): string {
  switch (brand) {
    case 'visa':
      return 'Visa';
    case 'mastercard':
      return 'Mastercard';
    case 'amex':
      return 'American Express';
    case 'discover':
      return 'Discover';
    default:
      return 'Card';
  }
}

// --- PaymentIntents in our terms ------------------------------------------------------------------

type Outcome =
  | { kind: 'succeeded'; id: string }
  | { kind: 'authorized'; id: string }
  | { kind: 'failed'; code: string; message: string }
  | { kind: 'action'; action: AuthenticationAction };

/**
 * What a PaymentIntent's state means. Processing (not expected for cards) is not yet an outcome:
 * it is thrown, so the call stays open until Stripe settles it.
 */
function outcomeOf(intent: Stripe.PaymentIntent): Outcome {
  switch (intent.status) {
    case 'succeeded':
      return { kind: 'succeeded', id: intent.id };
    case 'requires_capture':
      return { kind: 'authorized', id: intent.id };
    case 'processing':
      throw pendingError('payment');
    case 'canceled':
      return {
        kind: 'failed',
        code: 'payment_intent_canceled',
        message: 'The payment was cancelled.',
      };
    default: {
      const last = intent.last_payment_error;
      const code = last?.decline_code ?? last?.code ?? null;
      // On the page the bank's request leaves the intent waiting (requires_action); off-session
      // Stripe declines it with authentication_required. Either way the customer can confirm it.
      if (
        (intent.status === 'requires_action' || code === 'authentication_required') &&
        intent.client_secret
      )
        return {
          kind: 'action',
          action: { intentId: intent.id, clientSecret: intent.client_secret },
        };
      return {
        kind: 'failed',
        code: code ?? 'payment_incomplete',
        message: last?.message ?? (last ? DECLINED_MESSAGE : 'The payment was not completed.'),
      };
    }
  }
}

function chargeResultOf(outcome: Outcome): ChargeResult {
  return outcome.kind === 'succeeded' || outcome.kind === 'authorized'
    ? { ok: true, chargeId: outcome.id }
    : failureOf(outcome);
}

function failureOf(outcome: Exclude<Outcome, { kind: 'succeeded' | 'authorized' }>) {
  return outcome.kind === 'action'
    ? {
        ok: false as const,
        code: 'authentication_required',
        message: AUTHENTICATION_MESSAGE,
        action: outcome.action,
      }
    : { ok: false as const, code: outcome.code, message: outcome.message };
}

/**
 * A PaymentIntent as the reconciler reads it. A manual one is an authorisation (held, captured,
 * or released: cancelled by us or expired); a payment still waiting for 3-D Secure has moved no
 * money and is failed, with the action that could still complete it. Staff also see its page in
 * Stripe's Dashboard and, when its latest charge was read with it, Radar's rating of that charge.
 */
function recordOfIntent(intent: Stripe.PaymentIntent, dashboard: string): GatewayRecord {
  const kind = intent.capture_method === 'manual' ? 'authorization' : 'charge';
  const riskLevel = riskLevelOf(intent);
  const base = {
    id: intent.id,
    kind,
    amountCents: intent.amount,
    failureMessage: null,
    dashboardUrl: `${dashboard}/payments/${intent.id}`,
    ...(riskLevel ? { riskLevel } : {}),
  } as const;
  const outcome = outcomeOf(intent);
  switch (outcome.kind) {
    case 'succeeded':
      return { ...base, status: 'succeeded', amountCents: intent.amount_received || intent.amount };
    case 'authorized':
      return { ...base, status: 'authorized' };
    case 'action':
      return {
        ...base,
        status: 'failed',
        failureMessage: AUTHENTICATION_MESSAGE,
        action: outcome.action,
      };
    case 'failed':
      return kind === 'authorization' && intent.status === 'canceled'
        ? { ...base, status: 'released' }
        : { ...base, status: 'failed', failureMessage: outcome.message };
  }
}

type RiskLevel = NonNullable<GatewayRecord['riskLevel']>;

const RISK_LEVELS = new Set<string>([
  'normal',
  'elevated',
  'highest',
  'not_assessed',
  'unknown',
] satisfies RiskLevel[]);

const isRiskLevel = (level: string): level is RiskLevel => RISK_LEVELS.has(level);

/**
 * Radar's rating of the payment's latest charge (`outcome.risk_level`): normal, elevated or
 * highest; not_assessed where Radar did not look, unknown where it could not. A level Stripe adds
 * later reads as unknown. None before a charge was attempted, or when the charge was not read.
 */
function riskLevelOf(intent: Stripe.PaymentIntent): RiskLevel | null {
  const charge = intent.latest_charge;
  const level = charge && typeof charge === 'object' ? charge.outcome?.risk_level : undefined;
  if (!level) return null;
  return isRiskLevel(level) ? level : 'unknown';
}

/** A refund still pending at the bank is counted as made: only a failed or cancelled one is not. */
function recordOfRefund(refund: Stripe.Refund): GatewayRecord {
  const failed = refund.status === 'failed' || refund.status === 'canceled';
  return {
    id: refund.id,
    kind: 'refund',
    status: failed ? 'failed' : 'succeeded',
    amountCents: refund.amount,
    failureMessage: failed ? 'The refund failed.' : null,
  };
}

function refundResultOf(refund: Stripe.Refund): RefundResult {
  return refund.status === 'failed' || refund.status === 'canceled'
    ? { ok: false, message: 'The refund failed.' }
    : { ok: true, refundId: refund.id };
}

// --- Plumbing -------------------------------------------------------------------------------------

function parseToken(token: string): { customer: string; paymentMethod: string } | null {
  const match = /^(cus_\w+):(\w+)$/.exec(token);
  return match?.[1] && match[2] ? { customer: match[1], paymentMethod: match[2] } : null;
}

function idOf(value: string | { id: string } | null): string | null {
  return typeof value === 'string' ? value : (value?.id ?? null);
}

/** The decline's reason when the bank gave one (insufficient_funds), else Stripe's code. */
function codeOf(error: unknown): string {
  if (!(error instanceof Stripe.errors.StripeError)) return 'card_declined';
  return error.decline_code ?? error.code ?? 'card_declined';
}

function isMissing(error: unknown): boolean {
  return (
    error instanceof Stripe.errors.StripeInvalidRequestError &&
    (error.code === 'resource_missing' || error.statusCode === 404)
  );
}

/**
 * Stripe's errors become ours, without Stripe's text. Anything else (a mistake in this file) is
 * thrown as it is: it carries no card data, and its own message is what finds it.
 */
function wrap(operation: string, error: unknown): unknown {
  if (!(error instanceof Stripe.errors.StripeError)) return error;
  return new StripeGatewayError(
    operation,
    error.type,
    error.code ?? null,
    error.statusCode ?? null,
    error.requestId ?? null,
  );
}

function pendingError(operation: string): StripeGatewayError {
  return new StripeGatewayError(operation, 'StillProcessing', 'processing', null, null);
}

/** Search strings are quoted with ' and escape it (and \) with a backslash. */
function escapeSearch(value: string): string {
  return value.replace(/[\\']/g, (character) => `\\${character}`);
}

/**
 * Stripe's Dashboard, where a payment's page is `<dashboard>/payments/<PaymentIntent id>`; a test
 * key's objects are under /test/ (keys: https://docs.stripe.com/keys, sk_test_ and rk_test_).
 */
function dashboardOf(secretKey: string): string {
  return /^[sr]k_test_/.test(secretKey)
    ? 'https://dashboard.stripe.com/test'
    : 'https://dashboard.stripe.com';
}

/** `apiBase` as the SDK's host, port and protocol (its path is always /v1/). */
function connectionOf(apiBase: string | undefined): Partial<Stripe.StripeConfig> {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error('The Stripe API base must be an http or https URL.');
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol };
}
