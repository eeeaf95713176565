import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { formatPhone, normalizePhone, type AccountData } from '#shared/accounts.ts';
import { TextField } from '#client/components/forms/fields.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { SubmitButton } from '#client/components/ui/submit-button.tsx';
import { useAccountData } from '#client/features/accounts/accounts.api.ts';
import { useCart, useIsMember } from '#client/features/cart/use-cart.ts';
import { useLeadsId } from '#client/lib/app-state.ts';
import { paths } from '#shared/paths.ts';
import { AddressFields } from '../components/address-fields.tsx';
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
}

/** The address form, once the account (and so the saved address) is known. */
function ShippingForm({ account, remembered }: ShippingFormProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(ShippingSchema),
    defaultValues: defaultsFrom(remembered, account),
  });

  const onSubmit = handleSubmit(async (values) => {
    setCheckoutShipping(values);
    await saveCheckoutProgress(queryClient, 'upsell', values);
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

function MemberShipping() {
  const leadsId = useLeadsId() ?? '';
  const account = useAccountData(leadsId);
  const soFar = useShippingSoFar(true);
  // The address given earlier, else the saved one, fills the form in; without either (or if they
  // cannot load) the form starts empty.
  if (account.isPending || soFar.status === 'pending')
    return <Spinner block label="Loading your address…" />;
  return <ShippingForm account={account.data} remembered={soFar.shipping} />;
}

/** /checkout/shipping, step 1: the account (for a visitor), then the shipping address and phone. */
export function ShippingPage() {
  const cart = useCart();
  const member = useIsMember();
  useCheckoutStepEvent(1, cart);
  return member ? <MemberShipping /> : <CheckoutAccount />;
}
