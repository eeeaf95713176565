import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { AccountUpdateSchema, formatPhone, type AccountData } from '#shared/accounts.ts';
import { messages } from '#shared/messages.ts';
import { applyApiError } from '#client/components/forms/form-errors.ts';
import { TextField } from '#client/components/forms/fields.tsx';
import { SubmitButton } from '#client/components/ui/submit-button.tsx';
import { showToast } from '#client/components/ui/toast.tsx';
import { refreshMemberData, updateAccount } from '../accounts.api.ts';
import { dobForForm } from './account-dates.ts';
import { AccountSection } from './account-section.tsx';
import { DobField } from './dob-field.tsx';

const ProspectSchema = AccountUpdateSchema.shape.prospect;
const fieldNames = ['first_name', 'last_name', 'email', 'phoneNo', 'dob'] as const;

/** Accounts (a): name, e-mail, phone and date of birth → /account/update/ (spec §7). */
export function AccountDetailsForm({ account }: { account: AccountData }) {
  const queryClient = useQueryClient();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(ProspectSchema),
    defaultValues: {
      first_name: account.first_name,
      last_name: account.last_name,
      email: account.email,
      phoneNo: formatPhone(account.phoneNo),
      dob: dobForForm(account.dob),
    },
  });

  const onSubmit = handleSubmit(async (prospect) => {
    try {
      await updateAccount({ leads_id: account.leads_id, prospect });
      showToast({
        kind: 'success',
        title: messages.accountUpdateTitle,
        description: messages.accountUpdateContent,
      });
      reset(prospect);
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
        </div>
        <SubmitButton pending={isSubmitting}>Save details</SubmitButton>
      </form>
    </AccountSection>
  );
}
