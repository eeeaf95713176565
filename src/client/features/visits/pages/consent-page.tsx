import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { ConsentSchema } from '#shared/visits.ts';
import { applyApiError } from '#client/components/forms/form-errors.ts';
import { CheckboxField, FormAlert } from '#client/components/forms/fields.tsx';
import { textLinkClass } from '#client/components/ui/button.ts';
import { SubmitButton } from '#client/components/ui/submit-button.tsx';
import { paths } from '#shared/paths.ts';
import { useVisitContext, visitCardClass } from '../components/visit-layout.tsx';
import { WithVisit } from '../components/with-visit.tsx';
import { visitDestination } from '../visit-state.ts';
import { giveConsent } from '../visits.api.ts';

const ConsentFormSchema = ConsentSchema.pick({ consent: true });

function ConsentForm({ visitId }: { visitId: number }) {
  const { category } = useVisitContext();
  const navigate = useNavigate();
  const [alert, setAlert] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(ConsentFormSchema),
    defaultValues: { consent: false as unknown as true },
  });

  const submit = handleSubmit(async () => {
    setAlert(null);
    try {
      const result = await giveConsent(visitId);
      await navigate(visitDestination(result.destination, category) ?? paths.visit(category));
    } catch (error) {
      const outcome = applyApiError(error, setError, ['consent']);
      if (!outcome.placed) setAlert(outcome.message);
    }
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="space-y-5">
      <CheckboxField
        label={
          <>
            I have read and agree to the{' '}
            <Link
              to={paths.consentToTelehealth}
              target="_blank"
              rel="noopener"
              className={textLinkClass}
            >
              Consent to Telehealth<span className="sr-only"> (opens in a new tab)</span>
            </Link>
            , and I confirm my answers are true and complete.
          </>
        }
        error={errors.consent?.message}
        {...register('consent')}
      />
      {alert ? <FormAlert>{alert}</FormAlert> : null}
      <SubmitButton pending={isSubmitting} size="lg" className="w-full sm:w-auto sm:min-w-48">
        Continue
      </SubmitButton>
    </form>
  );
}

/** /visit/:category/consent: consent to care by telehealth. */
export function ConsentPage() {
  return (
    <section aria-labelledby="consent-title" className={visitCardClass}>
      <h2 id="consent-title" className="text-2xl text-ink">
        Consent to telehealth
      </h2>
      <p className="mt-2 text-ink-soft">
        A US-licensed provider will review your answers and your ID, and may message you with
        questions. Treatment is prescribed only if it is safe and right for you.
      </p>
      <div className="mt-6">
        <WithVisit>{(visitId) => <ConsentForm visitId={visitId} />}</WithVisit>
      </div>
    </section>
  );
}
