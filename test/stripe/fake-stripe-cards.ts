import crypto from 'node:crypto';
import { FakeStripeError, withDocUrl } from './fake-stripe-params.ts';

/**
 * Stripe's test cards and what each does when saved or charged, from
 * https://docs.stripe.com/testing (Cards by brand; Declined payments; Authentication and setup;
 * 3D Secure authentication). Any other number that passes the checksum behaves as 4242….
 */
export type CardBehaviour =
  /** Succeeds. */
  | 'succeeds'
  /** 4000 0000 0000 0002: always declined, generic_decline, even when saved. */
  | 'declined'
  /** 4000 0000 0000 9995: declined with insufficient_funds when charged. */
  | 'insufficient_funds'
  /** 4000 0000 0000 0341: attaching to a customer succeeds, every charge fails. */
  | 'charge_fails'
  /** 4000 0027 6000 3184: needs authentication on every payment, however it was set up. */
  | 'authentication_always'
  /**
   * 4000 0025 0000 3155: needs authentication on-session and when set up; once set up for
   * off-session use, off-session payments succeed without it.
   */
  | 'authentication_unless_set_up'
  /** 4000 0000 0000 3220: 3-D Secure 2 must be completed on every payment. */
  | 'three_d_secure_required'
  /** 4000 0000 0000 9235: succeeds, and Radar rates the charge's risk `elevated`. */
  | 'elevated_risk'
  /**
   * 4000 0000 0000 4954: succeeds, and Radar rates the charge's risk `highest` (Stripe blocks it
   * only where a block rule for that level is on; the fake has no rules).
   */
  | 'highest_risk'
  /**
   * 4100 0000 0000 0019: Radar rates every payment `highest` and always blocks it (declined,
   * decline code fraudulent, never sent to the issuer). Saving the card is not screened here.
   */
  | 'radar_blocked';

interface TestCard {
  number: string;
  behaviour: CardBehaviour;
}

/** The test PaymentMethod ids of https://docs.stripe.com/testing and the cards behind them. */
export const testPaymentMethods: Record<string, TestCard> = {
  pm_card_visa: { number: '4242424242424242', behaviour: 'succeeds' },
  pm_card_mastercard: { number: '5555555555554444', behaviour: 'succeeds' },
  pm_card_visa_chargeDeclined: { number: '4000000000000002', behaviour: 'declined' },
  pm_card_visa_chargeDeclinedInsufficientFunds: {
    number: '4000000000009995',
    behaviour: 'insufficient_funds',
  },
  pm_card_chargeCustomerFail: { number: '4000000000000341', behaviour: 'charge_fails' },
  pm_card_authenticationRequired: {
    number: '4000002760003184',
    behaviour: 'authentication_always',
  },
  pm_card_authenticationRequiredOnSetup: {
    number: '4000002500003155',
    behaviour: 'authentication_unless_set_up',
  },
  pm_card_threeDSecure2Required: {
    number: '4000000000003220',
    behaviour: 'three_d_secure_required',
  },
  // Radar's risk levels (https://docs.stripe.com/radar/testing).
  pm_card_riskLevelElevated: { number: '4000000000009235', behaviour: 'elevated_risk' },
  pm_card_riskLevelHighest: { number: '4000000000004954', behaviour: 'highest_risk' },
  pm_card_chargeDeclinedFraudulent: { number: '4100000000000019', behaviour: 'radar_blocked' },
};

export function behaviourOf(number: string): CardBehaviour {
  return (
    Object.values(testPaymentMethods).find((card) => card.number === number)?.behaviour ??
    'succeeds'
  );
}

