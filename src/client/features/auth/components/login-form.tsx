import { zodResolver } from '@hookform/resolvers/zod';
import { trackLogin } from '#client/lib/analytics.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { authApi, LoginSchema } from '#shared/auth.ts';
import type { SessionUser } from '#shared/session.ts';
import { applyApiError } from '#client/components/forms/form-errors.ts';
import { FormAlert, PasswordField, TextField } from '#client/components/forms/fields.tsx';
import { textLinkClass } from '#client/components/ui/button.ts';
import { SubmitButton } from '#client/components/ui/submit-button.tsx';
import { rememberSessionWithCart } from '#client/features/cart/cart.api.ts';
import { failedWith } from '#client/lib/api.ts';
import { paths } from '#shared/paths.ts';
import { logIn, requestLoginUnlock } from '../auth.api.ts';
import { UnlockOffer } from './unlock-offer.tsx';

interface LoginFormProps {
  /** Called once the session is set (the page redirects, the slider closes). */
  onLoggedIn?: (user: SessionUser) => void;
  /** Called when a link leaves the form (the slider closes). */
  onLeave?: () => void;
  autoFocus?: boolean;
  submitLabel?: string;
  /** "New to Pairwell? Create an account" under the button (not where sign-up sits beside it). */
  signupLink?: boolean;
}

/** Email and password; used by /login, the header's log-in slider (spec §4 Login) and checkout. */
export function LoginForm({
  onLoggedIn,
  onLeave,
  autoFocus = false,
  submitLabel = 'Log in',
  signupLink = true,
}: LoginFormProps) {
  const queryClient = useQueryClient();
  const [alert, setAlert] = useState<string | null>(null);
  /** The account is paused for new devices: offer the emailed link for the address typed. */
  const [locked, setLocked] = useState<{ email: string; message: string } | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(LoginSchema),
    defaultValues: { email: '', password: '' },
  });

  // The slider opens for this one purpose; the /login page leaves focus where it lands. (Focused
  // here, not by the autofocus attribute: browsers honour that only while a page first loads.)
  useEffect(() => {
    if (autoFocus) setFocus('email');
  }, [autoFocus, setFocus]);

  const onSubmit = handleSubmit(async (values) => {
    setAlert(null);
    setLocked(null);
    try {
      const result = await logIn(values);
      // The browser cart joins the account's cart as the session starts (spec §3).
      await rememberSessionWithCart(queryClient, result.user);
      trackLogin();
      onLoggedIn?.(result.user);
    } catch (error) {
      if (failedWith(error, authApi.login, 'LOGIN_LOCKED')) {
        setLocked({ email: values.email, message: error.message });
        return;
      }
      // A refused log-in (401) or too many attempts (429) is about the form, not one field.
      const outcome = applyApiError(error, setError, ['email', 'password']);
      if (!outcome.placed) setAlert(outcome.message);
    }
  });

  return (
    // `post`: a submit before the page has become interactive (it was drawn by the server,
    // decision 011) must not put what was typed into the address.
    <form method="post" onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-5">
      {alert ? <FormAlert>{alert}</FormAlert> : null}
      {locked ? (
        <UnlockOffer
          key={locked.email}
          email={locked.email}
          message={locked.message}
          requestLink={requestLoginUnlock}
        />
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
      <div>
        <PasswordField
          label="Password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...register('password')}
        />
        <p className="mt-2 text-right text-sm">
          <Link to={paths.resetPassword} onClick={onLeave} className={textLinkClass}>
            Forgot password?
          </Link>
        </p>
      </div>
      <SubmitButton pending={isSubmitting} size="lg" className="w-full">
        {submitLabel}
      </SubmitButton>
      {signupLink ? (
        <p className="text-center text-[0.9375rem] text-ink-soft">
          New to Pairwell?{' '}
          <Link to={paths.signup} onClick={onLeave} className={textLinkClass}>
            Create an account
          </Link>
        </p>
      ) : null}
    </form>
  );
}
