import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { paths } from '#shared/paths.ts';
import type { Subscription } from '#shared/subscriptions.ts';
import {
  CreateRequestSchema,
  EMERGENCY_NOTE,
  MAX_REQUEST_DETAILS,
  requestKindActions,
  requestKindNames,
  requestKinds,
  requestReasons,
  requestStatusLabels,
  type RequestKind,
  type RequestStatus,
  type TreatmentRequest,
} from '#shared/treatment-requests.ts';
import { FieldError, FormAlert, inputClass } from '#client/components/forms/fields.tsx';
import { applyApiError } from '#client/components/forms/form-errors.ts';
import { buttonClass, textLinkClass } from '#client/components/ui/button.ts';
import { Dialog, DialogHeader } from '#client/components/ui/dialog.tsx';
import { mediumDate } from '#client/components/ui/order-status.tsx';
import { SubmitButton } from '#client/components/ui/submit-button.tsx';
import { ApiError } from '#client/lib/api.ts';
import { useCreateTreatmentRequest, useTreatmentRequests } from '../treatment-requests.api.ts';

/** The most requests a card lists; the rest are in Messages. */
const SHOWN_REQUESTS = 3;

/** The tones of the subscription's own status badge: waiting, yes, no, and a plain answer. */
const statusTones: Record<RequestStatus, string> = {
  OPEN: 'bg-warning-soft text-warning ring-warning/20',
  APPROVED: 'bg-success-soft text-success ring-success/20',
  DECLINED: 'bg-danger-soft text-danger ring-danger/20',
  ANSWERED: 'bg-surface text-ink-soft ring-line',
};

