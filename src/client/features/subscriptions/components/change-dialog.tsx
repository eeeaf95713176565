import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { messages } from '#shared/wording.ts';
import { formatCents, priceLabel } from '#shared/money.ts';
import {
  MAX_PAUSE_DAYS,
  subscriptionStatusLabels,
  type ChangeAction,
  type Subscription,
  type SubscriptionChange,
} from '#shared/subscriptions.ts';
import { FormAlert } from '#client/components/forms/fields.tsx';
import { buttonClass } from '#client/components/ui/button.ts';
import { Dialog, DialogHeader } from '#client/components/ui/dialog.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { mediumDate } from '#client/components/ui/order-status.tsx';
import { errorText } from '#client/lib/api.ts';
import {
  isSubscriptionChanged,
  subscriptionKeys,
  useChangePreview,
  useChangeSubscription,
} from '../subscriptions.api.ts';
import {
  actionTitle,
  availableActions,
  deliveryText,
  immediateChange,
} from '../subscription-actions.ts';
import { CancelForm, DateChangeForm, QuantityForm, SwapForm } from './change-inputs.tsx';

/** An ApiError's message is the server's reason; anything else gets spec §8's wording. */
const failureMessage = (error: unknown) => errorText(error, messages.subscriptionFailed);

interface ChangeDialogProps {
  leadsId: string;
  subscription: Subscription;
  /** The change being made; null when the dialog is closed. */
  action: ChangeAction | null;
  onClose: () => void;
  /** Where focus goes on closing when the button that opened the dialog is gone. */
  returnFocusTo?: () => HTMLElement | null;
}

/**
 * Every change to a subscription goes through here: what the customer wants (a date, a quantity,
 * a reason) when the change needs it, then the server's preview of the new price and next date,
 * then 'Confirm'. The card shows the saved state as soon as the server answers.
 */
export function ChangeDialog({
  leadsId,
  subscription,
  action,
  onClose,
  returnFocusTo,
}: ChangeDialogProps) {
  return (
    <Dialog
      open={action !== null}
      onClose={onClose}
      returnFocusTo={returnFocusTo}
      variant="modal"
      size="lg"
      layout="sections"
    >
      {action ? (
        <ChangeFlow
          key={`${subscription.id}-${action}`}
          leadsId={leadsId}
          subscription={subscription}
          action={action}
          onClose={onClose}
        />
      ) : null}
    </Dialog>
  );
}

