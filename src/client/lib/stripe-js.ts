import type { Stripe, StripeConstructor } from '@stripe/stripe-js';
import { useEffect } from 'react';
import { cardEntryPage } from '#shared/card-entry.ts';
import { ApiError } from './api.ts';
import { runtimeConfig } from './runtime-config.ts';

declare global {
  interface Window {
    Stripe?: StripeConstructor;
  }
}

/**
 * Stripe.js (issue 28), loaded from Stripe (or, in tests, the fake's stand-in) the first time a
 * page needs the card form, never bundled and never on a page that takes no card. The script's
 * address and the publishable key come from the server's runtime configuration.
 */
let loading: Promise<Stripe> | null = null;

export function stripeMode(): boolean {
  return runtimeConfig().payments.processor === 'stripe';
}

export function loadStripe(): Promise<Stripe> {
  const payments = runtimeConfig().payments;
  if (payments.processor !== 'stripe')
    return Promise.reject(new Error('Stripe.js is loaded only when Stripe takes the cards.'));
  loading ??= new Promise<Stripe>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = payments.scriptUrl;
    script.async = true;
    script.addEventListener('load', () => {
      if (window.Stripe) resolve(window.Stripe(payments.publishableKey));
      else reject(new Error('Stripe.js loaded without Stripe()'));
    });
    script.addEventListener('error', () => {
      // Tried again by the next form that needs it (a network that came back).
      loading = null;
      script.remove();
      reject(new Error('Stripe.js did not load'));
    });
    document.head.append(script);
  });
  return loading;
}

/**
 * Whether this document may run Stripe.js: the server opens its Content-Security-Policy for Stripe
 * only on the pages where a card is typed, and a policy belongs to the document, so a card page
 * reached by moving inside the app from another page must load as a document of its own.
 */
export function documentTakesCards(): boolean {
  const [entry] = performance.getEntriesByType('navigation');
  const address = entry?.name ?? window.location.href;
  return cardEntryPage(new URL(address, window.location.href).pathname);
}

/**
 * On a page where a card is typed or paid with, in Stripe mode: when this document's policy does
 * not let Stripe in (the page was reached from another one inside the app), the same address
 * again, as a document of its own, before anything is typed.
 */
export function useCardPageDocument(): void {
  useEffect(() => {
    if (stripeMode() && !documentTakesCards()) window.location.reload();
  }, []);
}

/** A card the form refused, or a confirmation that failed: said like one of our own answers. */
export function cardFormError(message: string | undefined): ApiError {
  return new ApiError(
    0,
    'CARD_FORM',
    message ?? 'Your card could not be checked. Please try again.',
  );
}

/**
 * Shows the bank's 3-D Secure page for this client secret (Stripe.js `handleNextAction`). The
 * SetupIntent it confirmed when it was saving a card; null for a payment.
 */
export async function confirmWithBank(
  clientSecret: string,
): Promise<{ setupIntent: string | null }> {
  const stripe = await loadStripe();
  const answer = await stripe.handleNextAction({ clientSecret });
  if (answer.error) throw cardFormError(answer.error.message);
  return {
    setupIntent: 'setupIntent' in answer && answer.setupIntent ? answer.setupIntent.id : null,
  };
}

/**
 * Sends a request that may take a card (saving one, or paying with it), through whatever the card's
 * bank asks: when the answer is CARD_AUTHENTICATION, the customer confirms on the bank's page and
 * the same request goes again, with the SetupIntent they confirmed when a card was being saved. A
 * payment they could not confirm is sent again all the same, so the server settles it and says
 * why; a card that could not be saved is not.
 */
export async function sendConfirming<T>(
  send: (setupIntent: string | undefined) => Promise<T>,
): Promise<T> {
  let setupIntent: string | undefined;
  // A card saved through 3-D Secure, then a payment that asks again: at most two confirmations.
  for (let round = 0; ; round++) {
    try {
      return await send(setupIntent);
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'CARD_AUTHENTICATION' || round >= 2)
        throw error;
      const secret = error.action?.client_secret;
      if (!secret) throw error;
      try {
        setupIntent = (await confirmWithBank(secret)).setupIntent ?? setupIntent;
      } catch (failed) {
        if (secret.startsWith('seti_')) throw failed;
        return send(setupIntent);
      }
    }
  }
}
