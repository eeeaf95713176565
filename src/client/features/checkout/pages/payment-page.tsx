import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, Navigate, useNavigate } from 'react-router';
import type { Address, CardSummary } from '#shared/accounts.ts';
import {
  blankPaymentForm,
  checkoutApi,
  paymentOfForm,
  PaymentFormSchema,
  type PaymentForm,
  type PlaceOrder,
} from '#shared/checkout.ts';
import { formatCents } from '#shared/money.ts';
import { renewalTerms } from '#shared/subscriptions.ts';
import { usStates } from '#shared/us-states.ts';
import { applyApiError } from '#client/components/forms/form-errors.ts';
import { CheckboxField, Fieldset, FormAlert } from '#client/components/forms/fields.tsx';
import { PaymentFieldset } from '#client/components/forms/payment-fieldset.tsx';
import {
  sendWithCardElement,
  type CardElementController,
} from '#client/components/forms/card-element.tsx';
import { sendConfirming, stripeMode } from '#client/lib/stripe-js.ts';
import { textLinkClass } from '#client/components/ui/button.ts';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { SubmitButton } from '#client/components/ui/submit-button.tsx';
import { useAccountData } from '#client/features/accounts/accounts.api.ts';
import { forgetSession, isUnauthenticated } from '#client/features/auth/session.api.ts';
import { cartKey } from '#client/features/cart/cart.api.ts';
import { itemSource, useCart, useIsMember } from '#client/features/cart/use-cart.ts';
import { trackAddPaymentInfo, trackPurchase } from '#client/lib/analytics.ts';
import { ApiError, failedWith } from '#client/lib/api.ts';
import { useLeadsId } from '#client/lib/app-state.ts';
import { storedClickId } from '#client/features/clicks/clicks.ts';
import { usePartnerShared } from '#client/features/partners/partners.api.ts';
import { paths } from '#shared/paths.ts';
import { placeOrder, saveCheckoutProgress, useShippingSoFar } from '../checkout.api.ts';
import {
  checkoutKey,
  forgetCheckoutKey,
  rememberPlacedOrder,
  type Shipping,
} from '../checkout-state.ts';
import { AddressFields } from '#client/components/forms/address-fields.tsx';
import { stepCardClass } from './shipping-page.tsx';

const fieldNames = [
  'ccnum',
  'ccexp',
  'cccvv',
  'consent',
  'billing.address',
  'billing.address2',
  'billing.city',
  'billing.state',
  'billing.zip',
] as const;

/** The request for this form: the server prices the cart, so no amount travels. */
export function placeOrderBody(
  form: PaymentForm,
  shipping: Shipping,
  toPartner = false,
  element?: { payment_method: string; setup_intent?: string },
): PlaceOrder {
  const clickId = storedClickId();
  return {
    idempotency_key: checkoutKey(),
    shipping,
    ...paymentOfForm(form, element),
    ...(clickId ? { click_id: clickId } : {}),
    // The server ships to the partner's address as their account has it, not to `shipping`'s.
    ...(toPartner ? { ship_to_partner: true } : {}),
  };
}

function stateName(code: string): string {
  return usStates.find(([c]) => c === code)?.[1] ?? code;
}

function ShipTo({ shipping, toPartner }: { shipping: Shipping; toPartner: boolean }) {
  const leadsId = useLeadsId() ?? '';
  const partner = usePartnerShared(leadsId, toPartner).data?.partner;
  return (
    <div className="flex items-start justify-between gap-4 rounded-2xl border border-line bg-surface px-4 py-3">
      <div className="text-[0.9375rem]">
        <p className="font-semibold text-ink">
          {toPartner ? `Shipping to ${partner?.first_name ?? 'your partner'}` : 'Ship to'}
        </p>
        <p className="text-ink-soft">
          {shipping.address}
          {shipping.address2 ? `, ${shipping.address2}` : ''}
          <br />
          {shipping.city}, {stateName(shipping.state)} {shipping.zip}
        </p>
      </div>
      <Link
        to={paths.checkoutShipping}
        aria-label="Edit shipping address"
        className={`${textLinkClass} shrink-0 text-sm`}
      >
        Edit
      </Link>
    </div>
  );
}

interface PaymentFormProps {
  shipping: Shipping;
  toPartner: boolean;
  card: CardSummary | null;
  totalCents: number;
  /** What each subscription the order starts will charge, and from when (the consent covers them). */
  renewals: string[];
  /** The billing address the customer's account has, if any. */
  ownBilling: Address | null;
}

