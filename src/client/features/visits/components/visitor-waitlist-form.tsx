import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { EmailSchema } from '#shared/auth.ts';
import { applyApiError } from '#client/components/forms/form-errors.ts';
import { FormAlert, TextField } from '#client/components/forms/fields.tsx';
import { SubmitButton } from '#client/components/ui/submit-button.tsx';
import { joinVisitorWaitlist } from '../visits.api.ts';

const VisitorWaitlistFormSchema = z.object({ email: EmailSchema });

/**
 * "Tell me when {State} opens" for a visitor (issue 29): an address for one e-mail when online
 * visits open in their state, with no account. Once sent, it says so instead of asking again.
 */
export function VisitorWaitlistForm({ state, stateName }: { state: string; stateName: string }) {
  const [joined, setJoined] = useState<string | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(VisitorWaitlistFormSchema), defaultValues: { email: '' } });

  const submit = handleSubmit(async ({ email }) => {
    setAlert(null);
    try {
      setJoined((await joinVisitorWaitlist({ state, email })).message);
    } catch (error) {
      const outcome = applyApiError(error, setError, ['email']);
      if (!outcome.placed) setAlert(outcome.message);
    }
  });

  return (
    <div className="mt-6 rounded-3xl border border-accent-200 bg-accent-50 p-5">
      <h3 className="font-sans text-lg font-semibold text-ink">Waiting for {stateName}?</h3>
      <p className="mt-1 text-[0.9375rem] text-ink-soft">
        Leave your email and we'll send one message when our providers can see patients there.
        Nothing else, and no account needed.
      </p>
      {/* Always there, so a screen reader hears it when it is filled in. */}
      <p role="status" className={joined ? 'mt-3 text-[0.9375rem] font-medium text-ink' : ''}>
        {joined ?? ''}
      </p>
      {joined ? null : (
        <form onSubmit={(event) => void submit(event)} noValidate className="mt-4 space-y-4">
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            inputMode="email"
            error={errors.email?.message}
            {...register('email')}
          />
          {alert ? <FormAlert>{alert}</FormAlert> : null}
          <SubmitButton pending={isSubmitting}>Tell me when {stateName} opens</SubmitButton>
        </form>
      )}
    </div>
  );
}
