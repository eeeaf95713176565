import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { StaffLoginSchema, staffApi, type StaffUser } from '#shared/staff.ts';
import { applyApiError } from '#client/components/forms/form-errors.ts';
import { FormAlert, PasswordField, TextField } from '#client/components/forms/fields.tsx';
import { SubmitButton } from '#client/components/ui/submit-button.tsx';
import { UnlockOffer } from '#client/features/auth/components/unlock-offer.tsx';
import { failedWith } from '#client/lib/api.ts';
import { rememberStaff, requestStaffUnlock, staffLogIn } from '../staff.api.ts';

/** Email, password and the 6-digit code of the staff member's authenticator app. */
export function StaffLoginForm({ onLoggedIn }: { onLoggedIn: (staff: StaffUser) => void }) {
  const queryClient = useQueryClient();
  const [alert, setAlert] = useState<string | null>(null);
  /** The account is paused for new devices: offer the emailed link for the address typed. */
  const [locked, setLocked] = useState<{ email: string; message: string } | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(StaffLoginSchema),
    defaultValues: { email: '', password: '', code: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setAlert(null);
    setLocked(null);
    try {
      const staff = await staffLogIn(values);
      rememberStaff(queryClient, staff);
      onLoggedIn(staff);
    } catch (error) {
      if (failedWith(error, staffApi.login, 'LOGIN_LOCKED')) {
        setLocked({ email: values.email, message: error.message });
        return;
      }
      const outcome = applyApiError(error, setError, ['email', 'password', 'code']);
      if (outcome.placed) return;
      setAlert(outcome.message);
      // A refused code cannot be used again: clear it, ready for the next one.
      if (failedWith(error, staffApi.login, 'INVALID_CREDENTIALS')) {
        setValue('code', '');
        setFocus('code');
      }
    }
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-5">
      {alert ? <FormAlert>{alert}</FormAlert> : null}
      {locked ? (
        <UnlockOffer
          key={locked.email}
          email={locked.email}
          message={locked.message}
          requestLink={requestStaffUnlock}
        />
      ) : null}
      <TextField
        label="Work email"
        type="email"
        autoComplete="username"
        inputMode="email"
        autoCapitalize="off"
        spellCheck={false}
        error={errors.email?.message}
        {...register('email')}
      />
      <PasswordField
        label="Password"
        autoComplete="current-password"
        error={errors.password?.message}
        {...register('password')}
      />
      <TextField
        label="Authentication code"
        hint="The 6-digit code your authenticator app shows for Pairwell Staff. It changes every 30 seconds."
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        maxLength={6}
        spellCheck={false}
        className="font-mono tracking-[0.3em]"
        error={errors.code?.message}
        {...register('code')}
      />
      <SubmitButton pending={isSubmitting} size="lg" className="w-full">
        Log in
      </SubmitButton>
    </form>
  );
}
