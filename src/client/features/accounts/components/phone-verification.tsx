import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { formatPhone, SmsAuthSchema, type AccountData } from '#shared/accounts.ts';
import { applyApiError } from '#client/components/forms/form-errors.ts';
import { TextField } from '#client/components/forms/fields.tsx';
import { buttonClass } from '#client/components/ui/button.ts';
import { SubmitButton } from '#client/components/ui/submit-button.tsx';
import { showToast } from '#client/components/ui/toast.tsx';
import { refreshMemberData, sendSmsCode, verifySmsCode } from '../accounts.api.ts';
import { AccountSection } from '#client/components/ui/account-section.tsx';
import { errorText } from '#client/lib/api.ts';

/** The `verify` action of /account/smsauth/: a 6-digit code. */
const VerifyCodeSchema = SmsAuthSchema.options[1];

function StatusBadge({ verified }: { verified: boolean }) {
  return verified ? (
    <span className="inline-flex items-center gap-1.5 rounded-full bg-success-soft px-3 py-1 text-sm font-semibold text-success ring-1 ring-success/20">
      <svg
        aria-hidden="true"
        viewBox="0 0 20 20"
        className="size-4"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.2"
      >
        <path d="M4 10.5l4 4 8-9" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      Verified
    </span>
  ) : (
    <span className="inline-flex items-center rounded-full bg-warning-soft px-3 py-1 text-sm font-semibold text-warning ring-1 ring-warning/20">
      Not verified
    </span>
  );
}

/** Accounts (e): confirm the phone number with a code sent by text message. */
export function PhoneVerification({ account }: { account: AccountData }) {
  const queryClient = useQueryClient();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(VerifyCodeSchema),
    defaultValues: { action: 'verify' as const, code: '' },
  });
  const phone = formatPhone(account.phoneNo);

  const send = async () => {
    setSending(true);
    try {
      const result = await sendSmsCode();
      setSentTo(result.sent_to ?? phone);
      reset({ action: 'verify', code: '' });
    } catch (error) {
      showToast({
        kind: 'error',
        title: errorText(error, "We couldn't send the code."),
      });
    } finally {
      setSending(false);
    }
  };

  const verify = handleSubmit(async ({ code }) => {
    try {
      const result = await verifySmsCode(code);
      if (result.phone_verified) {
        showToast({ kind: 'success', title: 'Phone verified', description: phone });
        setSentTo(null);
        await refreshMemberData(queryClient, account.leads_id);
      }
    } catch (error) {
      const outcome = applyApiError(error, setError, ['code']);
      if (!outcome.placed) showToast({ kind: 'error', title: outcome.message });
    }
  });

  return (
    <AccountSection
      id="phone"
      title="Phone verification"
      description={
        account.phone_verified
          ? `${phone} is verified. We can reach you by text about your orders and visits.`
          : `Confirm ${phone} so your care team and our support can reach you.`
      }
      aside={<StatusBadge verified={account.phone_verified} />}
    >
      {account.phone_verified ? null : sentTo === null ? (
        <button
          type="button"
          onClick={() => void send()}
          disabled={sending}
          className={buttonClass('secondary')}
        >
          Send code
        </button>
      ) : (
        <form onSubmit={(event) => void verify(event)} noValidate className="space-y-4">
          <p role="status" className="text-[0.9375rem] text-ink-soft">
            We sent a 6-digit code to {sentTo}. It may take a minute to arrive.
          </p>
          <div className="flex flex-wrap items-start gap-3">
            <TextField
              label="Verification code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              wrapperClassName="w-44"
              className="tracking-[0.3em]"
              error={errors.code?.message}
              {...register('code')}
            />
          </div>
          <div className="flex flex-wrap gap-3">
            <SubmitButton pending={isSubmitting}>Verify</SubmitButton>
            <button
              type="button"
              onClick={() => void send()}
              disabled={sending}
              className={buttonClass('ghost')}
            >
              Send a new code
            </button>
          </div>
        </form>
      )}
    </AccountSection>
  );
}
