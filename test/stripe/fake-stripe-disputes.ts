import type Stripe from 'stripe';
import { find, newId, type Bank } from './fake-stripe-bank.ts';

/**
 * The card holder's side of a payment, which reaches a merchant only as events: disputes
 * (https://docs.stripe.com/disputes/how-disputes-work) and Radar's early fraud warnings
 * (https://docs.stripe.com/disputes/prevention/early-fraud-warnings).
 */

/** How long the merchant has to answer a dispute; Stripe sets due_by per case, days ahead. */
const RESPONSE_WINDOW_SECONDS = 7 * 24 * 60 * 60;

function capturedCharge(bank: Bank, paymentIntentId: string): Stripe.Charge {
  const paymentIntent = find(bank.paymentIntents, 'payment_intent', paymentIntentId);
  const charge = paymentIntent.latest_charge
    ? bank.charges.get(String(paymentIntent.latest_charge))
    : undefined;
  if (!charge?.captured) throw new Error(`${paymentIntentId} has no captured charge to dispute`);
  return charge;
}

/** The customer disputes the payment: charge.dispute.created, then the funds are withdrawn. */
export function openDispute(bank: Bank, paymentIntentId: string): Stripe.Dispute {
  const charge = capturedCharge(bank, paymentIntentId);
  const nothing = null;
  const dispute: Stripe.Dispute = {
    id: newId('dp'),
    object: 'dispute',
    amount: charge.amount_captured,
    balance_transactions: [],
    charge: charge.id,
    created: bank.now,
    currency: charge.currency,
    enhanced_eligibility_types: [],
    evidence: {
      access_activity_log: nothing,
      billing_address: nothing,
      cancellation_policy: nothing,
      cancellation_policy_disclosure: nothing,
      cancellation_rebuttal: nothing,
      customer_communication: nothing,
      customer_email_address: nothing,
      customer_name: nothing,
      customer_purchase_ip: nothing,
      customer_signature: nothing,
      duplicate_charge_documentation: nothing,
      duplicate_charge_explanation: nothing,
      duplicate_charge_id: nothing,
      enhanced_evidence: {},
      product_description: nothing,
      receipt: nothing,
      refund_policy: nothing,
      refund_policy_disclosure: nothing,
      refund_refusal_explanation: nothing,
      service_date: nothing,
      service_documentation: nothing,
      shipping_address: nothing,
      shipping_carrier: nothing,
      shipping_date: nothing,
      shipping_documentation: nothing,
      shipping_tracking_number: nothing,
      uncategorized_file: nothing,
      uncategorized_text: nothing,
    },
    evidence_details: {
      due_by: bank.now + RESPONSE_WINDOW_SECONDS,
      enhanced_eligibility: {},
      has_evidence: false,
      past_due: false,
      submission_count: 0,
      submission_method: 'not_submitted',
    },
    intended_submission_method: null,
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    payment_intent: paymentIntentId,
    reason: 'fraudulent',
    status: 'needs_response',
  };
  bank.disputes.set(dispute.id, dispute);
  charge.disputed = true;
  bank.emit('charge.dispute.created', dispute);
  bank.emit('charge.dispute.funds_withdrawn', dispute);
  return dispute;
}

/** The card network decides: charge.dispute.closed, and the funds come back when it is won. */
export function closeDispute(bank: Bank, disputeId: string, status: 'won' | 'lost'): void {
  const dispute = find(bank.disputes, 'dispute', disputeId);
  dispute.status = status;
  dispute.evidence_details.due_by = null;
  bank.emit('charge.dispute.closed', dispute);
  if (status === 'won') bank.emit('charge.dispute.funds_reinstated', dispute);
}

/** The issuer reports the payment as likely fraud: radar.early_fraud_warning.created. */
export function earlyFraudWarning(bank: Bank, paymentIntentId: string): void {
  const charge = capturedCharge(bank, paymentIntentId);
  const warning: Stripe.Radar.EarlyFraudWarning = {
    id: newId('issfr'),
    object: 'radar.early_fraud_warning',
    // Actionable while the charge can still be refunded to head off a dispute.
    actionable: !charge.refunded && !charge.disputed,
    charge: charge.id,
    created: bank.now,
    fraud_type: 'made_with_stolen_card',
    livemode: false,
    payment_intent: paymentIntentId,
  };
  bank.emit('radar.early_fraud_warning.created', warning);
}