/** Stripe's lower-case brand names (PaymentMethod.card.brand). */
export function brandOf(number: string): string {
  if (/^4/.test(number)) return 'visa';
  if (/^(5[1-5]|2(2[2-9][1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720))/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  if (/^(6011|65|64[4-9])/.test(number)) return 'discover';
  return 'unknown';
}

function luhnValid(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Stripe keys the same card to the same fingerprint, whichever PaymentMethod holds it. */
export function fingerprintOf(number: string): string {
  return crypto.createHash('sha256').update(number).digest('base64url').slice(0, 16);
}

function cardError(code: string, message: string, param: string) {
  return new FakeStripeError(402, withDocUrl({ type: 'card_error', code, message, param }));
}

/**
 * The checks Stripe makes when card details become a PaymentMethod, with the codes and messages of
 * https://docs.stripe.com/error-codes: a number failing its checksum, an expiry month outside 1–12
 * or already past, an expiry year already past, a CVC of the wrong length (4 digits for American
 * Express, 3 otherwise; a well-formed CVC that the issuer rejects would be incorrect_cvc, at charge
 * time). Answered as 402 card errors, as Stripe answers them.
 */
export function validateCard(
  card: { number: string; expMonth: number; expYear: number; cvc: string | undefined },
  now: number,
): void {
  if (!/^\d{12,19}$/.test(card.number) || !luhnValid(card.number)) {
    throw cardError('incorrect_number', 'Your card number is incorrect.', 'number');
  }
  const today = new Date(now * 1000);
  const year = card.expYear < 100 ? 2000 + card.expYear : card.expYear;
  if (year < today.getUTCFullYear()) {
    throw cardError('invalid_expiry_year', "Your card's expiration year is invalid.", 'exp_year');
  }
  if (
    card.expMonth < 1 ||
    card.expMonth > 12 ||
    (year === today.getUTCFullYear() && card.expMonth < today.getUTCMonth() + 1)
  ) {
    throw cardError(
      'invalid_expiry_month',
      "Your card's expiration month is invalid.",
      'exp_month',
    );
  }
  const cvcLength = brandOf(card.number) === 'amex' ? 4 : 3;
  if (card.cvc !== undefined && !new RegExp(`^\\d{${cvcLength}}$`).test(card.cvc)) {
    throw cardError('invalid_cvc', "Your card's security code is invalid.", 'cvc');
  }
}

export interface Decline {
  code: 'card_declined' | 'authentication_required';
  decline_code: string;
  message: string;
}

const genericDecline: Decline = {
  code: 'card_declined',
  decline_code: 'generic_decline',
  message: 'Your card was declined.',
};

/**
 * An off-session payment on a card that needs authentication is declined, since nobody is there to
 * authenticate (https://docs.stripe.com/payments/save-and-reuse, "Charge the saved payment method
 * later"; decline code authentication_required in https://docs.stripe.com/declines/codes).
 */
const authenticationRequired: Decline = {
  code: 'authentication_required',
  decline_code: 'authentication_required',
  message: 'Your card was declined. This transaction requires authentication.',
};

/**
 * Radar's block of a payment it rates too risky: a decline that never reached the issuer
 * (https://docs.stripe.com/radar/testing; decline code fraudulent in
 * https://docs.stripe.com/declines/codes, which Stripe also gives for its own blocks).
 */
const radarBlock: Decline = {
  code: 'card_declined',
  decline_code: 'fraudulent',
  message: 'Your card was declined.',
};

/**
 * How Stripe Radar rates a payment on this card (`outcome.risk_level` and `risk_score` of
 * https://docs.stripe.com/api/charges/object#charge_object-outcome), by the test cards of
 * https://docs.stripe.com/radar/testing. The scores are the fake's own picks, rising with the level.
 */
export function riskOf(behaviour: CardBehaviour): {
  risk_level: 'normal' | 'elevated' | 'highest';
  risk_score: number;
} {
  if (behaviour === 'elevated_risk') return { risk_level: 'elevated', risk_score: 70 };
  if (behaviour === 'highest_risk' || behaviour === 'radar_blocked')
    return { risk_level: 'highest', risk_score: 85 };
  return { risk_level: 'normal', risk_score: 20 };
}

export type AttemptOutcome = 'succeeds' | 'needs_authentication' | Decline;

/** What the issuer answers to a payment on this card. */
export function paymentOutcome(
  behaviour: CardBehaviour,
  attempt: { offSession: boolean; authenticated: boolean; setUpForOffSession: boolean },
): AttemptOutcome {
  if (behaviour === 'declined' || behaviour === 'charge_fails') return genericDecline;
  if (behaviour === 'radar_blocked') return radarBlock;
  if (behaviour === 'insufficient_funds') {
    return {
      code: 'card_declined',
      decline_code: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    };
  }
  if (
    behaviour === 'succeeds' ||
    behaviour === 'elevated_risk' ||
    behaviour === 'highest_risk' ||
    attempt.authenticated
  )
    return 'succeeds';
  if (
    behaviour === 'authentication_unless_set_up' &&
    attempt.offSession &&
    attempt.setUpForOffSession
  ) {
    return 'succeeds';
  }
  return attempt.offSession ? authenticationRequired : 'needs_authentication';
}

/**
 * What setting the card up for later use answers: the $0 verification is declined only for the
 * always-declined card, and the cards that need authentication ask for it.
 */
export function setupOutcome(behaviour: CardBehaviour, authenticated: boolean): AttemptOutcome {
  if (behaviour === 'declined') return genericDecline;
  const asksAuthentication =
    behaviour === 'authentication_always' ||
    behaviour === 'authentication_unless_set_up' ||
    behaviour === 'three_d_secure_required';
  return asksAuthentication && !authenticated ? 'needs_authentication' : 'succeeds';
}
