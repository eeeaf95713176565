import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { formatCents } from '#shared/money.ts';
import { RefundOrderSchema, ShipOrderSchema, type StaffOrderDetail } from '#shared/operations.ts';
import { applyApiError } from '#client/components/forms/form-errors.ts';
import { TextField } from '#client/components/forms/fields.tsx';
import { Dialog } from '#client/components/ui/dialog.tsx';
import { ApiError, errorText } from '#client/lib/api.ts';
import { reportError } from '#client/lib/error-reporting.ts';
import { useChangeOrder, type OrderAction } from '../operations.api.ts';
import { DialogButtons, DialogFrame } from '#client/features/staff/components/dialog-form.tsx';

export type OrderActionName = OrderAction['action'];

export const orderActionLabels: Record<OrderActionName, string> = {
  ship: 'Mark shipped',
  deliver: 'Mark delivered',
  refund: 'Refund',
  cancel: 'Cancel order',
};

/** What is left to refund. */
export function refundableCents(order: StaffOrderDetail): number {
  return Math.max(0, order.total_cents - order.refund_cents);
}

/** '12.5' or '12.50' → 1250; anything else is not an amount. */
export function dollarsToCents(value: string): number | null {
  const match = /^\s*\$?\s*(\d{1,7})(?:\.(\d{1,2}))?\s*$/.exec(value);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

interface OrderActionDialogProps {
  order: StaffOrderDetail;
  action: OrderActionName | null;
  onClose: () => void;
  /** Where focus goes on closing when the button that opened the dialog is gone. */
  returnFocusTo: () => HTMLElement | null;
}

/**
 * Each change to an order is confirmed here first: the tracking number to ship with, the amount
 * to refund, or a plain "are you sure". The server's answer is the toast.
 */
export function OrderActionDialog({
  order,
  action,
  onClose,
  returnFocusTo,
}: OrderActionDialogProps) {
  return (
    <Dialog
      open={action !== null}
      onClose={onClose}
      returnFocusTo={returnFocusTo}
      variant="modal"
      size="md"
    >
      {action ? <ActionFlow key={action} order={order} action={action} onClose={onClose} /> : null}
    </Dialog>
  );
}

function ActionFlow({
  order,
  action,
  onClose,
}: {
  order: StaffOrderDetail;
  action: OrderActionName;
  onClose: () => void;
}) {
  const [alert, setAlert] = useState<string | null>(null);
  const mutation = useChangeOrder(order.orders_id);
  const change = (next: OrderAction, place?: (error: unknown) => boolean) => {
    setAlert(null);
    mutation.mutate(next, {
      onSuccess: onClose,
      onError: (error) => {
        if (place?.(error)) return;
        if (!(error instanceof ApiError)) reportError(error, 'error', 'staff-order');
        setAlert(errorText(error));
      },
    });
  };

  const common = {
    order,
    pending: mutation.isPending,
    alert,
    onCancel: onClose,
  };
  switch (action) {
    case 'ship':
      return (
        <ShipForm
          {...common}
          onSubmit={(tracking, place) =>
            change({ action: 'ship', tracking_number: tracking }, place)
          }
        />
      );
    case 'refund':
      return (
        <RefundForm
          {...common}
          onSubmit={(refund, place) => change({ action: 'refund', ...refund }, place)}
        />
      );
    case 'deliver':
    case 'cancel':
      return <ConfirmOnly {...common} action={action} onConfirm={() => change({ action })} />;
  }
}

interface StepProps {
  order: StaffOrderDetail;
  pending: boolean;
  alert: string | null;
  onCancel: () => void;
}

const ShipFormSchema = z.object({ tracking_number: ShipOrderSchema.shape.tracking_number });

function ShipForm({
  order,
  pending,
  alert,
  onCancel,
  onSubmit,
}: StepProps & { onSubmit: (tracking: string, place: (error: unknown) => boolean) => void }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(ShipFormSchema),
    defaultValues: { tracking_number: '' },
  });
  const submit = handleSubmit(({ tracking_number }) =>
    onSubmit(
      tracking_number,
      (error) => applyApiError(error, setError, ['tracking_number']).placed,
    ),
  );
  return (
    <DialogFrame
      title={`Ship order ${order.order_number}`}
      description={`The customer is emailed the USPS tracking link for ${order.customer_name}'s order.`}
      alert={alert}
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <TextField
          label="Tracking number"
          hint="USPS, 10 to 34 letters and digits."
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          className="font-mono"
          error={errors.tracking_number?.message}
          {...register('tracking_number')}
        />
        <DialogButtons pending={pending} onCancel={onCancel}>
          Mark shipped
        </DialogButtons>
      </form>
    </DialogFrame>
  );
}

