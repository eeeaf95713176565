import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { z } from 'zod';
import { MAX_DIRECTIONS, PrescriptionSchema } from '#shared/reviews.ts';
import { FieldError, TextField, inputClass } from '#client/components/forms/fields.tsx';

/** A prescription as the provider writes it (a visit's approval, a renewal's, a dose change). */
export const PrescriptionFormSchema = z.object({
  drug: PrescriptionSchema.shape.drug.trim().min(1, 'Enter the drug'),
  dosage: PrescriptionSchema.shape.dosage.trim().min(1, 'Enter the dosage'),
  quantity: z.coerce
    .number({ error: 'Enter the quantity' })
    .int('Enter a whole number')
    .min(1, 'Enter the quantity')
    .max(360, 'At most 360'),
  refills: z.coerce
    .number({ error: 'Enter the refills' })
    .int('Enter a whole number')
    .min(0, 'At least 0 refills')
    .max(11, 'At most 11 refills'),
  valid_until: PrescriptionSchema.shape.valid_until,
  directions: PrescriptionSchema.shape.directions,
});
export type PrescriptionForm = z.input<typeof PrescriptionFormSchema>;
export type PrescriptionValues = z.output<typeof PrescriptionFormSchema>;

export const prescriptionFieldNames = [
  'drug',
  'dosage',
  'quantity',
  'refills',
  'valid_until',
  'directions',
] as const;

/**
 * The server names a prescription's fields `prescription.<name>`: the form's own names, so a
 * refusal lands on its field.
 */
export function prescriptionFieldsOf(fields: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields).map(([name, text]) => [name.replace(/^prescription\./, ''), text]),
  );
}

/** The prescription's fields, each labelled, hinted and with its error. */
export function PrescriptionFields<T extends PrescriptionForm>({
  register,
  errors,
}: {
  register: UseFormRegister<T>;
  errors: FieldErrors<T>;
}) {
  // The form may hold more than a prescription (a message): its fields are typed by their names.
  const field = register as unknown as UseFormRegister<PrescriptionForm>;
  const error = errors as FieldErrors<PrescriptionForm>;
  return (
    <>
      <TextField label="Drug" autoComplete="off" error={error.drug?.message} {...field('drug')} />
      <TextField
        label="Dosage"
        autoComplete="off"
        error={error.dosage?.message}
        {...field('dosage')}
      />
      <div className="grid grid-cols-2 gap-4">
        <TextField
          label="Quantity"
          hint="1 to 360"
          inputMode="numeric"
          autoComplete="off"
          error={error.quantity?.message}
          {...field('quantity')}
        />
        <TextField
          label="Refills"
          hint="0 to 11"
          inputMode="numeric"
          autoComplete="off"
          error={error.refills?.message}
          {...field('refills')}
        />
      </div>
      <TextField
        label="Valid until"
        type="date"
        error={error.valid_until?.message}
        {...field('valid_until')}
      />
      <div>
        <label
          htmlFor="prescription-directions"
          className="block text-[0.9375rem] font-medium text-ink"
        >
          Directions (sig)
        </label>
        <p id="prescription-directions-hint" className="mt-0.5 text-sm text-muted">
          How the patient takes it, in plain words; they read this on their order. Up to{' '}
          {MAX_DIRECTIONS} characters.
        </p>
        <textarea
          id="prescription-directions"
          rows={3}
          aria-invalid={error.directions ? true : undefined}
          aria-describedby={`prescription-directions-hint${error.directions ? ' prescription-directions-error' : ''}`}
          className={`${inputClass(Boolean(error.directions))} mt-1.5 resize-y`}
          {...field('directions')}
        />
        <FieldError id="prescription-directions-error" message={error.directions?.message} />
      </div>
    </>
  );
}
