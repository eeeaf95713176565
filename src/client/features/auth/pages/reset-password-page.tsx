import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PasswordUpdateFormSchema, ResetRequestFormSchema } from '#shared/auth.ts';
import { messages } from '#shared/wording.ts';
import { applyApiError } from '#client/components/forms/form-errors.ts';
import { FormAlert, PasswordField, TextField } from '#client/components/forms/fields.tsx';
import { textLinkClass } from '#client/components/ui/button.ts';
import { SubmitButton } from '#client/components/ui/submit-button.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { showToast } from '#client/components/ui/toast.tsx';
import { paths } from '#shared/paths.ts';
import { storedClickId } from '#client/features/clicks/clicks.ts';
import { checkResetLink, requestPasswordReset, updatePassword } from '../auth.api.ts';
import { AuthCard } from '../components/auth-card.tsx';

const backToLogin = (
  <>
    Remembered it?{' '}
    <Link to={paths.login} className={textLinkClass}>
      Back to log in
    </Link>
  </>
);

/**
 * Request mode (spec §2): an email address; the answer is the same whether or not it is known.
 * Opened from a link already used or expired, it says so first (`linkUsed`).
 */
function RequestReset({ linkUsed = false }: { linkUsed?: boolean }) {
  const navigate = useNavigate();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(ResetRequestFormSchema), defaultValues: { email: '' } });

  const onSubmit = handleSubmit(async ({ email }) => {
    const clickId = storedClickId();
    try {
      await requestPasswordReset({ email, ...(clickId ? { clicks_id: clickId } : {}) });
      showToast({
        kind: 'success',
        title: 'Check your email',
        description: messages.resetRequested,
      });
      reset();
      // The spent link's notice has been answered: the address loses its `?id=`.
      if (linkUsed) await navigate(paths.resetPassword, { replace: true });
    } catch (error) {
      const outcome = applyApiError(error, setError, ['email']);
      if (!outcome.placed) showToast({ kind: 'error', title: messages.somethingWentWrong });
    }
  });

  return (
    <AuthCard
      title="Reset Password"
      intro="Enter the email address and we'll email you a link to reset your password."
      footer={backToLogin}
    >
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-5">
        {linkUsed ? (
          <FormAlert>
            <p className="font-semibold">{messages.resetLinkUsed}</p>
            <p className="mt-1">Send yourself a new link below.</p>
          </FormAlert>
        ) : null}
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          inputMode="email"
          autoCapitalize="off"
          spellCheck={false}
          error={errors.email?.message}
          {...register('email')}
        />
        <SubmitButton pending={isSubmitting} size="lg" className="w-full">
          Send reset link
        </SubmitButton>
      </form>
    </AuthCard>
  );
}

/** Update mode (spec §2): a new password, twice; SUCCESS goes to /login, anything else is shown. */
function UpdatePassword({ token }: { token: string }) {
  const navigate = useNavigate();
  const [alert, setAlert] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(PasswordUpdateFormSchema),
    defaultValues: { password: '', password_confirm: '' },
  });

  const onSubmit = handleSubmit(async ({ password }) => {
    setAlert(null);
    try {
      const result = await updatePassword({ token, password });
      showToast({
        kind: 'success',
        title: 'Password updated',
        description: result.message || 'Log in with your new password.',
      });
      await navigate(paths.login, { replace: true });
    } catch (error) {
      const outcome = applyApiError(error, setError, ['password']);
      if (!outcome.placed) setAlert(outcome.message);
    }
  });

  return (
    <AuthCard
      title="Update Password"
      intro="Choose a new password for your account. It must be at least 8 characters."
      footer={backToLogin}
    >
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-5">
        {alert ? (
          <FormAlert>
            <p>{alert}</p>
            <p className="mt-1">
              <Link to={paths.resetPassword} className="font-semibold underline underline-offset-4">
                Request a new reset link
              </Link>
            </p>
          </FormAlert>
        ) : null}
        <PasswordField
          label="New password"
          autoComplete="new-password"
          error={errors.password?.message}
          {...register('password')}
        />
        <PasswordField
          label="Confirm password"
          autoComplete="new-password"
          error={errors.password_confirm?.message}
          {...register('password_confirm')}
        />
        <SubmitButton pending={isSubmitting} size="lg" className="w-full">
          Update Password
        </SubmitButton>
      </form>
    </AuthCard>
  );
}

/**
 * The emailed link (`?id=<token>`): asked about first, without spending it. A link already used or
 * expired says so at once, with the way to a new one; a working link, or one the check could not
 * answer for (the update then says), shows the update form.
 */
function ResetLink({ token }: { token: string }) {
  const check = useQuery({
    queryKey: ['/account/passwordupdate/check/', token],
    queryFn: ({ signal }) => checkResetLink(token, signal),
    retry: false,
    // Asked each time the link is opened: a link used since must not read as working.
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
  if (check.isPending) return <Spinner screen label="Checking your reset link…" />;
  if (check.data?.valid === false) return <RequestReset linkUsed />;
  return <UpdatePassword token={token} />;
}

/** /reset-password: request mode, or update mode when the emailed link carries `?id=<token>`. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('id');
  return token ? <ResetLink key={token} token={token} /> : <RequestReset />;
}
