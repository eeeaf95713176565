import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Controller, useForm, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import type { z } from 'zod';
import { AddressPayloadFormSchema, formatPhone, type AccountData } from '#shared/accounts.ts';
import { messages } from '#shared/wording.ts';
import { usStates } from '#shared/us-states.ts';
import { applyApiError } from '#client/components/forms/form-errors.ts';
import {
  CheckboxField,
  Fieldset,
  FlagField,
  SelectField,
  TextField,
} from '#client/components/forms/fields.tsx';
import { SubmitButton } from '#client/components/ui/submit-button.tsx';
import { showToast } from '#client/components/ui/toast.tsx';
import { refreshMemberData, saveAddress } from '../accounts.api.ts';
import { AccountSection } from '#client/components/ui/account-section.tsx';

const AddressFormSchema = AddressPayloadFormSchema;
type AddressFormInput = z.input<typeof AddressFormSchema>;

const shippingToBilling = [
  ['address', 'billing_address'],
  ['address2', 'billing_address2'],
  ['city', 'billing_city'],
  ['state', 'billing_state'],
  ['zip', 'billing_zip'],
] as const;

const fieldNames = [
  ...shippingToBilling.flat(),
  'phoneNo',
  'smsallow',
] as const satisfies readonly (keyof AddressFormInput)[];

function sameAddress(account: AccountData): boolean {
  const { shipping, billing } = account;
  if (!billing) return true;
  if (!shipping) return false;
  return shippingToBilling.every(([from]) => shipping[from] === billing[from]);
}

interface AddressFieldsProps {
  legend: string;
  prefix: '' | 'billing_';
  autoCompleteSection: 'shipping' | 'billing';
  register: UseFormRegister<AddressFormInput>;
  errors: FieldErrors<AddressFormInput>;
}

function AddressFields({
  legend,
  prefix,
  autoCompleteSection,
  register,
  errors,
}: AddressFieldsProps) {
  const name = <T extends 'address' | 'address2' | 'city' | 'state' | 'zip'>(field: T) =>
    `${prefix}${field}` as const;
  return (
    <Fieldset legend={legend}>
      <div className="mt-3 grid gap-5 sm:grid-cols-6">
        <TextField
          label="Street address"
          autoComplete={`${autoCompleteSection} address-line1`}
          wrapperClassName="sm:col-span-6"
          error={errors[name('address')]?.message}
          {...register(name('address'))}
        />
        <TextField
          label="Apartment, suite, etc. (optional)"
          autoComplete={`${autoCompleteSection} address-line2`}
          wrapperClassName="sm:col-span-6"
          error={errors[name('address2')]?.message}
          {...register(name('address2'))}
        />
        <TextField
          label="City"
          autoComplete={`${autoCompleteSection} address-level2`}
          wrapperClassName="sm:col-span-3"
          error={errors[name('city')]?.message}
          {...register(name('city'))}
        />
        <SelectField
          label="State"
          autoComplete={`${autoCompleteSection} address-level1`}
          wrapperClassName="sm:col-span-2"
          error={errors[name('state')]?.message}
          {...register(name('state'))}
        >
          <option value="">Choose…</option>
          {usStates.map(([code, stateName]) => (
            <option key={code} value={code}>
              {stateName}
            </option>
          ))}
        </SelectField>
        <TextField
          label="ZIP code"
          inputMode="numeric"
          autoComplete={`${autoCompleteSection} postal-code`}
          maxLength={5}
          wrapperClassName="sm:col-span-1 max-sm:max-w-40"
          error={errors[name('zip')]?.message}
          {...register(name('zip'))}
        />
      </div>
    </Fieldset>
  );
}

/**
 * Accounts (b): shipping and billing address, phone and SMS consent → /account/address/ (spec §3
 * "Address payload", §5 rules). Billing may simply be the shipping address.
 */
export function AddressForm({ account }: { account: AccountData }) {
  const queryClient = useQueryClient();
  const [same, setSame] = useState(() => sameAddress(account));
  const blank = { address: '', address2: '', city: '', state: '', zip: '', country: 'US' };
  const shipping = account.shipping ?? blank;
  const billing = account.billing ?? shipping;
  const {
    register,
    control,
    handleSubmit,
    setError,
    getValues,
    setValue,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(AddressFormSchema),
    defaultValues: {
      address: shipping.address,
      address2: shipping.address2,
      city: shipping.city,
      state: shipping.state,
      zip: shipping.zip,
      billing_address: billing.address,
      billing_address2: billing.address2,
      billing_city: billing.city,
      billing_state: billing.state,
      billing_zip: billing.zip,
      phoneNo: formatPhone(account.phoneNo),
      smsallow: account.smsallow,
    },
  });

  const copyShippingToBilling = () => {
    for (const [from, to] of shippingToBilling) setValue(to, getValues(from));
    clearErrors(shippingToBilling.map(([, to]) => to));
  };

  const save = handleSubmit(async (values) => {
    try {
      await saveAddress({ leads_id: account.leads_id, ...values });
      showToast({ kind: 'success', title: 'Address saved' });
      await refreshMemberData(queryClient, account.leads_id);
    } catch (error) {
      const outcome = applyApiError(error, setError, fieldNames);
      if (!outcome.placed) showToast({ kind: 'error', title: messages.addressFailed });
    }
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (same) copyShippingToBilling();
    void save(event);
  };

  return (
    <AccountSection
      id="address"
      title="Shipping and billing address"
      description="Where your orders ship, and the address your card is billed to."
    >
      <form onSubmit={onSubmit} noValidate className="space-y-6">
        <AddressFields
          legend="Shipping address"
          prefix=""
          autoCompleteSection="shipping"
          register={register}
          errors={errors}
        />
        <CheckboxField
          label="Billing address is the same as shipping"
          checked={same}
          onChange={(event) => {
            setSame(event.target.checked);
            if (event.target.checked) copyShippingToBilling();
          }}
        />
        {same ? null : (
          <AddressFields
            legend="Billing address"
            prefix="billing_"
            autoCompleteSection="billing"
            register={register}
            errors={errors}
          />
        )}
        <div className="grid gap-5 border-t border-line pt-6 sm:grid-cols-2">
          <TextField
            label="Phone"
            type="tel"
            inputMode="tel"
            autoComplete="tel-national"
            error={errors.phoneNo?.message}
            {...register('phoneNo')}
          />
        </div>
        <Controller
          control={control}
          name="smsallow"
          render={({ field, fieldState }) => (
            <FlagField
              label="Text me about my orders, deliveries and visits. Message and data rates may apply; reply STOP to opt out."
              {...field}
              error={fieldState.error?.message}
            />
          )}
        />
        <SubmitButton pending={isSubmitting}>Save address</SubmitButton>
      </form>
    </AccountSection>
  );
}
