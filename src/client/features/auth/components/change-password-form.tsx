import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { ChangePasswordSchema, PasswordUpdateFormSchema } from '#shared/auth.ts';
import { messages } from '#shared/wording.ts';
import { applyApiError } from '#client/components/forms/form-errors.ts';
import { PasswordField } from '#client/components/forms/fields.tsx';
import { SubmitButton } from '#client/components/ui/submit-button.tsx';
import { showToast } from '#client/components/ui/toast.tsx';
import { AccountSection } from '#client/components/ui/account-section.tsx';
import { authKeys, changePassword } from '../auth.api.ts';

/** The shared request, plus the confirmation that never leaves the browser (spec §5 messages). */
const ChangePasswordFormSchema = z
  .object({
    ...ChangePasswordSchema.shape,
    password_confirm: PasswordUpdateFormSchema.shape.password_confirm,
  })
  .refine((form) => form.password === form.password_confirm, {
    message: messages.passwordsMustMatch,
    path: ['password_confirm'],
  });

const empty = { current_password: '', password: '', password_confirm: '' };

/** Accounts (d): change the password with the current one → /account/password/. */
export function ChangePasswordForm() {
  const queryClient = useQueryClient();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(ChangePasswordFormSchema), defaultValues: empty });

  const onSubmit = handleSubmit(async ({ current_password, password }) => {
    try {
      await changePassword({ current_password, password });
      reset(empty);
      showToast({
        kind: 'success',
        title: 'Password changed',
        description: 'Other devices signed in to your account have been logged out.',
      });
      // The server ends the other sessions on a password change.
      await queryClient.invalidateQueries({ queryKey: authKeys.sessions });
    } catch (error) {
      const outcome = applyApiError(error, setError, ['current_password', 'password']);
      if (!outcome.placed) showToast({ kind: 'error', title: outcome.message });
    }
  });

  return (
    <AccountSection
      id="password"
      title="Change password"
      description="At least 8 characters. A passphrase of a few words works well."
    >
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-5">
        <div className="grid gap-5 sm:grid-cols-2">
          <PasswordField
            label="Current password"
            autoComplete="current-password"
            wrapperClassName="sm:col-span-2 sm:max-w-[calc(50%-0.625rem)]"
            error={errors.current_password?.message}
            {...register('current_password')}
          />
          <PasswordField
            label="New password"
            autoComplete="new-password"
            error={errors.password?.message}
            {...register('password')}
          />
          <PasswordField
            label="Confirm new password"
            autoComplete="new-password"
            error={errors.password_confirm?.message}
            {...register('password_confirm')}
          />
        </div>
        <SubmitButton pending={isSubmitting}>Change password</SubmitButton>
      </form>
    </AccountSection>
  );
}
