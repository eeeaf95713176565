import { zodResolver } from '@hookform/resolvers/zod';
import { addMonths, format } from 'date-fns';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { DeclineVisitSchema, type Chart } from '#shared/reviews.ts';
import { preferredQuantity } from '#shared/visits.ts';
import { FieldError, inputClass } from '#client/components/forms/fields.tsx';
import { applyApiError } from '#client/components/forms/form-errors.ts';
import { buttonClass } from '#client/components/ui/button.ts';
import { Dialog } from '#client/components/ui/dialog.tsx';
import { ApiError, errorText } from '#client/lib/api.ts';
import { reportError } from '#client/lib/error-reporting.ts';
import { useDecideVisit } from '../reviews.api.ts';
import { DialogButtons, DialogFrame } from '#client/features/staff/components/dialog-form.tsx';
import {
  PrescriptionFields,
  prescriptionFieldNames,
  prescriptionFieldsOf,
  PrescriptionFormSchema,
  type PrescriptionForm,
  type PrescriptionValues,
} from './prescription-fields.tsx';

type Choice = 'approve' | 'decline';

const DeclineFormSchema = z.object({ reason: DeclineVisitSchema.shape.reason });

/**
 * Approve with a prescription or decline with a reason the patient sees, while the visit waits for
 * review. Each is confirmed in a dialog; the server's answer is the toast.
 */
export function VisitDecisionPanel({ chart }: { chart: Chart }) {
  const [choice, setChoice] = useState<Choice | null>(null);
  if (chart.status !== 'PENDING_REVIEW') return null;
  return (
    <section
      id="visit-decision"
      tabIndex={-1}
      aria-labelledby="decision-title"
      className="rounded-2xl border border-line bg-white p-5 shadow-[0_1px_2px_rgba(15,37,51,0.04)] outline-none focus-visible:ring-2 focus-visible:ring-accent-600"
    >
      <h2 id="decision-title" className="font-sans text-base font-semibold text-ink">
        Decision
      </h2>
      {chart.review_requested && !chart.renewal ? (
        <p className="mt-1 text-[0.9375rem] text-ink-soft">
          <strong className="font-semibold text-ink">
            The patient asked for a review after a knock-out answer.
          </strong>{' '}
          Their answers are as they gave them, and nothing is held on their card, so this visit
          can't be approved here. Write to them in Messages, or decline it with a reason they'll
          read.
        </p>
      ) : chart.renewal ? (
        <p className="mt-1 text-[0.9375rem] text-ink-soft">
          Nothing is held for a renewal. Approving writes the new prescription and continues the
          patient's refill plan on its dates; declining ends the plan after the supply already paid
          for and tells the patient why.
        </p>
      ) : (
        <p className="mt-1 text-[0.9375rem] text-ink-soft">
          The card is charged only if you approve. Declining releases the hold and tells the patient
          why.
        </p>
      )}
      <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        {chart.review_requested && !chart.renewal ? null : (
          <button
            type="button"
            aria-haspopup="dialog"
            className={buttonClass('primary')}
            onClick={() => setChoice('approve')}
          >
            Approve
          </button>
        )}
        <button
          type="button"
          aria-haspopup="dialog"
          className={`${buttonClass('secondary')} border-danger/40! text-danger! hover:bg-danger-soft!`}
          onClick={() => setChoice('decline')}
        >
          Decline
        </button>
      </div>
      <Dialog
        open={choice !== null}
        onClose={() => setChoice(null)}
        // A decision removes this panel with its buttons: focus goes to the page's heading.
        returnFocusTo={() => document.querySelector<HTMLElement>('#staff-main h1')}
        variant="modal"
        size="md"
      >
        {choice ? (
          <DecisionFlow
            key={choice}
            chart={chart}
            choice={choice}
            onClose={() => setChoice(null)}
          />
        ) : null}
      </Dialog>
    </section>
  );
}

function DecisionFlow({
  chart,
  choice,
  onClose,
}: {
  chart: Chart;
  choice: Choice;
  onClose: () => void;
}) {
  const [alert, setAlert] = useState<string | null>(null);
  const mutation = useDecideVisit(chart.visit_id);
  const decide = (
    decision: Parameters<typeof mutation.mutate>[0],
    place: (e: unknown) => boolean,
  ) => {
    setAlert(null);
    mutation.mutate(decision, {
      onSuccess: onClose,
      onError: (error) => {
        if (place(error)) return;
        // Only the error's name and message: never the prescription or the reason.
        if (!(error instanceof ApiError)) reportError(error, 'error', 'staff-visit-decision');
        setAlert(errorText(error));
      },
    });
  };
  return choice === 'approve' ? (
    <ApproveForm
      chart={chart}
      alert={alert}
      pending={mutation.isPending}
      onCancel={onClose}
      onSubmit={(prescription, place) => decide({ decision: 'approve', prescription }, place)}
    />
  ) : (
    <DeclineForm
      chart={chart}
      alert={alert}
      pending={mutation.isPending}
      onCancel={onClose}
      onSubmit={(reason, place) => decide({ decision: 'decline', reason }, place)}
    />
  );
}