function RefundForm({
  order,
  pending,
  alert,
  onCancel,
  onSubmit,
}: StepProps & {
  onSubmit: (
    refund: { amount_cents: number; reason: string },
    place: (error: unknown) => boolean,
  ) => void;
}) {
  const left = refundableCents(order);
  const schema = z.object({
    reason: RefundOrderSchema.shape.reason,
    amount: z
      .string()
      .refine((value) => dollarsToCents(value) !== null, 'Enter an amount like 12.50')
      .refine((value) => (dollarsToCents(value) ?? 0) > 0, 'Enter the amount to refund')
      .refine(
        (value) => (dollarsToCents(value) ?? 0) <= left,
        `At most ${formatCents(left)} can be refunded.`,
      ),
  });
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(schema),
    // Nothing pre-filled: the amount and the reason are decided each time, not accepted by default.
    defaultValues: { amount: '', reason: '' },
  });
  const cents = dollarsToCents(useWatch({ control, name: 'amount' }));
  const submit = handleSubmit(({ amount, reason }) =>
    onSubmit({ amount_cents: dollarsToCents(amount) ?? 0, reason }, (error) => {
      // The server names the field in cents; the form asks in dollars.
      if (error instanceof ApiError && error.fields.amount_cents) {
        setError(
          'amount',
          { type: 'server', message: error.fields.amount_cents },
          { shouldFocus: true },
        );
        return true;
      }
      if (error instanceof ApiError && error.fields.reason) {
        setError('reason', { type: 'server', message: error.fields.reason }, { shouldFocus: true });
        return true;
      }
      return false;
    }),
  );
  return (
    <DialogFrame
      title={`Refund order ${order.order_number}`}
      description={
        <>
          {formatCents(left)} of {formatCents(order.total_cents)} is left to refund to the
          customer's card. A full refund marks the order Refunded. The customer is emailed a receipt
          with the amount (not the reason).
        </>
      }
      alert={alert}
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <TextField
          label="Amount (USD)"
          inputMode="decimal"
          autoComplete="off"
          error={errors.amount?.message}
          {...register('amount')}
        />
        <TextField
          label="Reason"
          autoComplete="off"
          hint="For the order's record, e.g. Arrived damaged"
          error={errors.reason?.message}
          {...register('reason')}
        />
        <DialogButtons pending={pending} onCancel={onCancel}>
          {cents !== null && cents > 0 && cents <= left ? `Refund ${formatCents(cents)}` : 'Refund'}
        </DialogButtons>
      </form>
    </DialogFrame>
  );
}

function ConfirmOnly({
  order,
  action,
  pending,
  alert,
  onCancel,
  onConfirm,
}: StepProps & { action: 'deliver' | 'cancel'; onConfirm: () => void }) {
  const left = refundableCents(order);
  const paid = order.payment_status === 'paid' && left > 0;
  return (
    <DialogFrame
      title={
        action === 'deliver'
          ? `Mark order ${order.order_number} delivered?`
          : `Cancel order ${order.order_number}?`
      }
      description={
        action === 'deliver'
          ? 'Use this once the package has reached the customer; they are emailed a link to the order.'
          : paid
            ? `${formatCents(left)} is refunded to the customer's card in full. This cannot be undone.`
            : 'Nothing was charged for this order. This cannot be undone.'
      }
      alert={alert}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onConfirm();
        }}
      >
        <DialogButtons
          pending={pending}
          onCancel={onCancel}
          cancelLabel={action === 'cancel' ? 'Keep order' : 'Go back'}
        >
          {orderActionLabels[action]}
        </DialogButtons>
      </form>
    </DialogFrame>
  );
}
