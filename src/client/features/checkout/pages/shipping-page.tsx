import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { formatPhone, normalizePhone, PhoneSchema, type AccountData } from '#shared/accounts.ts';
import type { PartnerShared } from '#shared/partners.ts';
import { Fieldset, TextField } from '#client/components/forms/fields.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { SubmitButton } from '#client/components/ui/submit-button.tsx';
import { useAccountData } from '#client/features/accounts/accounts.api.ts';
import { usePartnerShared } from '#client/features/partners/partners.api.ts';
import { useCart, useIsMember } from '#client/features/cart/use-cart.ts';
import { useLeadsId } from '#client/lib/app-state.ts';
import { paths } from '#shared/paths.ts';
import { AddressFields } from '#client/components/forms/address-fields.tsx';
import { CheckoutAccount } from '../components/checkout-account.tsx';
import { saveCheckoutProgress, useShippingSoFar } from '../checkout.api.ts';
import { ShippingSchema, setCheckoutShipping, type Shipping } from '../checkout-state.ts';
import { useCheckoutStepEvent } from '../use-checkout-step.ts';

export const stepCardClass =
  'rounded-3xl border border-line bg-white p-5 shadow-[0_1px_2px_rgba(15,37,51,0.04)] sm:p-7';

function defaultsFrom(remembered: Shipping | null, account: AccountData | undefined) {
  if (remembered) return remembered;
  const address = account?.shipping;
  const phone = account?.phoneNo ? normalizePhone(account.phoneNo) : null;
  return {
    address: address?.address ?? '',
    address2: address?.address2 ?? '',
    city: address?.city ?? '',
    state: address?.state ?? '',
    zip: address?.zip ?? '',
    phoneNo: phone ? formatPhone(phone) : (account?.phoneNo ?? ''),
  };
}

interface ShippingFormProps {
  account: AccountData | undefined;
  /** The address given earlier in this checkout (this tab's, or the one the server kept). */
  remembered: Shipping | null;
  /** "Ship to {partner}" was chosen earlier in this checkout. */
  rememberedToPartner: boolean;
  /** The linked partner and the address they share, when they share one (issue 16). */
  partner: { firstName: string; address: NonNullable<PartnerShared['address']> } | null;
}

type ShippingInput = z.input<typeof ShippingSchema>;

const addressResolver = zodResolver(ShippingSchema);
/** Shipping to the partner: only the phone is the customer's to give; the address is theirs. */
const phoneResolver = zodResolver(z.object({ phoneNo: PhoneSchema }));

interface ShipToContext {
  toPartner: boolean;
}

/** Each choice checks its own fields: the customer's address, or only the phone. */
const shippingResolver: Resolver<ShippingInput, ShipToContext, Shipping> = (
  values,
  context,
  options,
) =>
  context?.toPartner
    ? (phoneResolver(values, context, options as never) as ReturnType<typeof addressResolver>)
    : addressResolver(values, context, options);

