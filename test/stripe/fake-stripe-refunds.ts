import type Stripe from 'stripe';
import { find, newId, type Bank } from './fake-stripe-bank.ts';
import {
  allowOnly,
  integer,
  invalidParam,
  invalidRequest,
  listPage,
  mergeMetadata,
  oneOf,
  text,
  type Params,
} from './fake-stripe-params.ts';

/** The succeeded charge of a PaymentIntent, or Stripe's refusal to refund it. */
function refundableCharge(bank: Bank, params: Params): Stripe.Charge {
  const paymentIntentId = text(params, 'payment_intent');
  const chargeId = text(params, 'charge');
  if (!paymentIntentId && !chargeId) {
    throw invalidParam(
      'One of the following params should be provided for this request: payment_intent or charge.',
      'payment_intent',
      'parameter_missing',
    );
  }
  if (chargeId) return find(bank.charges, 'charge', chargeId, 'charge');
  const paymentIntent = find(
    bank.paymentIntents,
    'payment_intent',
    String(paymentIntentId),
    'payment_intent',
  );
  const charge = paymentIntent.latest_charge
    ? bank.charges.get(String(paymentIntent.latest_charge))
    : undefined;
  if (!charge || paymentIntent.status !== 'succeeded') {
    throw invalidRequest(
      `This PaymentIntent (${paymentIntent.id}) does not have a successful charge to refund.`,
      { param: 'payment_intent' },
    );
  }
  return charge;
}

function dollars(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

/**
 * https://docs.stripe.com/api/refunds/create: at most what is left of the captured amount; a
 * disputed charge cannot be refunded (https://docs.stripe.com/disputes/how-disputes-work).
 */
export function createRefund(bank: Bank, params: Params): Stripe.Refund {
  allowOnly(params, ['payment_intent', 'charge', 'amount', 'metadata', 'reason']);
  const reason =
    oneOf(params, 'reason', ['duplicate', 'fraudulent', 'requested_by_customer'] as const) ?? null;
  const charge = refundableCharge(bank, params);
  if (charge.disputed) {
    throw invalidRequest(`Charge ${charge.id} has been charged back; cannot issue a refund.`, {
      code: 'charge_disputed',
    });
  }
  const left = charge.amount_captured - charge.amount_refunded;
  if (left <= 0) {
    throw invalidRequest(`Charge ${charge.id} has already been refunded.`, {
      code: 'charge_already_refunded',
    });
  }
  const amount = integer(params, 'amount') ?? left;
  if (amount > left) {
    throw invalidRequest(
      `Refund amount (${dollars(amount)}) is greater than unrefunded amount on charge (${dollars(left)})`,
      { param: 'amount' },
    );
  }
  if (amount < 1) throw invalidParam('Invalid positive integer', 'amount');
  const refund: Stripe.Refund = {
    id: newId('re'),
    object: 'refund',
    amount,
    balance_transaction: newId('txn'),
    charge: charge.id,
    created: bank.now,
    currency: charge.currency,
    customer: charge.customer,
    customer_account: null,
    destination_details: {
      card: {
        reference_status: 'pending',
        reference_type: 'acquirer_reference_number',
        type: 'refund',
      },
      type: 'card',
    },
    metadata: mergeMetadata({}, params),
    payment_intent: charge.payment_intent,
    payment_method: charge.payment_method,
    reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  };
  bank.refunds.set(refund.id, refund);
  charge.amount_refunded += amount;
  charge.refunded = charge.amount_refunded === charge.amount_captured;
  bank.emit('refund.created', refund);
  bank.emit('charge.refunded', charge);
  return refund;
}

/** https://docs.stripe.com/api/refunds/list, newest first. */
export function listRefunds(bank: Bank, params: Params): Stripe.ApiList<Stripe.Refund> {
  allowOnly(params, ['payment_intent', 'charge', 'limit', 'starting_after']);
  const paymentIntent = text(params, 'payment_intent');
  const charge = text(params, 'charge');
  const matching = [...bank.refunds.values()].filter(
    (refund) =>
      (!paymentIntent || refund.payment_intent === paymentIntent) &&
      (!charge || refund.charge === charge),
  );
  return listPage(matching, params, '/v1/refunds');
}
