import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { LoginSchema, SignupSchema } from '#shared/accounts.ts';
import { applyApiError } from '#client/components/forms/form-errors.ts';
import {
  CheckboxField,
  FormAlert,
  PasswordField,
  TextField,
} from '#client/components/forms/fields.tsx';
import { textLinkClass } from '#client/components/ui/button.ts';
import { SubmitButton } from '#client/components/ui/submit-button.tsx';
import { showToast } from '#client/components/ui/toast.tsx';
import { logIn, signUp } from '#client/features/accounts/accounts.api.ts';
import { DobField } from '#client/features/accounts/components/dob-field.tsx';
import { rememberSessionWithCart } from '#client/features/cart/cart.api.ts';
import { ApiError } from '#client/lib/api.ts';
import { getAppState } from '#client/lib/app-state.ts';
import { storedClickId } from '#client/lib/clicks.ts';
import { paths } from '#client/paths.ts';

function PolicyLink({ to, children }: { to: string; children: string }) {
  return (
    <Link to={to} target="_blank" rel="noopener" className={textLinkClass}>
      {children}
      <span className="sr-only"> (opens in a new tab)</span>
    </Link>
  );
}

const signupFields = [
  'email',
  'first_name',
  'last_name',
  'password',
  'dob',
  'phoneNo',
  'consent',
] as const;

/** Sign-up with the rules of spec §5 (SignupSchema), in the checkout. */
function SignupForm({ onLogInInstead }: { onLogInInstead: () => void }) {
  const queryClient = useQueryClient();
  const [alert, setAlert] = useState<{ message: string; emailTaken: boolean } | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(SignupSchema),
    defaultValues: {
      email: '',
      first_name: '',
      last_name: '',
      password: '',
      dob: '',
      phoneNo: '',
    },
  });

  const onSubmit = handleSubmit(async (values) => {
    setAlert(null);
    const leadsId = getAppState().user.userData.leadsId;
    const clickId = storedClickId();
    try {
      const result = await signUp({
        ...values,
        ...(leadsId ? { leads_id: leadsId } : {}),
        ...(clickId ? { clicks_id: clickId } : {}),
      });
      await rememberSessionWithCart(queryClient, result.user);
      showToast({ kind: 'success', title: `Welcome to Pairwell, ${result.user.first_name}` });
    } catch (error) {
      const outcome = applyApiError(error, setError, signupFields);
      const emailTaken = error instanceof ApiError && error.code === 'EMAIL_TAKEN';
      if (!outcome.placed || emailTaken) setAlert({ message: outcome.message, emailTaken });
    }
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-5">
      {alert ? (
        <FormAlert>
          {alert.message}
          {alert.emailTaken ? (
            <>
              {' '}
              <button
                type="button"
                onClick={onLogInInstead}
                className="font-semibold underline underline-offset-4"
              >
                Log in instead
              </button>
              .
            </>
          ) : null}
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
      </div>
      <PasswordField
        label="Password"
        hint="At least 8 characters. A passphrase of a few words works well."
        autoComplete="new-password"
        error={errors.password?.message}
        {...register('password')}
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <DobField error={errors.dob?.message} {...register('dob')} />
        <TextField
          label="Phone"
          type="tel"
          inputMode="tel"
          autoComplete="tel-national"
          hint="For order and delivery updates"
          error={errors.phoneNo?.message}
          {...register('phoneNo')}
        />
      </div>
      <CheckboxField
        label={
          <>
            I agree to the <PolicyLink to={paths.terms}>Terms of Service</PolicyLink>, the{' '}
            <PolicyLink to={paths.privacy}>Privacy Policy</PolicyLink> and the{' '}
            <PolicyLink to={paths.consentToTelehealth}>Consent to Telehealth</PolicyLink>.
          </>
        }
        error={errors.consent?.message}
        {...register('consent')}
      />
      <SubmitButton pending={isSubmitting} size="lg" className="w-full">
        Create account and continue
      </SubmitButton>
    </form>
  );
}

/** Log-in (LoginSchema) in the checkout. */
function LoginForm() {
  const queryClient = useQueryClient();
  const [alert, setAlert] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(LoginSchema),
    defaultValues: { email: '', password: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setAlert(null);
    try {
      const result = await logIn(values);
      await rememberSessionWithCart(queryClient, result.user);
      showToast({ kind: 'success', title: `Welcome back, ${result.user.first_name}` });
    } catch (error) {
      const outcome = applyApiError(error, setError, ['email', 'password']);
      if (!outcome.placed) setAlert(outcome.message);
    }
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-5">
      {alert ? <FormAlert>{alert}</FormAlert> : null}
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
          <Link to={paths.resetPassword} className={textLinkClass}>
            Forgot password?
          </Link>
        </p>
      </div>
      <SubmitButton pending={isSubmitting} size="lg" className="w-full">
        Log in and continue
      </SubmitButton>
    </form>
  );
}

const choiceClass = (chosen: boolean) =>
  `min-h-11 flex-1 rounded-full px-3 text-sm font-semibold transition-colors sm:px-4 sm:text-[0.9375rem] ${
    chosen ? 'bg-white text-ink shadow-sm ring-1 ring-line' : 'text-ink-soft hover:text-ink'
  }`;

/**
 * Step 1 for a visitor: create an account or log in, without leaving the checkout. The cart
 * they built comes with them.
 */
export function CheckoutAccount() {
  const [mode, setMode] = useState<'signup' | 'login'>('signup');
  return (
    <section
      aria-labelledby="account-title"
      className="rounded-3xl border border-line bg-white p-5 shadow-[0_1px_2px_rgba(15,37,51,0.04)] sm:p-7"
    >
      <h2
        id="account-title"
        tabIndex={-1}
        data-step-heading
        className="text-2xl text-ink outline-none"
      >
        Your account
      </h2>
      <p className="mt-2 text-ink-soft">
        Your account keeps your orders, subscriptions and messages in one place. Your cart comes
        with you.
      </p>
      <div
        role="group"
        aria-label="Account"
        className="mt-5 flex gap-1 rounded-full bg-surface p-1 ring-1 ring-line"
      >
        <button
          type="button"
          aria-pressed={mode === 'signup'}
          onClick={() => setMode('signup')}
          className={choiceClass(mode === 'signup')}
        >
          New customer
        </button>
        <button
          type="button"
          aria-pressed={mode === 'login'}
          onClick={() => setMode('login')}
          className={choiceClass(mode === 'login')}
        >
          I have an account
        </button>
      </div>
      <div className="mt-6">
        {mode === 'signup' ? <SignupForm onLogInInstead={() => setMode('login')} /> : <LoginForm />}
      </div>
    </section>
  );
}