function ChangeFlow({
  leadsId,
  subscription,
  action,
  onClose,
}: Omit<ChangeDialogProps, 'returnFocusTo'> & { action: ChangeAction }) {
  const queryClient = useQueryClient();
  // Before a cancellation, the changes that keep the subscription: skip one delivery, or pause.
  const offers = action === 'cancel' ? saveOffers(subscription) : [];
  const [offering, setOffering] = useState(offers.length > 0);
  // The change under way: the one the dialog opened for, or a save offer the customer took.
  const [current, setCurrent] = useState<ChangeAction>(action);
  const first = immediateChange(current, subscription);
  // A change that needs no input is previewed as soon as the dialog opens.
  const [change, setChange] = useState<SubscriptionChange | null>(offering ? null : first);
  const [confirmAlert, setConfirmAlert] = useState<string | null>(null);
  // The card's state the preview was made from, so "before" stays what the customer saw.
  const [before, setBefore] = useState(subscription);
  const content = useRef<HTMLDivElement>(null);
  const moved = useRef(false);
  // After the save offer, its buttons are gone: focus moves to the step that replaced them.
  useEffect(() => {
    if (!moved.current || offering || change) return;
    content.current?.querySelector<HTMLElement>('input, select, textarea, button')?.focus();
  }, [offering, current, change]);

  const choose = (next: ChangeAction | null) => {
    moved.current = true;
    setOffering(false);
    setConfirmAlert(null);
    const target = next ?? action;
    setCurrent(target);
    setChange(immediateChange(target, subscription));
  };

  const preview = useChangePreview(leadsId, subscription.id, change);
  const alert = preview.isError ? failureMessage(preview.error) : confirmAlert;
  const saving = useChangeSubscription(leadsId, subscription.id);
  const confirm = (next: SubscriptionChange) => {
    setConfirmAlert(null);
    saving.mutate(next, {
      onSuccess: onClose,
      onError: (error) => {
        setConfirmAlert(failureMessage(error));
        if (!isSubscriptionChanged(error)) return;
        // Someone else changed it (another tab, a renewal): the hook has reloaded the list, so
        // preview again from there.
        const fresh = queryClient
          .getQueryData<Subscription[]>(subscriptionKeys.list(leadsId))
          ?.find((item) => item.id === subscription.id);
        if (fresh) setBefore(fresh);
        // The conflict's message stays above the new preview, saying why it is shown again.
        void preview.refetch();
      },
    });
  };

  const review = (next: SubscriptionChange) => {
    setConfirmAlert(null);
    setChange(next);
  };
  const backToOffer =
    current !== action
      ? () => {
          setCurrent(action);
          setChange(null);
          setConfirmAlert(null);
          setOffering(true);
        }
      : null;
  const backToInput = first
    ? backToOffer
    : () => {
        setChange(null);
        setConfirmAlert(null);
      };

  let body: ReactNode;
  if (offering) {
    body = (
      <SaveOffer
        subscription={subscription}
        offers={offers}
        onChoose={choose}
        onKeep={onClose}
        onContinue={() => choose(null)}
      />
    );
  } else if (!change) {
    const inputProps = { subscription, onReview: review, onCancel: onClose };
    body =
      current === 'move_date' || current === 'pause' ? (
        <DateChangeForm action={current} {...inputProps} />
      ) : current === 'change_quantity' ? (
        <QuantityForm {...inputProps} />
      ) : current === 'swap' ? (
        <SwapForm {...inputProps} />
      ) : (
        <CancelForm {...inputProps} />
      );
  } else if (preview.isPending || preview.isFetching) {
    body = <Spinner block label="Checking the change…" />;
  } else if (preview.isSuccess) {
    body = (
      <Review
        before={before}
        after={preview.data}
        change={change}
        pending={saving.isPending}
        onConfirm={() => confirm(change)}
        onBack={backToInput ?? onClose}
        backLabel={backToInput ? 'Back' : 'Keep as is'}
      />
    );
  } else {
    body = (
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        {backToInput ? (
          <button type="button" onClick={backToInput} className={buttonClass('secondary')}>
            Back
          </button>
        ) : null}
        <button type="button" onClick={onClose} className={buttonClass('primary')}>
          Close
        </button>
      </div>
    );
  }

  return (
    <>
      <DialogHeader
        title={actionTitle(current, subscription)}
        description={`${subscription.name} · ${deliveryText(subscription).toLowerCase()}`}
      />
      <div ref={content} className="overflow-y-auto px-5 py-5 sm:px-6">
        {alert ? (
          <div className="mb-5">
            <FormAlert>{alert}</FormAlert>
          </div>
        ) : null}
        {body}
      </div>
    </>
  );
}

type SaveOfferAction = 'skip' | 'pause';

/** The changes offered instead of cancelling, when the subscription allows them. */
function saveOffers(subscription: Subscription): SaveOfferAction[] {
  const allowed = availableActions(subscription);
  return (['skip', 'pause'] as const).filter((action) => allowed.includes(action));
}

interface SaveOfferProps {
  subscription: Subscription;
  offers: SaveOfferAction[];
  onChoose: (action: SaveOfferAction) => void;
  onKeep: () => void;
  onContinue: () => void;
}

/**
 * Before a cancellation: a break may be all the customer needs. Skipping or pausing goes through
 * the usual review; cancelling is one more click away.
 */
