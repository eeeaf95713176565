import { zodResolver } from '@hookform/resolvers/zod';
import { trackVisitSubmitted } from '#client/lib/analytics.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useForm, useWatch, type FieldErrors } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { normalizePhone, ShippingInputSchema, type AccountData } from '#shared/accounts.ts';
import { blankPaymentForm, paymentOfForm, PaymentFormSchema } from '#shared/checkout.ts';
import { applyApiError } from '#client/components/forms/form-errors.ts';
import { CheckboxField, Fieldset, FormAlert, TextField } from '#client/components/forms/fields.tsx';
import { PaymentFieldset } from '#client/components/forms/payment-fieldset.tsx';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { SubmitButton } from '#client/components/ui/submit-button.tsx';
import { useAccountData } from '#client/features/accounts/accounts.api.ts';
import { AddressFields } from '#client/components/forms/address-fields.tsx';
import { ApiError, failedWith } from '#client/lib/api.ts';
import { sendConfirming, stripeMode } from '#client/lib/stripe-js.ts';
import {
  sendWithCardElement,
  type CardElementController,
} from '#client/components/forms/card-element.tsx';
import { getAppState, setOnlineVisitUser, useLeadsId } from '#client/lib/app-state.ts';
import { refreshOrderViews } from '#client/features/orders/orders.api.ts';
import { paths } from '#shared/paths.ts';
import { visitsApi, type VisitCheckoutSummary } from '#shared/visits.ts';
import {
  CheckoutSummary,
  checkoutConsentLabel,
  useCheckoutSummary,
} from '../components/checkout-summary.tsx';
import { useVisitContext, visitCardClass } from '../components/visit-layout.tsx';
import { VisitProblem } from '../components/visit-problem.tsx';
import { WithVisit } from '../components/with-visit.tsx';
import { visitDestination } from '../visit-state.ts';
import { visitCheckout } from '../visits.api.ts';

/** The shipping address with a phone, and the checkout's own payment form (card, billing, consent). */
const VisitCheckoutFormSchema = z.object({
  shipping: ShippingInputSchema,
  pay: PaymentFormSchema,
});
type VisitCheckoutForm = z.infer<typeof VisitCheckoutFormSchema>;

const fieldNames = [
  'shipping.address',
  'shipping.address2',
  'shipping.city',
  'shipping.state',
  'shipping.zip',
  'shipping.phoneNo',
  'pay.ccnum',
  'pay.ccexp',
  'pay.cccvv',
  'pay.consent',
] as const;

/**
 * The fields top to bottom. react-hook-form would focus the first invalid field in the order the
 * fields were registered, which here is not the screen's order (the expiry and the payment method
 * register before the address): a keyboard or screen-reader user landed mid-form.
 */
const screenOrder = [
  'shipping.address',
  'shipping.address2',
  'shipping.city',
  'shipping.state',
  'shipping.zip',
  'shipping.phoneNo',
  'pay.ccnum',
  'pay.ccexp',
  'pay.cccvv',
  'pay.billing.address',
  'pay.billing.address2',
  'pay.billing.city',
  'pay.billing.state',
  'pay.billing.zip',
  'pay.consent',
] as const;

function hasError(errors: FieldErrors<VisitCheckoutForm>, name: string): boolean {
  let node: unknown = errors;
  for (const key of name.split('.')) node = (node as Record<string, unknown> | undefined)?.[key];
  return node !== undefined;
}

interface CheckoutFormProps {
  visitId: number;
  account: AccountData | undefined;
  /** The amount authorised now and the renewal terms, as the server will charge them. */
  summary: VisitCheckoutSummary;
}