/**
 * The form as it starts. Shipping to the partner, the billing address is the customer's own (their
 * account's), never the partner's address the order ships to (issue 26): "same as the shipping
 * address" is not offered then.
 */
function startingForm(savedUsable: boolean, toPartner: boolean, ownBilling: Address | null) {
  const blank = blankPaymentForm(savedUsable, stripeMode() ? 'element' : 'fields');
  if (!toPartner) return blank;
  const { address, address2, city, state, zip } = ownBilling ?? blank.billing;
  return { ...blank, billingSame: false, billing: { address, address2, city, state, zip } };
}

function PaymentFormView({
  shipping,
  toPartner,
  card,
  totalCents,
  renewals,
  ownBilling,
}: PaymentFormProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const placing = useRef(false);
  const cardElement = useRef<CardElementController | null>(null);
  const cart = useCart();
  const [alert, setAlert] = useState<{ message: string; shipping: boolean } | null>(null);
  const savedUsable = card !== null && !card.expired;
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(PaymentFormSchema),
    defaultValues: startingForm(savedUsable, toPartner, ownBilling),
  });
  const method = useWatch({ control, name: 'method' });
  const billingSame = useWatch({ control, name: 'billingSame' });
  // Registered in the order of the page, so the first invalid field is the one focused.
  const methodField = register('method');
  const cardNumber = register('ccnum');
  const expiry = register('ccexp');

  const place = async (values: PaymentForm) => {
    // A second click while the first is on its way sends nothing (the key covers retries).
    if (placing.current) return;
    placing.current = true;
    setAlert(null);
    // Spec §4 step 3, GA4's add_payment_info: the kind of payment, never a card detail.
    trackAddPaymentInfo(
      cart.lines.map(itemSource),
      values.method === 'saved' ? 'Saved card' : 'New card',
      cart.coupon?.code,
    );
    try {
      const order =
        values.method === 'card' && values.cardEntry === 'element'
          ? await sendWithCardElement(cardElement, (element) =>
              placeOrder(placeOrderBody(values, shipping, toPartner, element)),
            )
          : await sendConfirming(() => placeOrder(placeOrderBody(values, shipping, toPartner)));
      trackPurchase({
        order_number: order.order_number,
        total_cents: order.total_cents,
        coupon_code: order.coupon_code,
        items: order.items,
      });
      rememberPlacedOrder(order);
      forgetCheckoutKey();
      // The confirmation tidies up (address, cart, member data) once it shows: doing it here
      // would empty the cart under this page and send the customer to the shop.
      await navigate(paths.checkoutComplete, { replace: true });
    } catch (error) {
      if (failedWith(error, checkoutApi.placeOrder, 'PARTNER_ADDRESS_UNAVAILABLE')) {
        // Nothing was placed: back to step 1 to choose another address, with a new attempt.
        forgetCheckoutKey();
        setAlert({ message: error.message, shipping: true });
      } else if (
        failedWith(error, checkoutApi.placeOrder, 'CARD_DECLINED') ||
        failedWith(error, checkoutApi.placeOrder, 'CARD_AUTHENTICATION') ||
        (error instanceof ApiError && error.code === 'CARD_FORM')
      ) {
        // The gateway's reason, once, where the customer is looking; the next try is a new attempt.
        forgetCheckoutKey();
        setAlert({ message: error.message, shipping: false });
      } else if (isUnauthenticated(error)) {
        forgetSession(queryClient);
      } else if (failedWith(error, checkoutApi.placeOrder, 'EMPTY_CART')) {
        await queryClient.invalidateQueries({ queryKey: cartKey });
      } else {
        const outcome = applyApiError(error, setError, fieldNames);
        const aboutShipping =
          error instanceof ApiError &&
          Object.keys(error.fields).some((name) => name.startsWith('shipping.'));
        if (!outcome.placed || aboutShipping)
          setAlert({ message: outcome.message, shipping: aboutShipping });
      }
    } finally {
      placing.current = false;
    }
  };

  return (
    <form onSubmit={(event) => void handleSubmit(place)(event)} noValidate className="space-y-6">
      <ShipTo shipping={shipping} toPartner={toPartner} />

      <PaymentFieldset
        card={card}
        method={method}
        fields={{
          method: methodField,
          ccnum: cardNumber,
          ccexp: expiry,
          cccvv: register('cccvv'),
        }}
        errors={{
          ccnum: errors.ccnum?.message,
          ccexp: errors.ccexp?.message,
          cccvv: errors.cccvv?.message,
        }}
        cardElement={stripeMode() ? cardElement : undefined}
        newCardNote="This card is saved as your card on file for this order and your subscriptions. We keep only its brand, last four digits and expiry date."
      />

      <Fieldset legend="Billing address" className="space-y-4">
        {toPartner ? (
          <p className="text-sm text-ink-soft">Your own billing address, as your account has it.</p>
        ) : (
          <CheckboxField label="Same as the shipping address" {...register('billingSame')} />
        )}
        {billingSame && !toPartner ? null : (
          <AddressFields
            section="billing"
            field={(name) => register(`billing.${name}`)}
            errors={{
              address: errors.billing?.address?.message,
              address2: errors.billing?.address2?.message,
              city: errors.billing?.city?.message,
              state: errors.billing?.state?.message,
              zip: errors.billing?.zip?.message,
            }}
          />
        )}
      </Fieldset>

      <div className="border-t border-line pt-6">
        <CheckboxField
          label={
            <>
              I authorize Pairwell to charge my card {formatCents(totalCents)} for this order
              {renewals.length > 0
                ? `, and then ${renewals.join('; and ')}, until I cancel. I can cancel any time in Subscriptions`
                : ''}
              . I agree to the{' '}
              <Link to={paths.terms} target="_blank" rel="noopener" className={textLinkClass}>
                Terms of Service<span className="sr-only"> (opens in a new tab)</span>
              </Link>
              .
            </>
          }
          error={errors.consent?.message}
          {...register('consent')}
        />
      </div>

      {alert ? (
        <FormAlert>
          {alert.message}
          {alert.shipping ? (
            <>
              {' '}
              <Link
                to={paths.checkoutShipping}
                className="font-semibold underline underline-offset-4"
              >
                Check your shipping address
              </Link>
              .
            </>
          ) : null}
        </FormAlert>
      ) : null}

      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-lg font-semibold text-ink">
          Total today <span className="tabular-nums">{formatCents(totalCents)}</span>
        </p>
        <SubmitButton pending={isSubmitting} size="lg" className="w-full sm:w-auto sm:min-w-48">
          Place order
        </SubmitButton>
      </div>
    </form>
  );
}