function SaveOffer({ subscription, offers, onChoose, onKeep, onContinue }: SaveOfferProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  useEffect(() => heading.current?.focus(), []);
  const what = subscription.refill ? 'refill' : 'delivery';
  const details: Record<SaveOfferAction, { title: string; text: string }> = {
    skip: {
      title: 'Skip the next delivery',
      text: `Nothing ships or is charged on ${mediumDate(subscription.next_billing_date)}. The ${what} after it comes as usual.`,
    },
    pause: {
      title: 'Pause for a while',
      text: `Choose a date up to ${MAX_PAUSE_DAYS} days away. Nothing ships or is charged until then.`,
    },
  };
  return (
    <section aria-labelledby={headingId}>
      <h3
        id={headingId}
        ref={heading}
        tabIndex={-1}
        className="font-sans text-base font-semibold text-ink outline-none"
      >
        Need a break instead?
      </h3>
      <p className="mt-1 text-[0.9375rem] text-ink-soft">
        You can keep your subscription and take a break from it. You will see the change before
        anything is saved.
      </p>
      <ul className="mt-4 space-y-3">
        {offers.map((action) => (
          <li key={action}>
            <button
              type="button"
              onClick={() => onChoose(action)}
              aria-labelledby={`${headingId}-${action}-title`}
              aria-describedby={`${headingId}-${action}`}
              className="w-full rounded-2xl border border-line bg-white px-4 py-3 text-left transition hover:border-accent-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-600"
            >
              <span id={`${headingId}-${action}-title`} className="block font-semibold text-ink">
                {details[action].title}
              </span>
              <span id={`${headingId}-${action}`} className="mt-0.5 block text-sm text-muted">
                {details[action].text}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button type="button" onClick={onContinue} className={buttonClass('ghost')}>
          Continue to cancel
        </button>
        <button type="button" onClick={onKeep} className={buttonClass('primary')}>
          Keep my subscription
        </button>
      </div>
    </section>
  );
}

interface ReviewProps {
  before: Subscription;
  after: Subscription;
  change: SubscriptionChange;
  pending: boolean;
  onConfirm: () => void;
  onBack: () => void;
  backLabel: string;
}

/** What changes, side by side: the price and next date always, the rest when they change. */
function Review({ before, after, change, pending, onConfirm, onBack, backLabel }: ReviewProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The input step's button is gone: bring focus (and a screen reader) to the summary.
  useEffect(() => heading.current?.focus(), []);
  const cancelled = after.status === 'CANCELLED';
  const rows: { label: string; from: string; to: string; always?: boolean }[] = [
    { label: 'Supplement', from: before.name, to: after.name },
    // One row for how often and how many: quarterly brings three bottles a delivery, so switching
    // frequency changes the bottles too.
    { label: 'Each delivery', from: deliveryText(before), to: deliveryText(after) },
    {
      label: 'Price',
      from: priceLabel(before.price_cents, before.frequency),
      to: priceLabel(after.price_cents, after.frequency),
      always: true,
    },
    {
      label: 'Next billing date',
      from: before.status === 'CANCELLED' ? 'None' : mediumDate(before.next_billing_date),
      to: cancelled ? 'None' : mediumDate(after.next_billing_date),
      always: true,
    },
    {
      label: 'Status',
      from: subscriptionStatusLabels[before.status],
      to: subscriptionStatusLabels[after.status],
    },
  ];
  if (after.paused_until)
    rows.push({ label: 'Paused until', from: '—', to: mediumDate(after.paused_until) });
  const shown = rows.filter((row) => row.always || row.from !== row.to);

  return (
    <div>
      <h3
        ref={heading}
        tabIndex={-1}
        className="font-sans text-base font-semibold text-ink outline-none"
      >
        Review your change
      </h3>
      <dl className="mt-3 divide-y divide-line rounded-2xl border border-line">
        {shown.map((row) => {
          const changed = row.from !== row.to;
          return (
            <div key={row.label} className="grid gap-1 px-4 py-3 sm:grid-cols-[10rem_1fr]">
              <dt className="text-sm text-muted">{row.label}</dt>
              <dd className="text-[0.9375rem] text-ink">
                {changed ? (
                  <>
                    <span className="text-muted line-through decoration-muted/60">
                      <span className="sr-only">From </span>
                      {row.from}
                    </span>
                    <span aria-hidden="true" className="mx-2 text-muted">
                      →
                    </span>
                    <span className="font-semibold">
                      <span className="sr-only"> to </span>
                      {row.to}
                    </span>
                  </>
                ) : (
                  <span className="font-semibold">
                    {row.to}
                    <span className="sr-only"> (unchanged)</span>
                  </span>
                )}
              </dd>
            </div>
          );
        })}
      </dl>
      <p className="mt-4 text-sm text-ink-soft">{reviewNote(change, after)}</p>
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button type="button" onClick={onBack} className={buttonClass('ghost')}>
          {backLabel}
        </button>
        <button
          type="button"
          onClick={onConfirm}
          disabled={pending}
          aria-busy={pending || undefined}
          className={buttonClass('primary')}
        >
          {pending ? (
            <span
              aria-hidden="true"
              className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent"
            />
          ) : null}
          Confirm
        </button>
      </div>
    </div>
  );
}

function reviewNote(change: SubscriptionChange, after: Subscription): string {
  switch (change.action) {
    case 'cancel':
      return 'No more deliveries or charges. You can reactivate any time.';
    case 'pause':
      return `Nothing ships or is charged until ${mediumDate(after.next_billing_date)}.`;
    case 'skip':
      return 'The skipped delivery is not charged.';
    default:
      return `From ${mediumDate(after.next_billing_date)}, each delivery is charged ${formatCents(after.price_cents)} to your card on file.`;
  }
}
