import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';

/**
 * The payment gateway behind our own types (DESIGN §3). Card number and CVV pass through here once,
 * in memory, and never come back out: callers get a token, brand, last 4 and expiry.
 */
export interface CardInput {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

/**
 * A card entered in the processor's own fields in the browser (Stripe's Payment Element, issue 28):
 * our server sees only the payment method's id, never the card. `customerRef` is the processor's
 * customer of the account when it has one already; `email` names a new one.
 */
export interface PaymentMethodInput {
  paymentMethodId: string;
  customerRef?: string | null;
  email?: string | null;
  /**
   * The saving that asked for 3-D Secure (`action.intentId` of the failure that asked): after the
   * customer confirmed it in the browser, tokenize reads its outcome instead of starting another.
   */
  setupIntentId?: string | null;
}

export type CardField = 'ccnum' | 'ccexp' | 'cccvv';

/**
 * What the customer's bank asks before it lets the money move (3-D Secure): the browser confirms
 * the intent with the processor's script and its client secret, then the server asks again.
 */
export interface AuthenticationAction {
  intentId: string;
  clientSecret: string;
}

export type TokenizeResult =
  | {
      ok: true;
      token: string;
      brand: string;
      last4: string;
      expMonth: number;
      expYear: number;
      /** The processor's customer the card was saved on, to save the account's next card on. */
      customerRef?: string;
    }
  | {
      ok: false;
      code: string;
      message: string;
      field: CardField;
      /** With code `authentication_required`: what the browser must confirm. */
      action?: AuthenticationAction;
      /** The processor's customer the saving was made for, to name when it is asked again. */
      customerRef?: string;
    };

export type ChargeResult =
  | { ok: true; chargeId: string }
  | { ok: false; code: string; message: string; action?: AuthenticationAction };

export interface ChargeRequest {
  token: string;
  amountCents: number;
  /** The same key never charges twice: a retry gets the first answer back. */
  idempotencyKey: string;
  /**
   * Whether the customer is away (renewals, retries, approvals: the default) or at the page and
   * able to confirm a 3-D Secure request (checkout passes false).
   */
  offSession?: boolean;
}

export type RefundResult = { ok: true; refundId: string } | { ok: false; message: string };

export type AuthorizeResult =
  | { ok: true; authorizationId: string }
  | { ok: false; code: string; message: string; action?: AuthenticationAction };

/** The gateway's own record of a call, as its dashboard or API would show it. */
export interface GatewayRecord {
  id: string;
  kind: 'charge' | 'authorization' | 'refund';
  /**
   * charge: succeeded or failed; authorisation: authorized (held), succeeded (captured), released
   * or failed; refund: succeeded.
   */
  status: 'succeeded' | 'failed' | 'authorized' | 'released';
  amountCents: number;
  failureMessage: string | null;
  /**
   * On a failed record: the payment still waits for the customer's 3-D Secure confirmation. No
   * money has moved, but it can until the payment is released.
   */
  action?: AuthenticationAction;
  /**
   * How the processor's fraud screening rated the payment (Stripe Radar's `risk_level` of its
   * latest charge), when the processor rates payments and this one was put to it.
   */
  riskLevel?: 'normal' | 'elevated' | 'highest' | 'not_assessed' | 'unknown';
  /** The call's page in the processor's own dashboard, for staff; absent where there is none. */
  dashboardUrl?: string;
}

/**
 * A lookup by idempotency key. `sourceRef` names the payment a refund was made against (the
 * ledger's `sourceRef`): a processor that cannot search its refunds lists that payment's instead.
 */
export interface KeyQuery {
  idempotencyKey: string;
  sourceRef?: string | null;
}

export interface PaymentGateway {
  /**
   * Where the customer types a card: the spec's own fields, whose number passes through `tokenize`
   * (the simulator), or the processor's element in the browser, which gives a payment method.
   */
  readonly cardEntry: 'fields' | 'element';
  /**
   * Verifies a card (as a $0 authorisation would) and returns a reusable token. The simulator takes
   * the card itself; a processor with its own card fields takes the payment method they made.
   */
  tokenize(card: CardInput | PaymentMethodInput, now: Date): Promise<TokenizeResult>;
  charge(request: ChargeRequest, now: Date): Promise<ChargeResult>;
  /** Holds an amount on the card without taking it (a visit waiting for its provider). */
  authorize(request: ChargeRequest, now: Date): Promise<AuthorizeResult>;
  /**
   * A payment the bank refused while the customer was away, for want of authentication
   * (`authentication_required`), asked again now that they are at the page: it succeeds, fails, or
   * asks for 3-D Secure (`action`), which the browser confirms before this is asked once more.
   */
  confirmWithCustomer(request: { intentId: string }, now: Date): Promise<ChargeResult>;
  /** Takes a held amount, once: the same authorisation is never captured twice. */
  capture(request: { authorizationId: string }, now: Date): Promise<ChargeResult>;
  /** Releases a hold: nothing is charged. */
  release(request: { authorizationId: string }, now: Date): Promise<void>;
  /** Gives back part or all of a charge; the same key never refunds twice. */
  refund(
    request: { chargeId: string; amountCents: number; idempotencyKey: string },
    now: Date,
  ): Promise<RefundResult>;
  /**
   * What the gateway did with a call, looked up by the idempotency key it was made with (charges,
   * authorisations, refunds) or by the id it answered with; null when no such call arrived. The
   * reconciler asks this, never our own tables, what happened to a call a crash interrupted.
   */
  find(query: KeyQuery | { id: string }): Promise<GatewayRecord | null>;
}

export function cardBrand(number: string): string {
  if (/^4/.test(number)) return 'Visa';
  if (/^(5[1-5]|2(2[2-9][1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720))/.test(number)) return 'Mastercard';
  if (/^3[47]/.test(number)) return 'American Express';
  if (/^(6011|65|64[4-9])/.test(number)) return 'Discover';
  return 'Card';
}

export function luhnValid(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return number.length >= 12 && sum % 10 === 0;
}

/** A card is good through the last day of its expiry month. */
export function cardExpired(expMonth: number, expYear: number, now: Date): boolean {
  const firstDayAfter = Date.UTC(expYear, expMonth, 1);
  return now.getTime() >= firstDayAfter;
}

/**
 * How long a card hold lasts: Visa drops a customer-initiated authorisation after about 7 days (5
 * for a merchant-initiated one); Stripe cancels an uncaptured PaymentIntent then. The simulator
 * lets its holds lapse at the same age, so what happens to a visit decided late is the same on
 * both.
 */
export const HOLD_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The built-in simulator, with the test cards of DESIGN §3:
 * 4242 4242 4242 4242 succeeds; 4000 0000 0000 0002 is declined; 4000 0000 0000 9995 saves but is
 * declined for insufficient funds when charged; 4000 0000 0000 0341 saves but every charge fails.
 * The token says how its charges will behave, so any instance can honour it. Its charges ledger
 * (`simulator_charges`) stands in for the gateway's own records.
 */
export function createSimulatorGateway(db: Kysely<Database>): PaymentGateway {
  const outcomeOf = (token: string) => {
    const behaviour = /^sim_(ok|insufficient|fail)_/.exec(token)?.[1];
    return behaviour === 'ok'
      ? { ok: true as const }
      : {
          ok: false as const,
          message:
            behaviour === 'insufficient'
              ? 'Your card has insufficient funds.'
              : 'Your card was declined.',
        };
  };
  return {
    cardEntry: 'fields',
    // The simulator's banks never ask for authentication: there is never a payment to confirm.
    async confirmWithCustomer() {
      return {
        ok: false,
        code: 'nothing_to_confirm',
        message: 'There is no payment waiting for your confirmation.',
      };
    },
    async authorize(request, now) {
      const outcome = outcomeOf(request.token);
      await db
        .insertInto('simulator_charges')
        .values({
          id: `au_${crypto.randomBytes(12).toString('hex')}`,
          idempotency_key: request.idempotencyKey,
          token: request.token,
          amount_cents: request.amountCents,
          status: outcome.ok ? 'authorized' : 'failed',
          failure_message: outcome.ok ? null : outcome.message,
          created_at: now.toISOString(),
        })
        .onConflict((oc) => oc.column('idempotency_key').doNothing())
        .execute();
      const row = await db
        .selectFrom('simulator_charges')
        .select(['id', 'status', 'failure_message'])
        .where('idempotency_key', '=', request.idempotencyKey)
        .executeTakeFirstOrThrow();
      return row.status === 'failed'
        ? {
            ok: false,
            code: 'card_declined',
            message: row.failure_message ?? 'Your card was declined.',
          }
        : { ok: true, authorizationId: row.id };
    },
    async capture(request, now) {
      // A hold the card network has dropped by now cannot be taken: it is released, as a
      // processor cancels an authorisation that lapsed.
      const lapsedBefore = new Date(now.getTime() - HOLD_LIFETIME_MS).toISOString();
      await db
        .updateTable('simulator_charges')
        .set({ status: 'released' })
        .where('id', '=', request.authorizationId)
        .where('status', '=', 'authorized')
        .where('created_at', '<=', lapsedBefore)
        .execute();
      await db
        .updateTable('simulator_charges')
        .set({ status: 'succeeded' })
        .where('id', '=', request.authorizationId)
        .where('status', '=', 'authorized')
        .execute();
      const row = await db
        .selectFrom('simulator_charges')
        .select(['id', 'status'])
        .where('id', '=', request.authorizationId)
        .executeTakeFirst();
      return row?.status === 'succeeded'
        ? { ok: true, chargeId: row.id }
        : {
            ok: false,
            code: 'capture_failed',
            message: 'The authorisation has expired or was released.',
          };
    },
    async release(request) {
      await db
        .updateTable('simulator_charges')
        .set({ status: 'released' })
        .where('id', '=', request.authorizationId)
        .where('status', '=', 'authorized')
        .execute();
    },
    async refund(request, now) {
      // One transaction per refund: the key's row and the charge's running total move together,
      // and the total's conditional update refuses anything past the charge, whoever asks at once.
      return db.transaction().execute(async (trx) => {
        const id = `re_${crypto.randomBytes(12).toString('hex')}`;
        const inserted = await trx
          .insertInto('simulator_refunds')
          .values({
            id,
            idempotency_key: request.idempotencyKey,
            charge_id: request.chargeId,
            amount_cents: request.amountCents,
            created_at: now.toISOString(),
          })
          .onConflict((oc) => oc.column('idempotency_key').doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!inserted) {
          const existing = await trx
            .selectFrom('simulator_refunds')
            .select('id')
            .where('idempotency_key', '=', request.idempotencyKey)
            .executeTakeFirstOrThrow();
          return { ok: true as const, refundId: existing.id };
        }
        const counted = await trx
          .updateTable('simulator_charges')
          .set((eb) => ({ refunded_cents: eb('refunded_cents', '+', request.amountCents) }))
          .where('id', '=', request.chargeId)
          .where('status', '=', 'succeeded')
          .where((eb) =>
            eb(eb('refunded_cents', '+', request.amountCents), '<=', eb.ref('amount_cents')),
          )
          .executeTakeFirst();
        if (Number(counted.numUpdatedRows) === 1) return { ok: true as const, refundId: id };
        await trx.deleteFrom('simulator_refunds').where('id', '=', id).execute();
        const charge = await trx
          .selectFrom('simulator_charges')
          .select('status')
          .where('id', '=', request.chargeId)
          .executeTakeFirst();
        return {
          ok: false as const,
          message:
            charge?.status === 'succeeded'
              ? 'That is more than the payment left to refund.'
              : 'There is no payment to refund.',
        };
      });
    },
    async find(query) {
      const byKey = 'idempotencyKey' in query;
      const charge = await db
        .selectFrom('simulator_charges')
        .select(['id', 'status', 'amount_cents', 'failure_message'])
        .where(byKey ? 'idempotency_key' : 'id', '=', byKey ? query.idempotencyKey : query.id)
        .executeTakeFirst();
      if (charge)
        return {
          id: charge.id,
          kind: charge.id.startsWith('au_') ? 'authorization' : 'charge',
          status: charge.status,
          amountCents: charge.amount_cents,
          failureMessage: charge.failure_message,
        };
      const refund = await db
        .selectFrom('simulator_refunds')
        .select(['id', 'amount_cents'])
        .where(byKey ? 'idempotency_key' : 'id', '=', byKey ? query.idempotencyKey : query.id)
        .executeTakeFirst();
      return refund
        ? {
            id: refund.id,
            kind: 'refund',
            status: 'succeeded',
            amountCents: refund.amount_cents,
            failureMessage: null,
          }
        : null;
    },
    async charge(request, now) {
      const behaviour = /^sim_(ok|insufficient|fail)_/.exec(request.token)?.[1];
      const outcome =
        behaviour === 'ok'
          ? { status: 'succeeded' as const, failure_message: null }
          : behaviour === 'insufficient'
            ? { status: 'failed' as const, failure_message: 'Your card has insufficient funds.' }
            : { status: 'failed' as const, failure_message: 'Your card was declined.' };
      // Insert-or-read by idempotency key: concurrent or repeated requests share one charge.
      await db
        .insertInto('simulator_charges')
        .values({
          id: `ch_${crypto.randomBytes(12).toString('hex')}`,
          idempotency_key: request.idempotencyKey,
          token: request.token,
          amount_cents: request.amountCents,
          created_at: now.toISOString(),
          ...outcome,
        })
        .onConflict((oc) => oc.column('idempotency_key').doNothing())
        .execute();
      const charge = await db
        .selectFrom('simulator_charges')
        .select(['id', 'status', 'failure_message'])
        .where('idempotency_key', '=', request.idempotencyKey)
        .executeTakeFirstOrThrow();
      return charge.status === 'succeeded'
        ? { ok: true, chargeId: charge.id }
        : {
            ok: false,
            code: 'card_declined',
            message: charge.failure_message ?? 'Your card was declined.',
          };
    },
    async tokenize(card, now) {
      // The simulator is the card form's own gateway: a processor's payment method means nothing here.
      if ('paymentMethodId' in card) {
        return {
          ok: false,
          code: 'payment_method_unsupported',
          message: 'The built-in card simulator takes card details, not a payment method.',
          field: 'ccnum',
        };
      }
      if (!/^\d{12,19}$/.test(card.number) || !luhnValid(card.number)) {
        return {
          ok: false,
          code: 'incorrect_number',
          message: 'Your card number is incorrect.',
          field: 'ccnum',
        };
      }
      if (cardExpired(card.expMonth, card.expYear, now)) {
        return {
          ok: false,
          code: 'expired_card',
          message: 'Your card has expired.',
          field: 'ccexp',
        };
      }
      const brand = cardBrand(card.number);
      const cvcLength = brand === 'American Express' ? 4 : 3;
      if (card.cvc.length !== cvcLength) {
        return {
          ok: false,
          code: 'incorrect_cvc',
          message: "Your card's security code is incorrect.",
          field: 'cccvv',
        };
      }
      if (card.number === '4000000000000002') {
        return {
          ok: false,
          code: 'card_declined',
          message: 'Your card was declined.',
          field: 'ccnum',
        };
      }
      const behaviour =
        card.number === '4000000000009995'
          ? 'insufficient'
          : card.number === '4000000000000341'
            ? 'fail'
            : 'ok';
      return {
        ok: true,
        token: `sim_${behaviour}_${crypto.randomBytes(12).toString('hex')}`,
        brand,
        last4: card.number.slice(-4),
        expMonth: card.expMonth,
        expYear: card.expYear,
      };
    },
  };
}