function RequestStatusBadge({ status }: { status: RequestStatus }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-sm font-medium ring-1 ${statusTones[status]}`}
    >
      {requestStatusLabels[status]}
    </span>
  );
}

/**
 * What the patient may ask about this plan: nothing once it has ended (a renewal continues the
 * treatment), and no early refill when no refill is left to send early. The server refuses the same.
 */
function offeredKinds(subscription: Subscription): RequestKind[] {
  const refill = subscription.refill;
  if (!refill || subscription.status === 'CANCELLED' || subscription.status === 'COMPLETED')
    return [];
  return requestKinds.filter((kind) => kind !== 'early_refill' || refill.refills_remaining > 0);
}

/** The plan's requests, newest first (as the server sends them), the first few of them. */
function requestsOf(requests: TreatmentRequest[], subscriptionId: number): TreatmentRequest[] {
  return requests
    .filter((request) => request.subscription_id === subscriptionId)
    .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id)
    .slice(0, SHOWN_REQUESTS);
}

/**
 * Issue 29, on a prescription's refill plan: between visits the patient asks the provider for an
 * early refill or a change of dose, or reports a side effect, and follows each request's answer
 * here and in its conversation.
 */
export function TreatmentRequests({ subscription }: { subscription: Subscription }) {
  const headingId = `treatment-${subscription.id}-title`;
  const listHeadingId = `treatment-${subscription.id}-requests`;
  const heading = useRef<HTMLHeadingElement>(null);
  const [asking, setAsking] = useState<RequestKind | null>(null);
  const requests = useTreatmentRequests();
  const kinds = offeredKinds(subscription);
  const shown = requestsOf(requests.data ?? [], subscription.id);
  if (kinds.length === 0 && shown.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="mt-5 border-t border-line pt-4">
      <h3
        id={headingId}
        ref={heading}
        tabIndex={-1}
        className="font-sans text-base font-semibold text-ink outline-none"
      >
        Your treatment
      </h3>
      {kinds.length > 0 ? (
        <>
          <p className="mt-1 text-[0.9375rem] text-ink-soft">
            Questions between visits go to your provider, who usually replies within one business
            day.
          </p>
          <ul className="mt-3 grid grid-cols-1 gap-2 min-[420px]:grid-cols-2 sm:flex sm:flex-wrap">
            {kinds.map((kind) => (
              <li key={kind}>
                <button
                  type="button"
                  onClick={() => setAsking(kind)}
                  aria-haspopup="dialog"
                  className={`${buttonClass('secondary')} min-h-10! w-full px-4! text-sm sm:w-auto`}
                >
                  {requestKindActions[kind]}
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {requests.isError ? (
        <p className="mt-3 text-sm text-muted">We could not load your requests.</p>
      ) : null}
      {shown.length > 0 ? (
        <>
          <h4 id={listHeadingId} className="mt-4 text-sm font-semibold text-ink-soft">
            Your requests
          </h4>
          <ul aria-labelledby={listHeadingId} className="mt-2 space-y-2">
            {shown.map((request) => (
              <RequestItem key={request.id} request={request} />
            ))}
          </ul>
        </>
      ) : null}
      <RequestDialog
        subscription={subscription}
        kind={asking}
        onClose={() => setAsking(null)}
        returnFocusTo={() => heading.current}
      />
    </section>
  );
}

function RequestItem({ request }: { request: TreatmentRequest }) {
  const titleId = `treatment-request-${request.id}`;
  const day = request.created_at.slice(0, 10);
  return (
    <li className="rounded-2xl border border-line p-4">
      <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1.5">
        <p id={titleId} className="font-semibold text-ink">
          {requestKindNames[request.kind]}
        </p>
        <RequestStatusBadge status={request.status} />
      </div>
      <p className="mt-0.5 text-sm text-muted">
        Asked <time dateTime={day}>{mediumDate(day)}</time>
      </p>
      <p className="mt-1 text-sm text-ink-soft">{request.reason}</p>
      {request.outcome ? <p className="mt-2 text-[0.9375rem] text-ink">{request.outcome}</p> : null}
      <Link
        to={paths.messageThread(request.thread_id)}
        aria-describedby={titleId}
        className={`${textLinkClass} mt-1 inline-flex min-h-11 items-center text-sm`}
      >
        Read the conversation
      </Link>
    </li>
  );
}

interface RequestDialogProps {
  subscription: Subscription;
  /** What the patient asks for; null when the dialog is closed. */
  kind: RequestKind | null;
  onClose: () => void;
  /** Where focus goes on closing when the button that opened the dialog is gone. */
  returnFocusTo: () => HTMLElement | null;
}

function RequestDialog({ subscription, kind, onClose, returnFocusTo }: RequestDialogProps) {
  const id = useId();
  const planId = `${id}-plan`;
  const noteId = `${id}-emergency`;
  // A side effect report opens with what to do in an emergency, so a screen reader says it first.
  const describedBy = kind === 'side_effect' ? `${noteId} ${planId}` : undefined;
  return (
    <Dialog
      open={kind !== null}
      onClose={onClose}
      returnFocusTo={returnFocusTo}
      variant="modal"
      size="lg"
      layout="sections"
      aria-describedby={describedBy}
    >
      {kind ? (
        <>
          <DialogHeader
            title={requestKindActions[kind]}
            description={<span id={planId}>{subscription.name}</span>}
          />
          <div className="overflow-y-auto px-5 py-5 sm:px-6">
            {kind === 'side_effect' ? <EmergencyNote id={noteId} /> : null}
            <RequestForm
              key={`${subscription.id}-${kind}`}
              subscription={subscription}
              kind={kind}
              onClose={onClose}
            />
          </div>
        </>
      ) : null}
    </Dialog>
  );
}

/** Said before a side effect report: a request is read in hours, an emergency cannot wait. */
function EmergencyNote({ id }: { id: string }) {
  return (
    <div
      id={id}
      role="note"
      aria-label="In an emergency"
      className="mb-5 flex items-start gap-3 rounded-2xl border border-danger/25 bg-danger-soft p-4 text-[0.9375rem] text-ink"
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 20 20"
        fill="currentColor"
        className="mt-0.5 size-5 shrink-0 text-danger"
      >
        <path d="M8.56 2.9a1.66 1.66 0 0 1 2.88 0l6.62 11.5A1.66 1.66 0 0 1 16.62 17H3.38a1.66 1.66 0 0 1-1.44-2.5Zm1.44 3.85a.9.9 0 0 0-.9.9v3.6a.9.9 0 1 0 1.8 0v-3.6a.9.9 0 0 0-.9-.9Zm0 8.1a1.05 1.05 0 1 0 0-2.1 1.05 1.05 0 0 0 0 2.1Z" />
      </svg>
      <p className="font-semibold">{EMERGENCY_NOTE}</p>
    </div>
  );
}

type RequestInput = z.input<typeof CreateRequestSchema>;
type RequestBody = z.output<typeof CreateRequestSchema>;

const optionClass =
  'flex min-h-11 cursor-pointer items-start gap-3 rounded-2xl border border-line bg-white px-4 py-3 transition-colors hover:border-accent-400 has-checked:border-accent-600 has-checked:bg-accent-50 has-checked:ring-1 has-checked:ring-accent-600';

/** Whether the server's refusal names this field. */
function hasField(error: unknown, name: string): boolean {
  return error instanceof ApiError && Boolean(error.fields[name]);
}

function RequestForm({
  subscription,
  kind,
  onClose,
}: {
  subscription: Subscription;
  kind: RequestKind;
  onClose: () => void;
}) {
  const id = useId();
  const reasonErrorId = `${id}-reason-error`;
  const detailsId = `${id}-details`;
  const reasons = requestReasons[kind];
  const firstReasonId = `${id}-reason-${reasons[0]?.value ?? ''}`;
  const [alert, setAlert] = useState<string | null>(null);
  const create = useCreateTreatmentRequest();
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<RequestInput, unknown, RequestBody>({
    // The contract's own schema: the same messages whichever side catches a mistake.
    resolver: zodResolver(CreateRequestSchema),
    // The first field with a problem takes focus: for the reason, its first choice (the form's
    // own focus would land on none of them).
    shouldFocusError: false,
    defaultValues: { subscription_id: subscription.id, kind, reason: '', details: '' },
  });
  const focusReason = () => document.getElementById(firstReasonId)?.focus();
  useEffect(() => {
    document.getElementById(firstReasonId)?.focus();
  }, [firstReasonId]);

  const fields = ['reason', 'details'] as const;
  const submit = handleSubmit(
    async (values) => {
      setAlert(null);
      try {
        await create.mutateAsync(values);
        onClose();
      } catch (error) {
        const outcome = applyApiError(error, setError, [...fields]);
        if (!outcome.placed) setAlert(outcome.message);
        if (hasField(error, 'reason')) focusReason();
      }
    },
    (invalid) => {
      if (invalid.reason) focusReason();
      else if (invalid.details) setFocus('details');
    },
  );

  const reasonError = errors.reason?.message;
  const detailsError = errors.details?.message;
  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="space-y-5">
      {alert ? <FormAlert>{alert}</FormAlert> : null}
      <fieldset aria-describedby={reasonError ? reasonErrorId : undefined}>
        <legend className="font-sans text-base font-semibold text-ink">
          {kind === 'side_effect' ? 'How bad is it?' : 'Why are you asking?'}
        </legend>
        <div className="mt-2.5 grid gap-2.5">
          {reasons.map((reason) => (
            <label key={reason.value} className={optionClass}>
              <input
                id={`${id}-reason-${reason.value}`}
                type="radio"
                value={reason.value}
                aria-invalid={reasonError ? true : undefined}
                className="mt-0.5 size-5 shrink-0 accent-accent-700"
                {...register('reason')}
              />
              <span className="min-w-0 text-[0.9375rem] text-ink">{reason.label}</span>
            </label>
          ))}
        </div>
        <FieldError id={reasonErrorId} message={reasonError} />
      </fieldset>
      <div>
        <label htmlFor={detailsId} className="block text-[0.9375rem] font-medium text-ink">
          Tell your provider more
        </label>
        <p id={`${detailsId}-hint`} className="mt-0.5 text-sm text-muted">
          What is happening, since when, and anything you have tried. Up to{' '}
          {MAX_REQUEST_DETAILS.toLocaleString('en-US')} characters.
        </p>
        <textarea
          id={detailsId}
          rows={5}
          aria-invalid={detailsError ? true : undefined}
          aria-describedby={`${detailsId}-hint${detailsError ? ` ${detailsId}-error` : ''}`}
          className={`${inputClass(Boolean(detailsError))} mt-1.5 resize-y`}
          {...register('details')}
        />
        <FieldError id={`${detailsId}-error`} message={detailsError} />
      </div>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button type="button" onClick={onClose} className={buttonClass('ghost')}>
          Cancel
        </button>
        <SubmitButton pending={isSubmitting}>Send to my provider</SubmitButton>
      </div>
    </form>
  );
}
