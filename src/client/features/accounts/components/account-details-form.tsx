import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import {
  AccountUpdateSchema,
  emailVerifyText,
  formatPhone,
  type AccountData,
} from '#shared/accounts.ts';
import { messages } from '#shared/wording.ts';
import { applyApiError } from '#client/components/forms/form-errors.ts';
import { PasswordField, TextField } from '#client/components/forms/fields.tsx';
import { SubmitButton } from '#client/components/ui/submit-button.tsx';
import { showToast } from '#client/components/ui/toast.tsx';
import { refreshMemberData, updateAccount } from '../accounts.api.ts';
import { dobForForm } from './account-dates.ts';
import { AccountSection } from '#client/components/ui/account-section.tsx';
import { DobField } from './dob-field.tsx';

/** The prospect, plus the current password that a new email needs (it never goes otherwise). */
const DetailsFormSchema = AccountUpdateSchema.shape.prospect.extend({
  current_password: z.string().max(1024),
});
const fieldNames = [
  'first_name',
  'last_name',
  'email',
  'phoneNo',
  'dob',
  'current_password',
] as const;
const currentPasswordNeeded = 'Enter your current password to change your email.';

/** Accounts (a): name, email, phone and date of birth → /account/update/ (spec §7). */
export function AccountDetailsForm({ account }: { account: AccountData }) {
  const queryClient = useQueryClient();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    control,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(DetailsFormSchema),
    defaultValues: {
      first_name: account.first_name,
      last_name: account.last_name,
      email: account.email,
      phoneNo: formatPhone(account.phoneNo),
      dob: dobForForm(account.dob),
      current_password: '',
    },
  });
  // A new email could hand the account to someone else, so it alone asks for the password.
  const emailChanging =
    useWatch({ control, name: 'email' }).trim().toLowerCase() !== account.email.toLowerCase();

  const onSubmit = handleSubmit(async ({ current_password, ...prospect }) => {
    const emailChanged = prospect.email !== account.email.toLowerCase();
    if (emailChanged && !current_password) {
      setError(
        'current_password',
        { type: 'required', message: currentPasswordNeeded },
        { shouldFocus: true },
      );
      return;
    }
    try {
      await updateAccount({
        leads_id: account.leads_id,
        prospect,
        ...(emailChanged ? { current_password } : {}),
      });
      showToast({
        kind: 'success',
        title: messages.accountUpdateTitle,
        description: messages.accountUpdateContent,
      });
      // A new address takes effect only when the link mailed to it is opened (issue 26): the
      // form keeps the address the account still has.
      if (emailChanged) showToast({ title: emailVerifyText.changePending(prospect.email) });
      reset({ ...prospect, email: account.email, current_password: '' });
      await refreshMemberData(queryClient, account.leads_id);
    } catch (error) {
      const outcome = applyApiError(error, setError, fieldNames);
      if (!outcome.placed) showToast({ kind: 'error', title: outcome.message });
    }
  });

  return (
    <AccountSection
      id="details"
      title="Account details"
      description="Your name and date of birth as they appear on your ID."
    >
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-5">
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            label="First name"
            autoComplete="given-name"
            error={errors.first_name?.message}
            {...register('first_name')}
          />
          <TextField
            label="Last name"
            autoComplete="family-name"
            error={errors.last_name?.message}
            {...register('last_name')}
          />
          <TextField
            label="Email"
            type="email"
            inputMode="email"
            autoComplete="email"
            autoCapitalize="off"
            spellCheck={false}
            error={errors.email?.message}
            {...register('email')}
          />
          <TextField
            label="Phone"
            type="tel"
            inputMode="tel"
            autoComplete="tel-national"
            error={errors.phoneNo?.message}
            {...register('phoneNo')}
          />
          <DobField error={errors.dob?.message} {...register('dob')} />
          {emailChanging ? (
            <PasswordField
              label="Current password"
              autoComplete="current-password"
              hint="Needed to change your email. We will send a link to the new address: your address changes when you open it."
              error={errors.current_password?.message}
              {...register('current_password')}
            />
          ) : null}
        </div>
        {account.pending_email ? (
          <p
            role="status"
            className="rounded-xl border border-accent-200 bg-accent-50/60 px-4 py-3 text-[0.9375rem] text-ink"
          >
            {emailVerifyText.changePending(account.pending_email)}
          </p>
        ) : null}
        <SubmitButton pending={isSubmitting}>Save details</SubmitButton>
      </form>
    </AccountSection>
  );
}
