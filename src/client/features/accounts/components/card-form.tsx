import { zodResolver } from '@hookform/resolvers/zod';
import { useRef, useState } from 'react';
import { z } from 'zod';
import { Controller, useForm } from 'react-hook-form';
import {
  CardPayloadSchema,
  PaymentConsentSchema,
  cardExpiredMessage,
  cardExpiryPassed,
  type CardSummary,
  type PaymentRetry,
} from '#shared/accounts.ts';
import { CardFields } from '#client/components/forms/card-fields.tsx';
import { applyApiError } from '#client/components/forms/form-errors.ts';
import { CheckboxField, FlagField, FormAlert } from '#client/components/forms/fields.tsx';
import { SubmitButton } from '#client/components/ui/submit-button.tsx';
import { ApiError } from '#client/lib/api.ts';
import {
  sendWithCardElement,
  CardElement,
  type CardElementController,
} from '#client/components/forms/card-element.tsx';
import { stripeMode } from '#client/lib/stripe-js.ts';
import { updateCard, updatePaymentMethod } from '../accounts.api.ts';

const fieldNames = ['ccnum', 'ccexp', 'cccvv', 'consent'] as const;

interface CardFormProps {
  /** Offer 'Use my shipping address as the billing address' (only when one is on file). */
  hasShippingAddress: boolean;
  /** The card as saved, and the failed payments charged again to it (see PaymentRetrySchema). */
  onSaved: (result: { card: CardSummary; retries: PaymentRetry[] }) => void | Promise<void>;
}

/** The card payload's rules, and a card past its month caught here rather than by the gateway. */
const CardFormSchema = CardPayloadSchema.superRefine((card, ctx) => {
  if (cardExpiryPassed(card.ccexp, new Date()))
    ctx.addIssue({ code: 'custom', message: cardExpiredMessage, path: ['ccexp'] });
});

/**
 * The card form: the spec's own fields with the simulator, Stripe's Payment Element in Stripe mode
 * (issue 28).
 */
export function CardForm(props: CardFormProps) {
  return stripeMode() ? <ElementCardForm {...props} /> : <FieldsCardForm {...props} />;
}

/**
 * The card form (spec §3 "Card payload", §5 messages). The digits live only in this form's state
 * and the one request that sends them: never in a cache, a log, analytics or an error report.
 */
function FieldsCardForm({ hasShippingAddress, onSaved }: CardFormProps) {
  const [declined, setDeclined] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(CardFormSchema),
    defaultValues: { ccnum: '', ccexp: '', cccvv: '', shipping: 0 },
  });
  const cardNumber = register('ccnum');
  const expiry = register('ccexp');

  const onSubmit = handleSubmit(async (values) => {
    setDeclined(null);
    try {
      const result = await updateCard(hasShippingAddress ? values : { ...values, shipping: 0 });
      reset();
      await onSaved(result);
    } catch (error) {
      const outcome = applyApiError(error, setError, fieldNames);
      // A decline always shows the gateway's reason: on the field it names, or else at the top.
      const onAField =
        error instanceof ApiError && Object.values(error.fields).includes(outcome.message);
      if (!outcome.placed || !onAField) setDeclined(outcome.message);
    }
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-5">
      {declined ? <FormAlert>{declined}</FormAlert> : null}
      <CardFields
        fields={{ ccnum: cardNumber, ccexp: expiry, cccvv: register('cccvv') }}
        errors={{
          ccnum: errors.ccnum?.message,
          ccexp: errors.ccexp?.message,
          cccvv: errors.cccvv?.message,
        }}
      />
      {hasShippingAddress ? (
        <Controller
          control={control}
          name="shipping"
          render={({ field }) => (
            <FlagField label="Use my shipping address as the billing address" {...field} />
          )}
        />
      ) : null}
      <CheckboxField
        label="I authorize Pairwell to charge this card for my orders and active subscriptions."
        error={errors.consent?.message}
        {...register('consent')}
      />
      <SubmitButton pending={isSubmitting} size="lg" className="w-full sm:w-auto">
        Save card
      </SubmitButton>
      <SecureNote />
    </form>
  );
}

const ElementFormSchema = z.object({
  consent: PaymentConsentSchema,
  shipping: z.union([z.literal(0), z.literal(1)]),
});

/**
 * Stripe mode's card form: the card is typed in Stripe's frame and reaches our server as a payment
 * method; a bank that asks for 3-D Secure shows its page over this one before the card is saved.
 */
function ElementCardForm({ hasShippingAddress, onSaved }: CardFormProps) {
  const [declined, setDeclined] = useState<string | null>(null);
  const cardElement = useRef<CardElementController | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(ElementFormSchema),
    defaultValues: { shipping: 0 as 0 | 1 },
  });

  const save = async (values: z.infer<typeof ElementFormSchema>) => {
    setDeclined(null);
    try {
      const result = await sendWithCardElement(cardElement, (card) =>
        updatePaymentMethod({
          ...card,
          consent: values.consent,
          shipping: hasShippingAddress ? values.shipping : 0,
        }),
      );
      await onSaved(result);
    } catch (error) {
      const outcome = applyApiError(error, setError, ['consent']);
      if (!outcome.placed) setDeclined(outcome.message);
    }
  };

  return (
    <form onSubmit={(event) => void handleSubmit(save)(event)} noValidate className="space-y-5">
      {declined ? <FormAlert>{declined}</FormAlert> : null}
      <CardElement controller={cardElement} />
      {hasShippingAddress ? (
        <Controller
          control={control}
          name="shipping"
          render={({ field }) => (
            <FlagField label="Use my shipping address as the billing address" {...field} />
          )}
        />
      ) : null}
      <CheckboxField
        label="I authorize Pairwell to charge this card for my orders and active subscriptions."
        error={errors.consent?.message}
        {...register('consent')}
      />
      <SubmitButton pending={isSubmitting} size="lg" className="w-full sm:w-auto">
        Save card
      </SubmitButton>
      <SecureNote />
    </form>
  );
}

function SecureNote() {
  return (
    <p className="flex items-start gap-2 text-sm text-muted">
      <svg
        aria-hidden="true"
        viewBox="0 0 20 20"
        className="mt-0.5 size-4 shrink-0"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
      >
        <rect x="4" y="9" width="12" height="8" rx="1.5" />
        <path d="M7 9V6.5a3 3 0 1 1 6 0V9" strokeLinecap="round" />
      </svg>
      Your card number is sent securely to our payment processor. We keep only the brand, the last
      four digits and the expiry date.
    </p>
  );
}