function MemberPayment({ shipping, toPartner }: { shipping: Shipping; toPartner: boolean }) {
  const cart = useCart();
  const leadsId = useLeadsId() ?? '';
  const account = useAccountData(leadsId);
  if (account.isPending) return <Spinner block label="Loading your payment details…" />;
  return (
    <PaymentFormView
      shipping={shipping}
      toPartner={toPartner}
      card={account.data?.card ?? null}
      totalCents={cart.totalCents}
      renewals={renewalTerms(cart.lines, new Date().toISOString().slice(0, 10))}
      ownBilling={account.data?.billing ?? null}
    />
  );
}

/** /checkout/payment, step 3: the card (saved or new), billing address, consent and 'Place order'. */
export function PaymentPage() {
  const member = useIsMember();
  const soFar = useShippingSoFar(member);
  const shipping = soFar.status === 'ready' ? soFar.shipping : null;
  const reached = soFar.status === 'ready' ? soFar.step : null;
  const toPartner = soFar.status === 'ready' && soFar.toPartner;
  const queryClient = useQueryClient();
  // The step reached, kept with the address: a reload or a new tab comes back here.
  useEffect(() => {
    if (member && shipping && reached !== 'payment')
      void saveCheckoutProgress(queryClient, 'payment', shipping, toPartner);
  }, [member, shipping, reached, toPartner, queryClient]);

  if (soFar.status === 'pending') return <Spinner block label="Loading your checkout…" />;
  if (!member || !shipping) return <Navigate to={paths.checkoutShipping} replace />;
  return (
    <section aria-labelledby="payment-title" className={stepCardClass}>
      <h2
        id="payment-title"
        tabIndex={-1}
        data-step-heading
        className="text-2xl text-ink outline-none"
      >
        Payment
      </h2>
      <p className="mt-2 text-ink-soft">You'll see your order number as soon as it's placed.</p>
      <div className="mt-6">
        <MemberPayment shipping={shipping} toPartner={toPartner} />
      </div>
    </section>
  );
}
