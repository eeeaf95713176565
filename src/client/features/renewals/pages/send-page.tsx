import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { paths } from '#shared/paths.ts';
import { SendRenewalSchema } from '#shared/renewals.ts';
import { applyApiError } from '#client/components/forms/form-errors.ts';
import { CheckboxField, FormAlert } from '#client/components/forms/fields.tsx';
import { textLinkClass } from '#client/components/ui/button.ts';
import { SubmitButton } from '#client/components/ui/submit-button.tsx';
import {
  useVisitContext,
  visitCardClass,
} from '#client/features/visits/components/visit-layout.tsx';
import { WithVisit } from '#client/features/visits/components/with-visit.tsx';
import { visitDestination } from '#client/features/visits/visit-state.ts';
import { ScalpPhotos } from '../components/scalp-photos.tsx';
import { useSendRenewal } from '../renewals.api.ts';

const SendFormSchema = SendRenewalSchema.pick({ confirm: true });

function SendForm({ visitId }: { visitId: number }) {
  const { category } = useVisitContext();
  const navigate = useNavigate();
  const send = useSendRenewal(visitId);
  const [alert, setAlert] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(SendFormSchema),
    defaultValues: { confirm: false as unknown as true },
  });

  const submit = handleSubmit(async () => {
    setAlert(null);
    try {
      const result = await send.mutateAsync();
      await navigate(visitDestination(result.destination, category) ?? paths.dashboard, {
        replace: true,
      });
    } catch (error) {
      const outcome = applyApiError(error, setError, ['confirm']);
      if (!outcome.placed) setAlert(outcome.message);
    }
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="space-y-5">
      {category === 'hair' ? (
        <div className="border-b border-line pb-6">
          <ScalpPhotos visitId={visitId} onAdded={() => setAlert(null)} />
        </div>
      ) : null}
      <CheckboxField
        label="My answers are true and complete. I will tell my provider in Messages if my health or my medicines change."
        error={errors.confirm?.message}
        {...register('confirm')}
      />
      {alert ? <FormAlert>{alert}</FormAlert> : null}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <SubmitButton pending={isSubmitting} size="lg" className="w-full sm:w-auto sm:min-w-48">
          Send to my provider
        </SubmitButton>
        <Link to={paths.visitScreen(category, 'answers')} className={textLinkClass}>
          Review my answers
        </Link>
      </div>
    </form>
  );
}

/**
 * /visit/:category/send, a renewal's last screen (issue 29): the answers go to a provider, with a
 * Hair renewal's three scalp photos. Nothing is charged: the refill plan bills its fills on their
 * dates, as before.
 */
export function SendRenewalPage() {
  return (
    <section aria-labelledby="send-title" className={visitCardClass}>
      <h2 id="send-title" className="text-2xl text-ink">
        Send your answers to your provider
      </h2>
      <p className="mt-2 text-ink-soft">
        A US-licensed provider reads your answers beside your last visit's, usually within one
        business day, and may message you with a question.
      </p>
      <ul className="mt-4 list-disc space-y-1.5 pl-5 text-ink-soft">
        <li>Nothing is charged for a renewal.</li>
        <li>
          If your prescription is renewed, your refills continue on the same plan, at the same price
          and on the same dates. You can change or cancel them any time.
        </li>
        <li>If it is not, your provider explains why in Messages.</li>
      </ul>
      <div className="mt-6">
        <WithVisit>{(visitId) => <SendForm visitId={visitId} />}</WithVisit>
      </div>
    </section>
  );
}