interface FormProps<T> {
  chart: Chart;
  alert: string | null;
  pending: boolean;
  onCancel: () => void;
  onSubmit: (value: T, place: (error: unknown) => boolean) => void;
}

function ApproveForm({ chart, alert, pending, onCancel, onSubmit }: FormProps<PrescriptionValues>) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<PrescriptionForm, unknown, PrescriptionValues>({
    resolver: zodResolver(PrescriptionFormSchema),
    // A renewal starts from the prescription it renews; a first visit from what the patient chose
    // (a month's supply of it). The provider may change any of it.
    defaultValues: chart.renewal
      ? {
          drug: chart.renewal.renews.drug,
          dosage: chart.renewal.renews.dosage,
          quantity: chart.renewal.renews.quantity,
          refills: chart.renewal.renews.refills,
          valid_until: format(addMonths(new Date(), 12), 'yyyy-MM-dd'),
          directions: chart.renewal.renews.directions ?? '',
        }
      : {
          drug: chart.preferences.drug ?? '',
          dosage: chart.preferences.dosage ?? '',
          quantity:
            preferredQuantity(chart.category, chart.preferences) ?? ('' as unknown as number),
          refills: 0,
          valid_until: format(addMonths(new Date(), 12), 'yyyy-MM-dd'),
          directions: '',
        },
  });
  const submit = handleSubmit((prescription) =>
    onSubmit(prescription, (error) => {
      if (!(error instanceof ApiError)) return false;
      return applyApiError(
        new ApiError(error.status, error.code, error.message, prescriptionFieldsOf(error.fields)),
        setError,
        prescriptionFieldNames,
      ).placed;
    }),
  );
  return (
    <DialogFrame
      title={`Approve ${chart.patient.name}'s ${chart.renewal ? 'renewal' : 'visit'}?`}
      description={
        chart.renewal
          ? "The new prescription replaces the one renewed. Nothing is charged now: the refill plan goes on at its price and dates, billing the new prescription's first fill and then each refill. This cannot be undone."
          : "The card is charged and the prescription goes to the pharmacy; each refill ships and is billed monthly until the last one or the prescription's end. This cannot be undone."
      }
      alert={alert}
    >
      <form onSubmit={(event) => void submit(event)} noValidate className="space-y-4">
        <PrescriptionFields register={register} errors={errors} />
        <DialogButtons pending={pending} onCancel={onCancel}>
          Approve and prescribe
        </DialogButtons>
      </form>
    </DialogFrame>
  );
}

function DeclineForm({ chart, alert, pending, onCancel, onSubmit }: FormProps<string>) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({ resolver: zodResolver(DeclineFormSchema), defaultValues: { reason: '' } });
  const submit = handleSubmit(({ reason }) =>
    onSubmit(reason, (error) => applyApiError(error, setError, ['reason']).placed),
  );
  return (
    <DialogFrame
      title={`Decline ${chart.patient.name}'s ${chart.renewal ? 'renewal' : 'visit'}?`}
      description={
        chart.renewal
          ? 'Their refill plan ends after the supply already paid for, and the pharmacy fills no more of the prescription. The patient reads your reason in Messages, where they can reply.'
          : 'The hold on the card is released and nothing is charged. The patient reads your reason on their order and in Messages, where they can reply.'
      }
      alert={alert}
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <label htmlFor="decline-reason" className="block text-[0.9375rem] font-medium text-ink">
          Reason the patient sees
        </label>
        <p id="decline-reason-hint" className="mt-0.5 text-sm text-muted">
          At least 10 characters.
        </p>
        <textarea
          id="decline-reason"
          rows={4}
          aria-invalid={errors.reason ? true : undefined}
          aria-describedby={`decline-reason-hint${errors.reason ? ' decline-reason-error' : ''}`}
          className={`${inputClass(Boolean(errors.reason))} mt-1.5 resize-y`}
          {...register('reason')}
        />
        <FieldError id="decline-reason-error" message={errors.reason?.message} />
        <DialogButtons pending={pending} onCancel={onCancel}>
          Decline visit
        </DialogButtons>
      </form>
    </DialogFrame>
  );
}
