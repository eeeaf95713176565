import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useForm, useWatch, type FieldErrors } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import {
  AddressInputSchema,
  CardNumberSchema,
  normalizePhone,
  PhoneSchema,
  type AccountData,
} from '#shared/accounts.ts';
import { CardFields } from '#client/components/forms/card-fields.tsx';
import { applyApiError } from '#client/components/forms/form-errors.ts';
import { CheckboxField, FormAlert, TextField } from '#client/components/forms/fields.tsx';
import { textLinkClass } from '#client/components/ui/button.ts';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { SubmitButton } from '#client/components/ui/submit-button.tsx';
import { useAccountData } from '#client/features/accounts/accounts.api.ts';
import { cardExpiry } from '#client/features/accounts/components/payment-card.tsx';
import { AddressFields } from '#client/features/checkout/components/address-fields.tsx';
import { PaymentFormSchema } from '#client/features/checkout/pages/payment-page.tsx';
import { ApiError } from '#client/lib/api.ts';
import { getAppState, setOnlineVisitUser, useLeadsId } from '#client/lib/app-state.ts';
import { refreshOrderViews } from '#client/features/orders/orders.api.ts';
import { paths } from '#shared/paths.ts';
import { useVisitContext, visitCardClass } from '../components/visit-layout.tsx';
import { WithVisit } from '../components/with-visit.tsx';
import { visitDestination } from '../visit-state.ts';
import { visitCheckout } from '../visits.api.ts';

/** The shipping address with a phone, and the checkout's own payment form (card, billing, consent). */
const VisitCheckoutFormSchema = z.object({
  shipping: AddressInputSchema.extend({ phoneNo: PhoneSchema }),
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

const methodClass =
  'flex cursor-pointer items-center gap-3 rounded-2xl border border-line bg-white px-4 py-3 transition-colors hover:border-accent-400 has-checked:border-accent-600 has-checked:bg-accent-50 has-checked:ring-1 has-checked:ring-accent-600';

function CheckoutForm({ visitId, account }: { visitId: number; account: AccountData | undefined }) {
  const { category } = useVisitContext();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const paying = useRef(false);
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
      pay: {
        method: savedUsable ? ('saved' as const) : ('card' as const),
        ccnum: '',
        ccexp: '',
        cccvv: '',
        billingSame: true,
        billing: { address: '', address2: '', city: '', state: '', zip: '' },
        consent: false,
      },
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
      const result = await visitCheckout({
        visit_id: visitId,
        shipping,
        billing: form.billingSame ? null : AddressInputSchema.parse(form.billing),
        payment:
          form.method === 'card'
            ? {
                method: 'card',
                ccnum: CardNumberSchema.parse(form.ccnum),
                ccexp: form.ccexp.trim(),
                cccvv: form.cccvv.trim(),
              }
            : { method: 'saved' },
        consent: true,
      });
      // The order number survives a reload of the confirmation; it says nothing about health.
      setOnlineVisitUser({ ...getAppState().onlineVisit.user, lastOrder: result.order_number });
      // The visit is an order now, no longer a pending one: "View my order" must show it.
      refreshOrderViews(queryClient);
      await navigate(visitDestination(result.destination, category) ?? paths.visit(category), {
        replace: true,
        state: { orderNumber: result.order_number, amountCents: result.amount_cents },
      });
    } catch (error) {
      if (error instanceof ApiError && error.status === 402) setAlert(error.message);
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
      <fieldset className="space-y-5">
        <legend className="font-sans text-base font-semibold text-ink">Shipping address</legend>
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
      </fieldset>

      <fieldset>
        <legend className="font-sans text-base font-semibold text-ink">Pay with</legend>
        {savedUsable ? (
          <div className="mt-3 grid gap-2.5">
            <label className={methodClass}>
              <input
                type="radio"
                value="saved"
                className="size-5 shrink-0 accent-accent-700"
                {...methodField}
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
              <input
                type="radio"
                value="card"
                className="size-5 shrink-0 accent-accent-700"
                {...methodField}
              />
              <span className="font-semibold text-ink">A new card</span>
            </label>
          </div>
        ) : null}
        {method === 'card' ? (
          <div className="mt-4 space-y-5">
            <CardFields
              fields={{
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
          </div>
        ) : null}
      </fieldset>

      <fieldset className="space-y-4">
        <legend className="font-sans text-base font-semibold text-ink">Billing address</legend>
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
      </fieldset>

      <div className="rounded-2xl border border-accent-200 bg-accent-50 p-4 text-[0.9375rem] text-ink-soft">
        <p className="font-semibold text-ink">You pay only if your provider approves</p>
        <p className="mt-1">
          We authorise your card now for your first month of treatment. It is charged only if a
          provider approves your treatment; if not, the hold is released and nothing is charged.
        </p>
      </div>

      <CheckboxField
        label={
          <>
            I authorize Pairwell to charge my card for this treatment if my provider approves it. I
            agree to the{' '}
            <Link to={paths.terms} target="_blank" rel="noopener" className={textLinkClass}>
              Terms of Service<span className="sr-only"> (opens in a new tab)</span>
            </Link>
            .
          </>
        }
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
  const leadsId = useLeadsId() ?? '';
  const account = useAccountData(leadsId);
  if (account.isPending) return <Spinner block label="Loading your details…" />;
  return <CheckoutForm visitId={visitId} account={account.data} />;
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
