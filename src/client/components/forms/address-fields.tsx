import type { UseFormRegisterReturn } from 'react-hook-form';
import { usStates } from '#shared/us-states.ts';
import { SelectField, TextField } from '#client/components/forms/fields.tsx';

export type AddressKey = 'address' | 'address2' | 'city' | 'state' | 'zip';

interface AddressFieldsProps {
  /** The registered input for each part (flat names on step 1, `billing.…` on step 3). */
  field: (name: AddressKey) => UseFormRegisterReturn;
  errors: Partial<Record<AddressKey, string | undefined>>;
  /** The autocomplete section, so a browser fills the right saved address. */
  section: 'shipping' | 'billing';
}

/** A US postal address with the rules of spec §5: address2 optional, ZIP exactly 5 digits. */
export function AddressFields({ field, errors, section }: AddressFieldsProps) {
  return (
    <div className="grid gap-5 sm:grid-cols-6">
      <TextField
        label="Street address"
        autoComplete={`${section} address-line1`}
        wrapperClassName="sm:col-span-6"
        error={errors.address}
        {...field('address')}
      />
      <TextField
        label="Apartment, suite, etc. (optional)"
        autoComplete={`${section} address-line2`}
        wrapperClassName="sm:col-span-6"
        error={errors.address2}
        {...field('address2')}
      />
      <TextField
        label="City"
        autoComplete={`${section} address-level2`}
        wrapperClassName="sm:col-span-6"
        error={errors.city}
        {...field('city')}
      />
      <SelectField
        label="State"
        autoComplete={`${section} address-level1`}
        wrapperClassName="sm:col-span-3"
        error={errors.state}
        {...field('state')}
      >
        <option value="">Choose…</option>
        {usStates.map(([code, name]) => (
          <option key={code} value={code}>
            {name}
          </option>
        ))}
      </SelectField>
      <TextField
        label="ZIP code"
        inputMode="numeric"
        autoComplete={`${section} postal-code`}
        maxLength={5}
        wrapperClassName="sm:col-span-3"
        error={errors.zip}
        {...field('zip')}
      />
    </div>
  );
}
