import type { MutableRefObject, ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import type { CardSummary } from '#shared/accounts.ts';
import { cardExpiry } from '#client/components/ui/payment-card.tsx';
import { CardElement, type CardElementController } from './card-element.tsx';
import { CardFields } from './card-fields.tsx';
import { Fieldset } from './fields.tsx';
import { useCardPageDocument } from '#client/lib/stripe-js.ts';

type CardField = 'ccnum' | 'ccexp' | 'cccvv';

const methodClass =
  'flex cursor-pointer items-center gap-3 rounded-2xl border border-line bg-white px-4 py-3 transition-colors hover:border-accent-400 has-checked:border-accent-600 has-checked:bg-accent-50 has-checked:ring-1 has-checked:ring-accent-600';

interface PaymentFieldsetProps {
  /** The card on file: offered when it has not expired, explained when it has. */
  card: CardSummary | null;
  /** The method chosen now; a new card's fields show only for 'card'. */
  method: 'saved' | 'card';
  /** The form's registration of each field (shared/checkout.ts PaymentFormSchema). */
  fields: Record<'method' | CardField, UseFormRegisterReturn>;
  errors: Partial<Record<CardField, string | undefined>>;
  /** Said under a new card's fields (what becomes of the card). */
  newCardNote?: ReactNode;
  /** In Stripe mode: the new card is typed in Stripe's Payment Element, which this controls. */
  cardElement?: MutableRefObject<CardElementController | null> | undefined;
}

function MethodChoice({ card, field }: { card: CardSummary; field: UseFormRegisterReturn }) {
  return (
    <div className="mt-3 grid gap-2.5">
      <label className={methodClass}>
        <input
          type="radio"
          value="saved"
          className="size-5 shrink-0 accent-accent-700"
          {...field}
        />
        <span className="min-w-0 flex-1">
          <span className="block font-semibold text-ink">
            {card.brand} <span aria-hidden="true">••••</span>
            <span className="sr-only">ending in</span> {card.last4}
          </span>
          <span className="block text-sm text-ink-soft">
            Your saved card, expires {cardExpiry(card)}
          </span>
        </span>
      </label>
      <label className={methodClass}>
        <input type="radio" value="card" className="size-5 shrink-0 accent-accent-700" {...field} />
        <span className="font-semibold text-ink">A new card</span>
      </label>
    </div>
  );
}

/**
 * "Pay with": the saved card or a new one (number, expiry, security code). The store's checkout
 * and a visit's checkout pay alike; each form keeps the digits in its own state. In Stripe mode
 * the new card is typed in Stripe's frame instead, and no digit is in the page at all.
 */
export function PaymentFieldset({
  card,
  method,
  fields,
  errors,
  newCardNote,
  cardElement,
}: PaymentFieldsetProps) {
  // Paying with the saved card may need Stripe.js too (the bank's 3-D Secure page).
  useCardPageDocument();
  return (
    <Fieldset legend="Pay with">
      {card && !card.expired ? (
        <MethodChoice card={card} field={fields.method} />
      ) : card?.expired ? (
        <p className="mt-2 text-sm text-ink-soft">
          Your saved card ({card.brand} ending in {card.last4}) has expired. Please enter a new
          card.
        </p>
      ) : null}
      {method === 'card' ? (
        <div className="mt-4 space-y-5">
          {cardElement ? (
            <CardElement controller={cardElement} />
          ) : (
            <CardFields fields={fields} errors={errors} />
          )}
          {newCardNote ? <p className="text-sm text-muted">{newCardNote}</p> : null}
        </div>
      ) : null}
    </Fieldset>
  );
}
