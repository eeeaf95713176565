import { zodResolver } from '@hookform/resolvers/zod';
import { trackSignUp } from '#client/lib/analytics.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Link } from 'react-router';
import { accountsApi, SignupSchema } from '#shared/accounts.ts';
import { messages } from '#shared/wording.ts';
import type { SessionUser } from '#shared/session.ts';
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
import { rememberSessionWithCart } from '#client/features/cart/cart.api.ts';
import { failedWith } from '#client/lib/api.ts';
import { getAppState } from '#client/lib/app-state.ts';
import { storedClickId } from '#client/features/clicks/clicks.ts';
import { paths } from '#shared/paths.ts';
import { signUp } from '../accounts.api.ts';
import { DobField } from './dob-field.tsx';

const fieldNames = [
  'email',
  'first_name',
  'last_name',
  'password',
  'dob',
  'phoneNo',
  'consent',
] as const;

/** A link that opens beside the form, so reading the terms never loses what was typed. */
function PolicyLink({ to, children }: { to: string; children: string }) {
  return (
    <Link to={to} target="_blank" rel="noopener" className={textLinkClass}>
      {children}
      <span className="sr-only"> (opens in a new tab)</span>
    </Link>
  );
}

interface SignupFormProps {
  submitLabel: string;
  /** What to offer after "already in use": links on /signup, a switch to log-in in the checkout. */
  emailTakenHelp: ReactNode;
  /**
   * A date of birth the customer already gave ('MM/DD/YYYY', an online visit's first screen): sent
   * with the account and not asked again.
   */
  knownDob?: string;
  /** Called once the account exists and the session is set. */
  onSignedUp?: (user: SessionUser) => void;
  /**
   * What the account is made for: a supplement order agrees to the terms and privacy policy; an
   * online visit (and /signup, where visits start too) also to telehealth, in the spec's words.
   */
  purpose?: 'visit' | 'store';
}

/** A supplement order's sign-up: the same rules, and the consent a store customer gives. */
const StoreSignupSchema = SignupSchema.extend({
  consent: z.literal(true, { error: messages.storeConsent }),
});

/**
 * Account creation with the sign-up and date-of-birth rules of spec §5 (SignupSchema), used by
 * /signup and by the checkout. On success the customer is logged in and their browser cart joins
 * the account's cart (spec §3); where they go next is up to the page around the form.
 */
export function SignupForm({
  submitLabel,
  emailTakenHelp,
  knownDob,
  onSignedUp,
  purpose = 'visit',
}: SignupFormProps) {
  const queryClient = useQueryClient();
  const [alert, setAlert] = useState<{ message: string; emailTaken: boolean } | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(purpose === 'store' ? StoreSignupSchema : SignupSchema),
    defaultValues: {
      email: '',
      first_name: '',
      last_name: '',
      password: '',
      dob: knownDob ?? '',
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
      trackSignUp();
      showToast({ kind: 'success', title: `Welcome to Pairwell, ${result.user.first_name}` });
      onSignedUp?.(result.user);
    } catch (error) {
      // A date of birth given earlier has no field here: its problem is said above the form.
      const outcome = applyApiError(
        error,
        setError,
        knownDob === undefined ? fieldNames : fieldNames.filter((name) => name !== 'dob'),
      );
      const emailTaken = failedWith(error, accountsApi.accountCreate, 'EMAIL_TAKEN');
      if (!outcome.placed || emailTaken) setAlert({ message: outcome.message, emailTaken });
    }
  });

  return (
    // `post`: a submit before the page has become interactive (it was drawn by the server,
    // decision 011) must not put what was typed into the address.
    <form method="post" onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-5">
      {alert ? (
        <FormAlert>
          {alert.message}
          {alert.emailTaken ? <> {emailTakenHelp}</> : null}
        </FormAlert>
      ) : null}
      {knownDob !== undefined && errors.dob?.message ? (
        <FormAlert>{errors.dob.message}</FormAlert>
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
      <div className={knownDob === undefined ? 'grid gap-5 sm:grid-cols-2' : ''}>
        {knownDob === undefined ? (
          <DobField error={errors.dob?.message} {...register('dob')} />
        ) : null}
        <TextField
          label="Phone"
          type="tel"
          inputMode="tel"
          autoComplete="tel-national"
          hint="For order, delivery and visit updates"
          error={errors.phoneNo?.message}
          {...register('phoneNo')}
        />
      </div>
      <CheckboxField
        label={
          <>
            I agree to the <PolicyLink to={paths.terms}>Terms of Service</PolicyLink>
            {purpose === 'store' ? ' and the ' : ', the '}
            <PolicyLink to={paths.privacy}>Privacy Policy</PolicyLink>
            {purpose === 'store' ? null : (
              <>
                {' '}
                and the{' '}
                <PolicyLink to={paths.consentToTelehealth}>Consent to Telehealth</PolicyLink>
              </>
            )}
            .
          </>
        }
        error={errors.consent?.message}
        {...register('consent')}
      />
      <SubmitButton pending={isSubmitting} size="lg" className="w-full">
        {submitLabel}
      </SubmitButton>
    </form>
  );
}
