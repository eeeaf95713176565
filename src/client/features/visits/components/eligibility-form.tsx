import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { DobSchema } from '#shared/accounts.ts';
import { usStates } from '#shared/us-states.ts';
import { applyApiError } from '#client/components/forms/form-errors.ts';
import { FormAlert, SelectField } from '#client/components/forms/fields.tsx';
import { SubmitButton } from '#client/components/ui/submit-button.tsx';
import { DobField } from '#client/features/accounts/components/dob-field.tsx';
import { checkEligibility } from '../visits.api.ts';

export const EligibilityFormSchema = z.object({
  state: z.string().min(1, 'Choose the state you live in'),
  dob: DobSchema,
});
export type EligibilityForm = z.infer<typeof EligibilityFormSchema>;

export type EligibilityOutcome = Awaited<ReturnType<typeof checkEligibility>>;

type EligibilityFormProps = {
  /** The answers to show again (a visitor back on the first screen). */
  defaultValues?: EligibilityForm;
} & (
  | {
      /** The patient's visit: the answers go to it, and `onResult` gets the server's verdict. */
      visitId: number;
      onResult: (outcome: EligibilityOutcome) => Promise<void> | void;
    }
  | {
      /** A visitor's check before any visit: the page sends the answers itself. */
      onSubmit: (values: EligibilityForm) => Promise<void>;
    }
);

/** The gate before any health question: the state the patient lives in and their age (19–99). */
export function EligibilityFormView(props: EligibilityFormProps) {
  const [alert, setAlert] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(EligibilityFormSchema),
    defaultValues: props.defaultValues ?? { state: '', dob: '' },
  });

  const submit = handleSubmit(async (values) => {
    setAlert(null);
    try {
      if ('visitId' in props)
        await props.onResult(await checkEligibility({ visit_id: props.visitId, ...values }));
      else await props.onSubmit(values);
    } catch (error) {
      const outcome = applyApiError(error, setError, ['state', 'dob']);
      if (!outcome.placed) setAlert(outcome.message);
    }
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="space-y-5">
      <SelectField
        label="State you live in"
        autoComplete="address-level1"
        error={errors.state?.message}
        {...register('state')}
      >
        <option value="">Choose…</option>
        {usStates.map(([code, name]) => (
          <option key={code} value={code}>
            {name}
          </option>
        ))}
      </SelectField>
      <DobField error={errors.dob?.message} {...register('dob')} />
      {alert ? <FormAlert>{alert}</FormAlert> : null}
      <SubmitButton pending={isSubmitting} size="lg" className="w-full sm:w-auto sm:min-w-48">
        Continue
      </SubmitButton>
    </form>
  );
}
