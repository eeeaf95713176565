import crypto from 'node:crypto';
import type Stripe from 'stripe';
import { newId, type Bank } from './fake-stripe-bank.ts';
import { riskOf, type CardBehaviour, type Decline } from './fake-stripe-cards.ts';

/**
 * How long an uncaptured card payment stays authorised: 7 days for customer-initiated payments on
 * every brand (https://docs.stripe.com/payments/place-a-hold-on-a-payment-method, "Authorization
 * validity windows"); Visa's merchant-initiated window is shorter, which the fake does not model.
 */
export const HOLD_SECONDS = 7 * 24 * 60 * 60;

/**
 * The Charge a payment attempt makes (https://docs.stripe.com/api/charges/object): succeeded,
 * captured or only authorised, or failed with the issuer's answer.
 */
export function chargeFor(
  bank: Bank,
  paymentIntent: Stripe.PaymentIntent,
  paymentMethod: Stripe.PaymentMethod,
  outcome: 'succeeds' | Decline,
): Stripe.Charge {
  const succeeded = outcome === 'succeeds';
  const captured = succeeded && paymentIntent.capture_method !== 'manual';
  const card = paymentMethod.card;
  const behaviour = bank.cards.get(paymentMethod.id)?.behaviour ?? 'succeeds';
  const charge: Stripe.Charge = {
    id: newId('ch'),
    object: 'charge',
    amount: paymentIntent.amount,
    amount_captured: captured ? paymentIntent.amount : 0,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: captured ? newId('txn') : null,
    billing_details: paymentMethod.billing_details,
    calculated_statement_descriptor: paymentIntent.statement_descriptor_suffix
      ? `PAIRWELL* ${paymentIntent.statement_descriptor_suffix}`.slice(0, 22)
      : 'PAIRWELL',
    captured,
    created: bank.now,
    currency: paymentIntent.currency,
    customer: paymentIntent.customer,
    description: paymentIntent.description,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: succeeded ? null : outcome.code,
    failure_message: succeeded ? null : outcome.message,
    fraud_details: {},
    livemode: false,
    metadata: { ...paymentIntent.metadata },
    on_behalf_of: null,
    outcome: outcomeOf(behaviour, outcome),
    paid: succeeded,
    payment_intent: paymentIntent.id,
    payment_method: paymentMethod.id,
    payment_method_details: {
      type: 'card',
      card: {
        amount_authorized: succeeded ? paymentIntent.amount : null,
        authorization_code: succeeded ? String(crypto.randomInt(100000, 999999)) : null,
        brand: card?.brand ?? null,
        // https://docs.stripe.com/payments/place-a-hold-on-a-payment-method: when the hold expires.
        ...(succeeded && !captured ? { capture_before: bank.now + HOLD_SECONDS } : {}),
        checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: null },
        country: card?.country ?? null,
        electronic_commerce_indicator: null,
        exp_month: card?.exp_month ?? 12,
        exp_year: card?.exp_year ?? 2030,
        fingerprint: card?.fingerprint ?? null,
        funding: card?.funding ?? null,
        installments: null,
        last4: card?.last4 ?? null,
        mandate: null,
        network: card?.brand ?? null,
        network_transaction_id: succeeded ? String(crypto.randomInt(1e9, 9e9)) : null,
        regulated_status: 'unregulated',
        three_d_secure: null,
        transaction_link_id: null,
        wallet: null,
      },
    },
    radar_options: {},
    receipt_email: paymentIntent.receipt_email,
    receipt_number: null,
    receipt_url: null,
    refunded: false,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: paymentIntent.statement_descriptor_suffix,
    status: succeeded ? 'succeeded' : 'failed',
    transfer_data: null,
    transfer_group: null,
  };
  bank.charges.set(charge.id, charge);
  return charge;
}

/**
 * The charge's outcome (https://docs.stripe.com/api/charges/object#charge_object-outcome): the
 * issuer's answer, and Radar's risk rating of every payment (https://docs.stripe.com/radar/testing).
 * A payment Radar blocks never reaches the issuer: type blocked, reason highest_risk_level.
 */
function outcomeOf(
  behaviour: CardBehaviour,
  outcome: 'succeeds' | Decline,
): NonNullable<Stripe.Charge['outcome']> {
  const risk = riskOf(behaviour);
  const base = {
    advice_code: null,
    network_advice_code: null,
    network_decline_code: null,
    ...risk,
  };
  if (outcome === 'succeeds')
    return {
      ...base,
      network_status: 'approved_by_network',
      reason: null,
      seller_message: 'Payment complete.',
      type: 'authorized',
    };
  if (behaviour === 'radar_blocked')
    return {
      ...base,
      network_status: 'not_sent_to_network',
      reason: 'highest_risk_level',
      seller_message: 'Stripe blocked this payment as too risky.',
      type: 'blocked',
    };
  return {
    ...base,
    network_status: 'declined_by_network',
    reason: outcome.decline_code,
    seller_message: `The bank returned the decline code \`${outcome.decline_code}\`.`,
    type: 'issuer_declined',
  };
}