/** The address form, once the account (and so the saved address) is known. */
function ShippingForm({ account, remembered, rememberedToPartner, partner }: ShippingFormProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [toPartner, setToPartner] = useState(partner !== null && rememberedToPartner);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ShippingInput, ShipToContext, Shipping>({
    resolver: shippingResolver,
    context: { toPartner },
    // A remembered "ship to partner" kept the partner's address: the form starts from the account's.
    defaultValues: defaultsFrom(rememberedToPartner ? null : remembered, account),
  });

  // With the partner chosen, `values` holds the checked phone alone.
  const onSubmit = handleSubmit(async (values) => {
    // The partner's address as shown; the server ships to the one their account has at the order.
    // (The server checks it again as any address; a stored one it refuses sends them back here.)
    const shipping =
      toPartner && partner ? ({ ...partner.address, phoneNo: values.phoneNo } as Shipping) : values;
    const sendToPartner = toPartner && partner !== null;
    setCheckoutShipping(shipping, sendToPartner);
    await saveCheckoutProgress(queryClient, 'upsell', shipping, sendToPartner);
    await navigate(paths.checkoutUpsell);
  });

  return (
    <section aria-labelledby="shipping-title" className={stepCardClass}>
      <h2
        id="shipping-title"
        tabIndex={-1}
        data-step-heading
        className="text-2xl text-ink outline-none"
      >
        Shipping address
      </h2>
      <p className="mt-2 text-ink-soft">
        {account ? `Logged in as ${account.email}. ` : ''}Every order ships free, in plain
        packaging.
      </p>
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="mt-6 space-y-5">
        {partner ? (
          <ShipToChoice
            name={partner.firstName}
            address={partner.address}
            toPartner={toPartner}
            onChange={setToPartner}
          />
        ) : null}
        {toPartner && partner ? null : (
          <AddressFields
            section="shipping"
            field={(name) => register(name)}
            errors={{
              address: errors.address?.message,
              address2: errors.address2?.message,
              city: errors.city?.message,
              state: errors.state?.message,
              zip: errors.zip?.message,
            }}
          />
        )}
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            label="Phone"
            type="tel"
            inputMode="tel"
            autoComplete="shipping tel-national"
            hint="For delivery updates"
            error={errors.phoneNo?.message}
            {...register('phoneNo')}
          />
        </div>
        <SubmitButton pending={isSubmitting} size="lg" className="w-full sm:w-auto">
          Continue
        </SubmitButton>
      </form>
    </section>
  );
}

const choiceClass =
  'flex cursor-pointer items-start gap-3 rounded-2xl border border-line p-4 has-checked:border-accent-600 has-checked:bg-accent-50';

/**
 * Issue 16: the customer's own address, or "Ship to {partner}" at the address the partner shares
 * (shown as it is now; the server reads it again when the order is placed).
 */
function ShipToChoice({
  name,
  address,
  toPartner,
  onChange,
}: {
  name: string;
  address: NonNullable<PartnerShared['address']>;
  toPartner: boolean;
  onChange: (toPartner: boolean) => void;
}) {
  return (
    <Fieldset legend="Where should this order go?" className="space-y-2.5">
      <label className={`${choiceClass} mt-3`}>
        <input
          type="radio"
          name="ship-to"
          checked={!toPartner}
          onChange={() => onChange(false)}
          className="mt-0.5 size-5 shrink-0 accent-accent-700"
        />
        <span className="font-semibold text-ink">My address</span>
      </label>
      <label className={choiceClass}>
        <input
          type="radio"
          name="ship-to"
          checked={toPartner}
          onChange={() => onChange(true)}
          className="mt-0.5 size-5 shrink-0 accent-accent-700"
        />
        <span className="min-w-0 text-[0.9375rem]">
          <span className="block font-semibold text-ink">Ship to {name}</span>
          <span className="block text-ink-soft">
            {address.address}
            {address.address2 ? `, ${address.address2}` : ''}, {address.city}, {address.state}{' '}
            {address.zip}
          </span>
          <span className="block text-sm text-muted">The address {name} shares with you.</span>
        </span>
      </label>
    </Fieldset>
  );
}

function MemberShipping() {
  const leadsId = useLeadsId() ?? '';
  const account = useAccountData(leadsId);
  const soFar = useShippingSoFar(true);
  // Read fresh: "Ship to {partner}" is offered only while they share an address with you.
  const shared = usePartnerShared(leadsId, true);
  // The address given earlier, else the saved one, fills the form in; without either (or if they
  // cannot load) the form starts empty.
  if (account.isPending || soFar.status === 'pending' || shared.isPending)
    return <Spinner block label="Loading your address…" />;
  const partner =
    shared.data?.partner && shared.data.address
      ? { firstName: shared.data.partner.first_name, address: shared.data.address }
      : null;
  return (
    <ShippingForm
      account={account.data}
      remembered={soFar.shipping}
      rememberedToPartner={soFar.toPartner}
      partner={partner}
    />
  );
}

/** /checkout/shipping, step 1: the account (for a visitor), then the shipping address and phone. */
export function ShippingPage() {
  const cart = useCart();
  const member = useIsMember();
  useCheckoutStepEvent(1, cart);
  return member ? <MemberShipping /> : <CheckoutAccount />;
}