function CheckoutForm({ visitId, account, summary }: CheckoutFormProps) {
  const { category } = useVisitContext();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const paying = useRef(false);
  const cardElement = useRef<CardElementController | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const card = account?.card ?? null;
  const savedUsable = card !== null && !card.expired;
  const phone = account?.phoneNo ? normalizePhone(account.phoneNo) : null;
  const {
    register,
    control,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(VisitCheckoutFormSchema),
    shouldFocusError: false,
    defaultValues: {
      shipping: {
        address: account?.shipping?.address ?? '',
        address2: account?.shipping?.address2 ?? '',
        city: account?.shipping?.city ?? '',
        state: account?.shipping?.state ?? '',
        zip: account?.shipping?.zip ?? '',
        phoneNo: phone ?? account?.phoneNo ?? '',
      },
      pay: blankPaymentForm(savedUsable, stripeMode() ? 'element' : 'fields'),
    },
  });
  const method = useWatch({ control, name: 'pay.method' });
  const billingSame = useWatch({ control, name: 'pay.billingSame' });
  const methodField = register('pay.method');
  const expiry = register('pay.ccexp');

  const pay = async (values: VisitCheckoutForm) => {
    if (paying.current) return;
    paying.current = true;
    setAlert(null);
    try {
      const { pay: form, shipping } = values;
      const send = (element?: { payment_method: string; setup_intent?: string }) =>
        visitCheckout({ visit_id: visitId, shipping, ...paymentOfForm(form, element) });
      const result =
        form.method === 'card' && form.cardEntry === 'element'
          ? await sendWithCardElement(cardElement, send)
          : await sendConfirming(() => send());
      // "Submitted", nothing more: no program, order number or amount (decision 020).
      trackVisitSubmitted();
      // The order number survives a reload of the confirmation; it says nothing about health.
      setOnlineVisitUser({ ...getAppState().onlineVisit.user, lastOrder: result.order_number });
      // The visit is an order now, no longer a pending one: "View my order" must show it.
      refreshOrderViews(queryClient);
      await navigate(visitDestination(result.destination, category) ?? paths.visit(category), {
        replace: true,
        state: { orderNumber: result.order_number, amountCents: result.amount_cents },
      });
    } catch (error) {
      if (
        failedWith(error, visitsApi.checkout, 'CARD_DECLINED') ||
        failedWith(error, visitsApi.checkout, 'CARD_AUTHENTICATION') ||
        (error instanceof ApiError && error.code === 'CARD_FORM')
      )
        setAlert(error.message);
      else {
        const outcome = applyApiError(error, setError, fieldNames);
        if (!outcome.placed) setAlert(outcome.message);
      }
    } finally {
      paying.current = false;
    }
  };

  const focusFirstProblem = (found: FieldErrors<VisitCheckoutForm>) => {
    const first = screenOrder.find((name) => hasError(found, name));
    if (first) setFocus(first);
  };

  const payErrors = errors.pay;
  return (
    <form
      onSubmit={(event) => void handleSubmit(pay, focusFirstProblem)(event)}
      noValidate
      className="space-y-7"
    >
      <Fieldset legend="Shipping address" className="space-y-5">
        <AddressFields
          section="shipping"
          field={(name) => register(`shipping.${name}`)}
          errors={{
            address: errors.shipping?.address?.message,
            address2: errors.shipping?.address2?.message,
            city: errors.shipping?.city?.message,
            state: errors.shipping?.state?.message,
            zip: errors.shipping?.zip?.message,
          }}
        />
        <TextField
          label="Phone"
          type="tel"
          autoComplete="tel"
          error={errors.shipping?.phoneNo?.message}
          {...register('shipping.phoneNo')}
        />
      </Fieldset>

      <CheckoutSummary summary={summary} />

      <PaymentFieldset
        card={card}
        method={method}
        cardElement={stripeMode() ? cardElement : undefined}
        fields={{
          method: methodField,
          ccnum: register('pay.ccnum'),
          ccexp: expiry,
          cccvv: register('pay.cccvv'),
        }}
        errors={{
          ccnum: payErrors?.ccnum?.message,
          ccexp: payErrors?.ccexp?.message,
          cccvv: payErrors?.cccvv?.message,
        }}
      />

      <Fieldset legend="Billing address" className="space-y-4">
        <CheckboxField label="Same as the shipping address" {...register('pay.billingSame')} />
        {billingSame ? null : (
          <AddressFields
            section="billing"
            field={(name) => register(`pay.billing.${name}`)}
            errors={{
              address: payErrors?.billing?.address?.message,
              address2: payErrors?.billing?.address2?.message,
              city: payErrors?.billing?.city?.message,
              state: payErrors?.billing?.state?.message,
              zip: payErrors?.billing?.zip?.message,
            }}
          />
        )}
      </Fieldset>

      <CheckboxField
        label={checkoutConsentLabel(summary)}
        error={payErrors?.consent?.message}
        {...register('pay.consent')}
      />

      {alert ? <FormAlert>{alert}</FormAlert> : null}
      <SubmitButton pending={isSubmitting} size="lg" className="w-full sm:w-auto sm:min-w-48">
        Submit my visit
      </SubmitButton>
    </form>
  );
}

function CheckoutWithAccount({ visitId }: { visitId: number }) {
  const { category } = useVisitContext();
  const leadsId = useLeadsId() ?? '';
  const account = useAccountData(leadsId);
  const summary = useCheckoutSummary(visitId);
  // A visit that moved on, closed or is not this patient's: asking again would not help.
  const problem = summary.error;
  if (failedWith(problem, visitsApi.checkoutSummary, 'VISIT_STEP', 'VISIT_CLOSED', 'NOT_FOUND'))
    return <VisitProblem error={problem} category={category} />;
  if (account.isPending) return <Spinner block label="Loading your details…" />;
  // No card is asked for before the patient can see what it will be charged.
  return (
    <QueryView query={summary} loading="Loading the price of your treatment…">
      {(data) => <CheckoutForm visitId={visitId} account={account.data} summary={data} />}
    </QueryView>
  );
}

/** /visit/:category/checkout: shipping, payment and submitting the visit for review. */
export function VisitCheckoutPage() {
  return (
    <section aria-labelledby="visit-checkout-title" className={visitCardClass}>
      <h2 id="visit-checkout-title" className="text-2xl text-ink">
        Shipping and payment
      </h2>
      <p className="mt-2 text-ink-soft">
        Where should your treatment go if it is approved? Shipping is free and discreet.
      </p>
      <div className="mt-6">
        <WithVisit>{(visitId) => <CheckoutWithAccount visitId={visitId} />}</WithVisit>
      </div>
    </section>
  );
}
