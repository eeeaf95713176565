import { zodResolver } from '@hookform/resolvers/zod';
import { addMonths, format } from 'date-fns';
import { useState } from 'react';
import { useForm, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { paths } from '#shared/paths.ts';
import { DecisionMessageSchema, type ProviderRequest } from '#shared/reviews.ts';
import {
  requestKindNames,
  requestStatusLabels,
  type RequestOutcome,
  type RequestStatus,
} from '#shared/treatment-requests.ts';
import { FieldError, TextField, inputClass } from '#client/components/forms/fields.tsx';
import { applyApiError } from '#client/components/forms/form-errors.ts';
import { buttonClass, textLinkClass } from '#client/components/ui/button.ts';
import { Dialog } from '#client/components/ui/dialog.tsx';
import { mediumDate } from '#client/components/ui/order-status.tsx';
import { longDateTime } from '#client/components/ui/staff-order-status.tsx';
import { ApiError, errorText } from '#client/lib/api.ts';
import { reportError } from '#client/lib/error-reporting.ts';
import { DialogButtons, DialogFrame } from '#client/features/staff/components/dialog-form.tsx';
import { useDecideRequest, type RequestDecision } from '../reviews.api.ts';
import {
  PrescriptionFields,
  prescriptionFieldNames,
  prescriptionFieldsOf,
  PrescriptionFormSchema,
  type PrescriptionForm,
} from './prescription-fields.tsx';

/** The decision buttons, in the order the panel offers them. */
const outcomeButtons: Record<RequestOutcome, string> = {
  refill_date: 'Send the next refill early',
  new_prescription: 'Prescribe a change',
  answer: 'Answer with a message',
  decline: 'Decline',
};

const statusTones: Record<RequestStatus, string> = {
  OPEN: 'bg-warning-soft text-warning ring-warning/20',
  APPROVED: 'bg-success-soft text-success ring-success/20',
  DECLINED: 'bg-danger-soft text-danger ring-danger/20',
  ANSWERED: 'bg-surface text-ink-soft ring-line',
};

/** What the decision did, in the provider's words for the record. */
function decisionWords(request: ProviderRequest): string {
  const decision = request.decision;
  if (!decision) return '';
  switch (decision.outcome) {
    case 'refill_date':
      return `Next refill moved to ${mediumDate(decision.refill_date ?? '')}.`;
    case 'new_prescription':
      return decision.prescription
        ? `Prescribed ${decision.prescription.medicine}: quantity ${decision.prescription.quantity}, ${decision.prescription.refills} ${decision.prescription.refills === 1 ? 'refill' : 'refills'}, valid until ${mediumDate(decision.prescription.valid_until)}. The refill plan continues under it.`
        : 'A new prescription was written.';
    case 'decline':
      return 'Declined, with the reason in the conversation below.';
    case 'answer':
      return 'Answered in the conversation below.';
  }
}

/**
 * A request between visits (issue 29), above its conversation: what the patient asked and about
 * which prescription and refill plan, and the provider's decision, each with a message the patient
 * reads in Messages.
 */
export function RequestPanel({
  request,
  threadId,
}: {
  request: ProviderRequest;
  threadId: number;
}) {
  const [choice, setChoice] = useState<RequestOutcome | null>(null);
  const { prescription, plan } = request;
  return (
    <section
      aria-labelledby="request-title"
      className="mb-5 max-w-3xl rounded-2xl border border-line bg-white p-5 shadow-[0_1px_2px_rgba(15,37,51,0.04)]"
    >
      <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1.5">
        <h2 id="request-title" className="font-sans text-base font-semibold text-ink">
          {requestKindNames[request.kind]}
        </h2>
        <span
          className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-sm font-medium ring-1 ${statusTones[request.status]}`}
        >
          {request.status === 'OPEN' ? 'Waiting for you' : requestStatusLabels[request.status]}
        </span>
      </div>
      <dl className="mt-3 grid gap-3 text-[0.9375rem] sm:grid-cols-2">
        <div>
          <dt className="text-sm text-muted">The patient says</dt>
          <dd className="text-ink">{request.reason}</dd>
          <dd className="text-sm text-muted">
            Asked <time dateTime={request.created_at}>{longDateTime(request.created_at)}</time>
          </dd>
        </div>
        <div>
          <dt className="text-sm text-muted">Prescription</dt>
          <dd className="text-ink">
            {prescription.medicine}: quantity {prescription.quantity}, {prescription.refills}{' '}
            {prescription.refills === 1 ? 'refill' : 'refills'}
          </dd>
          <dd className="text-sm text-ink-soft">
            Valid until{' '}
            <time dateTime={prescription.valid_until}>{mediumDate(prescription.valid_until)}</time>{' '}
            ·{' '}
            <Link to={paths.staffVisit(request.visit_id)} className={textLinkClass}>
              Open the chart
            </Link>
          </dd>
        </div>
        <div className="sm:col-span-2">
          <dt className="text-sm text-muted">Refill plan</dt>
          <dd className="text-ink">
            {plan
              ? plan.status === 'ACTIVE'
                ? `Next refill ${mediumDate(plan.next_billing_date)}, ${plan.refills_remaining} ${plan.refills_remaining === 1 ? 'fill' : 'fills'} left`
                : `${plan.status.charAt(0)}${plan.status.slice(1).toLowerCase().replace('_', ' ')}, ${plan.refills_remaining} ${plan.refills_remaining === 1 ? 'fill' : 'fills'} left`
              : 'No refill plan'}
          </dd>
        </div>
      </dl>
      {request.decision ? (
        <p className="mt-4 rounded-xl bg-surface p-3 text-[0.9375rem] text-ink">
          <span className="font-semibold">
            {request.decision.provider},{' '}
            <time dateTime={request.decision.decided_at}>
              {longDateTime(request.decision.decided_at)}
            </time>
            :
          </span>{' '}
          {decisionWords(request)}
        </p>
      ) : request.outcomes.length > 0 ? (
        <div className="mt-4 flex flex-col gap-2 border-t border-line pt-4 sm:flex-row sm:flex-wrap">
          {(Object.keys(outcomeButtons) as RequestOutcome[])
            .filter((outcome) => request.outcomes.includes(outcome))
            .map((outcome, index) => (
              <button
                key={outcome}
                type="button"
                aria-haspopup="dialog"
                onClick={() => setChoice(outcome)}
                className={
                  outcome === 'decline'
                    ? `${buttonClass('secondary')} border-danger/40! text-danger! hover:bg-danger-soft!`
                    : buttonClass(index === 0 ? 'primary' : 'secondary')
                }
              >
                {outcomeButtons[outcome]}
              </button>
            ))}
        </div>
      ) : null}
      <Dialog
        open={choice !== null}
        onClose={() => setChoice(null)}
        // A decision removes the buttons: focus goes to the panel's heading.
        returnFocusTo={() => document.getElementById('request-title')}
        variant="modal"
        size="md"
      >
        {choice ? (
          <DecisionForm
            key={choice}
            request={request}
            threadId={threadId}
            choice={choice}
            onClose={() => setChoice(null)}
          />
        ) : null}
      </Dialog>
    </section>
  );
}

const MessageSchema = z.object({ message: DecisionMessageSchema });

const todayIso = () => format(new Date(), 'yyyy-MM-dd');

const dialogCopy: Record<RequestOutcome, { title: string; description: string; submit: string }> = {
  refill_date: {
    title: 'Send the next refill early?',
    description:
      'The refill plan’s next refill moves to this date: it is charged and sent to the pharmacy then, and the later refills follow a month apart from it. The patient reads your message in Messages.',
    submit: 'Move the refill',
  },
  new_prescription: {
    title: 'Prescribe a change?',
    description:
      'The new prescription replaces the current one, which the pharmacy cancels. The refill plan continues under it on its dates and price: its next refill is the new prescription’s first fill.',
    submit: 'Prescribe and tell the patient',
  },
  decline: {
    title: 'Decline this request?',
    description:
      'Nothing changes in the prescription or the refill plan. The patient reads your reason in Messages, where they can reply.',
    submit: 'Decline request',
  },
  answer: {
    title: 'Answer with a message?',
    description:
      'The request is closed as answered; nothing changes in the prescription or the refill plan. The patient reads your answer in Messages, where they can reply.',
    submit: 'Send answer',
  },
};

function DecisionForm({
  request,
  threadId,
  choice,
  onClose,
}: {
  request: ProviderRequest;
  threadId: number;
  choice: RequestOutcome;
  onClose: () => void;
}) {
  const [alert, setAlert] = useState<string | null>(null);
  const mutation = useDecideRequest(threadId);
  const decide = (decision: RequestDecision, place: (error: unknown) => boolean) => {
    setAlert(null);
    mutation.mutate(decision, {
      onSuccess: onClose,
      onError: (error) => {
        if (place(error)) return;
        // Only the error's name and message: never the prescription or the message.
        if (!(error instanceof ApiError)) reportError(error, 'error', 'staff-request-decision');
        setAlert(errorText(error));
      },
    });
  };
  const copy = dialogCopy[choice];
  const props = { request, pending: mutation.isPending, onCancel: onClose, submit: copy.submit };
  return (
    <DialogFrame title={copy.title} description={copy.description} alert={alert}>
      {choice === 'refill_date' ? (
        <RefillDateForm
          {...props}
          onSubmit={(values, place) =>
            decide({ request_id: request.id, outcome: 'refill_date', ...values }, place)
          }
        />
      ) : choice === 'new_prescription' ? (
        <NewPrescriptionForm
          {...props}
          onSubmit={({ message, ...prescription }, place) =>
            decide(
              { request_id: request.id, outcome: 'new_prescription', prescription, message },
              place,
            )
          }
        />
      ) : (
        <MessageForm
          {...props}
          label={choice === 'decline' ? 'Reason the patient sees' : 'Your answer'}
          onSubmit={(values, place) =>
            decide({ request_id: request.id, outcome: choice, ...values }, place)
          }
        />
      )}
    </DialogFrame>
  );
}

interface FormProps<T> {
  request: ProviderRequest;
  pending: boolean;
  submit: string;
  onCancel: () => void;
  onSubmit: (values: T, place: (error: unknown) => boolean) => void;
}

/** The provider's words to the patient, which come with every decision. */
function MessageField<T extends { message: string }>({
  label,
  register,
  errors,
}: {
  label: string;
  register: UseFormRegister<T>;
  errors: FieldErrors<T>;
}) {
  const field = register as unknown as UseFormRegister<{ message: string }>;
  const error = (errors as FieldErrors<{ message: string }>).message?.message;
  return (
    <div>
      <label htmlFor="request-message" className="block text-[0.9375rem] font-medium text-ink">
        {label}
      </label>
      <p id="request-message-hint" className="mt-0.5 text-sm text-muted">
        The patient reads it in Messages. At least 10 characters.
      </p>
      <textarea
        id="request-message"
        rows={4}
        aria-invalid={error ? true : undefined}
        aria-describedby={`request-message-hint${error ? ' request-message-error' : ''}`}
        className={`${inputClass(Boolean(error))} mt-1.5 resize-y`}
        {...field('message')}
      />
      <FieldError id="request-message-error" message={error} />
    </div>
  );
}

function MessageForm({
  label,
  pending,
  submit,
  onCancel,
  onSubmit,
}: FormProps<{ message: string }> & { label: string }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({ resolver: zodResolver(MessageSchema), defaultValues: { message: '' } });
  const send = handleSubmit((values) =>
    onSubmit(values, (error) => applyApiError(error, setError, ['message']).placed),
  );
  return (
    <form onSubmit={(event) => void send(event)} noValidate>
      <MessageField label={label} register={register} errors={errors} />
      <DialogButtons pending={pending} onCancel={onCancel}>
        {submit}
      </DialogButtons>
    </form>
  );
}

const RefillDateSchema = MessageSchema.extend({
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Choose a date'),
});

function RefillDateForm({
  request,
  pending,
  submit,
  onCancel,
  onSubmit,
}: FormProps<z.output<typeof RefillDateSchema>>) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(RefillDateSchema),
    defaultValues: { date: todayIso(), message: '' },
  });
  const send = handleSubmit((values) =>
    onSubmit(values, (error) => applyApiError(error, setError, ['date', 'message']).placed),
  );
  return (
    <form onSubmit={(event) => void send(event)} noValidate className="space-y-4">
      <TextField
        label="Send the next refill on"
        hint={
          request.plan
            ? `Today or later, before ${mediumDate(request.plan.next_billing_date)} (its date now).`
            : 'Today or later.'
        }
        type="date"
        min={todayIso()}
        error={errors.date?.message}
        {...register('date')}
      />
      <MessageField label="Message to the patient" register={register} errors={errors} />
      <DialogButtons pending={pending} onCancel={onCancel}>
        {submit}
      </DialogButtons>
    </form>
  );
}

const NewPrescriptionSchema = PrescriptionFormSchema.extend(MessageSchema.shape);

function NewPrescriptionForm({
  request,
  pending,
  submit,
  onCancel,
  onSubmit,
}: FormProps<z.output<typeof NewPrescriptionSchema>>) {
  const current = request.prescription;
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<
    PrescriptionForm & { message: string },
    unknown,
    z.output<typeof NewPrescriptionSchema>
  >({
    resolver: zodResolver(NewPrescriptionSchema),
    // From the prescription the patient has: the provider changes what the request is about.
    defaultValues: {
      drug: current.drug,
      dosage: current.dosage,
      quantity: current.quantity,
      refills: current.refills,
      valid_until: format(addMonths(new Date(), 12), 'yyyy-MM-dd'),
      directions: current.directions ?? '',
      message: '',
    },
  });
  const send = handleSubmit((values) =>
    onSubmit(values, (error) => {
      if (!(error instanceof ApiError)) return false;
      return applyApiError(
        new ApiError(error.status, error.code, error.message, prescriptionFieldsOf(error.fields)),
        setError,
        [...prescriptionFieldNames, 'message'],
      ).placed;
    }),
  );
  return (
    <form onSubmit={(event) => void send(event)} noValidate className="space-y-4">
      <PrescriptionFields register={register} errors={errors} />
      <MessageField label="Message to the patient" register={register} errors={errors} />
      <DialogButtons pending={pending} onCancel={onCancel}>
        {submit}
      </DialogButtons>
    </form>
  );
}
