import type { Stripe, StripeElements, StripePaymentElement } from '@stripe/stripe-js';
import { useEffect, useRef, useState, type MutableRefObject } from 'react';
import { Spinner } from '#client/components/ui/spinner.tsx';
import {
  cardFormError,
  documentTakesCards,
  loadStripe,
  sendConfirming,
  useCardPageDocument,
} from '#client/lib/stripe-js.ts';

/** What the form asks of the card element when it is sent. */
export interface CardElementController {
  /** Checks the card in Stripe's frame and makes its payment method (`pm_…`). */
  paymentMethod(): Promise<string>;
}

/** The brand's look inside Stripe's frame (Stripe's Appearance API). */
const appearance = {
  theme: 'stripe' as const,
  variables: {
    colorPrimary: '#176c9b',
    colorText: '#0f2533',
    colorDanger: '#b42318',
    fontFamily: "'DM Sans', ui-sans-serif, system-ui, -apple-system, 'Segoe UI', sans-serif",
    borderRadius: '12px',
    spacingUnit: '4px',
  },
};

type Status = 'loading' | 'ready' | 'failed';

/**
 * Stripe's Payment Element (issue 28): the card (or Apple Pay / Google Pay where the browser offers
 * them) is typed in Stripe's own frame, so no card number ever reaches this page or our server;
 * the form sends the payment method it makes. Saved for later payments (`mode: 'setup'`).
 */
export function CardElement({
  controller,
}: {
  controller: MutableRefObject<CardElementController | null>;
}) {
  const host = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<Status>('loading');
  const [attempt, setAttempt] = useState(0);
  useCardPageDocument();

  useEffect(() => {
    // This document's policy does not let Stripe in: useCardPageDocument loads the page again.
    if (!documentTakesCards()) return;
    let element: StripePaymentElement | null = null;
    let cancelled = false;
    loadStripe()
      .then((stripe: Stripe) => {
        if (cancelled || !host.current) return;
        const elements: StripeElements = stripe.elements({
          mode: 'setup',
          currency: 'usd',
          paymentMethodCreation: 'manual',
          appearance,
        });
        element = elements.create('payment', { layout: 'tabs' });
        element.on('ready', () => {
          if (!cancelled) setStatus('ready');
        });
        element.on('loaderror', () => {
          if (!cancelled) setStatus('failed');
        });
        element.mount(host.current);
        controller.current = {
          async paymentMethod() {
            const submitted = await elements.submit();
            if (submitted.error) throw cardFormError(submitted.error.message);
            const created = await stripe.createPaymentMethod({ elements });
            if (created.error) throw cardFormError(created.error.message);
            return created.paymentMethod.id;
          },
        };
      })
      .catch(() => {
        if (!cancelled) setStatus('failed');
      });
    return () => {
      cancelled = true;
      controller.current = null;
      element?.destroy();
    };
  }, [controller, attempt]);

  return (
    <div>
      {status === 'loading' ? <Spinner block label="Loading the secure card form…" /> : null}
      {status === 'failed' ? (
        <div role="alert" className="rounded-xl border border-danger/25 bg-danger-soft px-4 py-3">
          <p className="text-[0.9375rem] text-danger">
            The secure card form could not load. Please check your connection and try again.
          </p>
          <button
            type="button"
            onClick={() => {
              setStatus('loading');
              setAttempt((n) => n + 1);
            }}
            className="mt-2 text-sm font-semibold text-ink underline underline-offset-4"
          >
            Try again
          </button>
        </div>
      ) : null}
      <div ref={host} className={status === 'ready' ? undefined : 'sr-only'} />
    </div>
  );
}

/**
 * Sends a form whose new card is in the card element: its payment method first, then the request,
 * through whatever the card's bank asks (`sendConfirming`). Anything else the request answers is
 * the caller's to show.
 */
export async function sendWithCardElement<T>(
  controller: MutableRefObject<CardElementController | null>,
  send: (card: { payment_method: string; setup_intent?: string }) => Promise<T>,
): Promise<T> {
  const element = controller.current;
  if (!element) throw cardFormError('The secure card form is still loading. Please try again.');
  const paymentMethod = await element.paymentMethod();
  return sendConfirming((setupIntent) =>
    send(
      setupIntent
        ? { payment_method: paymentMethod, setup_intent: setupIntent }
        : { payment_method: paymentMethod },
    ),
  );
}
