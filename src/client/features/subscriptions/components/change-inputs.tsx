import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { MAX_QUANTITY } from '#shared/cart.ts';
import { bottleCount, bottlesPerDelivery } from '#shared/catalog.ts';
import {
  MAX_MOVE_DAYS,
  MAX_PAUSE_DAYS,
  type Subscription,
  type SubscriptionChange,
} from '#shared/subscriptions.ts';
import {
  FieldError,
  inputClass,
  SelectField,
  TextField,
} from '#client/components/forms/fields.tsx';
import { buttonClass } from '#client/components/ui/button.ts';
import { mediumDate } from '#client/components/ui/order-status.tsx';
import { cancelReasons, dateRange, deliveryText } from '../subscription-actions.ts';

interface InputProps {
  subscription: Subscription;
  onReview: (change: SubscriptionChange) => void;
  onCancel: () => void;
}

/** The two buttons under every input step: review the change (the preview) or leave. */
function InputActions({ onCancel }: { onCancel: () => void }) {
  return (
    <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
      <button type="button" onClick={onCancel} className={buttonClass('ghost')}>
        Keep as is
      </button>
      <button type="submit" className={buttonClass('primary')}>
        Review change
      </button>
    </div>
  );
}

/**
 * A date after today and within the limit, in the words the server uses for the same rule
 * (`applySubscriptionChange`), so the customer reads one message whichever side catches it.
 */
function dateSchema(action: 'move_date' | 'pause', subscription: Subscription) {
  const { min, max } = dateRange(action);
  const until = subscription.refill?.valid_until;
  return z.object({
    date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'Choose a date')
      .refine((value) => value >= min, 'Choose a date after today.')
      .refine(
        (value) => value <= max,
        action === 'move_date'
          ? `Choose a date within the next ${MAX_MOVE_DAYS} days.`
          : `You can pause for up to ${MAX_PAUSE_DAYS} days.`,
      )
      .refine(
        (value) => until === undefined || value <= until,
        `Your prescription ends on ${until}. Choose an earlier date.`,
      ),
  });
}

export function DateChangeForm({
  action,
  subscription,
  onReview,
  onCancel,
}: InputProps & { action: 'move_date' | 'pause' }) {
  const range = dateRange(action);
  const until = subscription.refill?.valid_until;
  const { min } = range;
  // A refill cannot move past the end of its prescription.
  const max = until !== undefined && until < range.max ? until : range.max;
  const current = subscription.next_billing_date;
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(dateSchema(action, subscription)),
    defaultValues: {
      date: action === 'move_date' && current >= min && current <= max ? current : '',
    },
  });
  const onSubmit = handleSubmit(({ date }) =>
    onReview(action === 'move_date' ? { action, date } : { action, until: date }),
  );
  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <TextField
        type="date"
        label={action === 'move_date' ? 'New delivery date' : 'Pause until'}
        hint={
          action === 'move_date'
            ? `Any day from ${mediumDate(min)} to ${mediumDate(max)}. Later deliveries follow on from this date.`
            : `Up to ${MAX_PAUSE_DAYS} days, until ${mediumDate(max)} at the latest. Deliveries restart on this date.`
        }
        min={min}
        max={max}
        error={errors.date?.message}
        {...register('date')}
      />
      <InputActions onCancel={onCancel} />
    </form>
  );
}

export function QuantityForm({ subscription, onReview, onCancel }: InputProps) {
  const schema = z.object({
    quantity: z.coerce
      .number<string>()
      .int()
      .min(1, 'Choose a quantity')
      .max(MAX_QUANTITY, `You can order up to ${MAX_QUANTITY} at a time`)
      .refine(
        (value) => value !== subscription.quantity,
        `This subscription already brings ${deliveryText(subscription)}.`,
      ),
  });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(schema),
    defaultValues: { quantity: String(subscription.quantity) },
  });
  const onSubmit = handleSubmit(({ quantity }) =>
    onReview({ action: 'change_quantity', quantity }),
  );
  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <SelectField
        label="Bottles each delivery"
        error={errors.quantity?.message}
        {...register('quantity')}
      >
        {/* The plan's quantity, shown as the bottles it brings (a quarterly set is three). */}
        {Array.from({ length: MAX_QUANTITY }, (_, index) => index + 1).map((count) => (
          <option key={count} value={count}>
            {bottleCount(bottlesPerDelivery(subscription, count))}
          </option>
        ))}
      </SelectField>
      <InputActions onCancel={onCancel} />
    </form>
  );
}

export function SwapForm({ subscription, onReview, onCancel }: InputProps) {
  const schema = z.object({ product_id: z.string().min(1, 'Choose another supplement.') });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(schema),
    defaultValues: { product_id: String(subscription.swap_options[0]?.product_id ?? '') },
  });
  const onSubmit = handleSubmit(({ product_id }) =>
    onReview({ action: 'swap', product_id: Number(product_id) }),
  );
  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <SelectField label="Switch to" error={errors.product_id?.message} {...register('product_id')}>
        {subscription.swap_options.map((option) => (
          <option key={option.product_id} value={option.product_id}>
            {option.name}
          </option>
        ))}
      </SelectField>
      <p className="mt-2 text-sm text-muted">
        Same delivery schedule and quantity; the price is the new supplement's.
      </p>
      <InputActions onCancel={onCancel} />
    </form>
  );
}

const CancelSchema = z
  .object({
    reason: z.string(),
    details: z.string().trim().max(400, 'Keep it under 400 characters'),
  })
  .superRefine((values, context) => {
    if (!values.reason)
      context.addIssue({
        code: 'custom',
        path: ['reason'],
        message: 'Tell us why you are cancelling',
      });
    else if (values.reason === 'Other' && !values.details)
      context.addIssue({
        code: 'custom',
        path: ['details'],
        message: 'Tell us why you are cancelling',
      });
  });

/** The reason as the server stores it: the chosen reason, then the customer's own words. */
function cancelReason(reason: string, details: string): string {
  if (reason === 'Other') return details;
  return details ? `${reason}: ${details}` : reason;
}

export function CancelForm({ onReview, onCancel }: InputProps) {
  const detailsId = useId();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(CancelSchema),
    defaultValues: { reason: '', details: '' },
  });
  const onSubmit = handleSubmit(({ reason, details }) =>
    onReview({ action: 'cancel', reason: cancelReason(reason, details) }),
  );
  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-5">
      <SelectField
        label="Why are you cancelling?"
        error={errors.reason?.message}
        {...register('reason')}
      >
        <option value="">Choose a reason</option>
        {cancelReasons.map((reason) => (
          <option key={reason} value={reason}>
            {reason}
          </option>
        ))}
      </SelectField>
      <div>
        <label htmlFor={detailsId} className="block text-[0.9375rem] font-medium text-ink">
          Anything else you'd like us to know?
        </label>
        <p id={`${detailsId}-hint`} className="mt-0.5 text-sm text-muted">
          Optional, unless you chose Other.
        </p>
        <textarea
          id={detailsId}
          rows={3}
          aria-invalid={errors.details ? true : undefined}
          aria-describedby={`${detailsId}-hint${errors.details ? ` ${detailsId}-error` : ''}`}
          className={`${inputClass(Boolean(errors.details))} mt-1.5 resize-y`}
          {...register('details')}
        />
        <FieldError id={`${detailsId}-error`} message={errors.details?.message} />
      </div>
      <InputActions onCancel={onCancel} />
    </form>
  );
}
