import { Link } from 'react-router';
import { bottlesText } from '#shared/catalog.ts';
import { messages } from '#shared/wording.ts';
import { formatCents, priceLabel } from '#shared/money.ts';
import {
  subscriptionStatusLabels,
  type ChangeAction,
  type Subscription,
  type SubscriptionStatus,
} from '#shared/subscriptions.ts';
import { buttonClass, textLinkClass } from '#client/components/ui/button.ts';
import { mediumDate } from '#client/components/ui/order-status.tsx';
import { paths } from '#shared/paths.ts';
import { TreatmentRequests } from '#client/features/treatment-requests/components/treatment-requests.tsx';
import { actionLabel, availableActions, frequencyWords } from '../subscription-actions.ts';

const statusTones: Record<SubscriptionStatus, string> = {
  ACTIVE: 'bg-success-soft text-success ring-success/20',
  PAUSED: 'bg-warning-soft text-warning ring-warning/20',
  PAST_DUE: 'bg-danger-soft text-danger ring-danger/20',
  CANCELLED: 'bg-surface text-muted ring-line',
  COMPLETED: 'bg-surface text-ink-soft ring-line',
};

export function SubscriptionStatusBadge({ status }: { status: SubscriptionStatus }) {
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-sm font-medium ring-1 ${statusTones[status]}`}
    >
      {subscriptionStatusLabels[status]}
    </span>
  );
}

export const subscriptionCardId = (id: number) => `subscription-${id}`;

type Together = NonNullable<Subscription['together']>;

/** "Gift to Sam", "Gift from Alex", "Couples' plan with Sam": whose it is, by first name. */
export function togetherLabel(together: Together): string {
  if (together.kind === 'plan') return `Couples' plan with ${together.with_first_name}`;
  return together.role === 'payer'
    ? `Gift to ${together.with_first_name}`
    : `Gift from ${together.with_first_name}`;
}

/** What each delivery of a gift or plan holds, and for whom. */
function TogetherLines({
  subscription,
  together,
}: {
  subscription: Subscription;
  together: Together;
}) {
  return (
    <>
      {together.lines.map((line, index) => (
        <dd key={index} className="text-ink">
          {line.quantity > 1 ? `${line.quantity} × ` : ''}
          {line.name} for {line.for === 'you' ? 'you' : together.with_first_name}
        </dd>
      ))}
      <dd className="text-sm text-ink-soft">
        {together.kind === 'plan'
          ? `${frequencyWords[subscription.frequency]}, together in one box`
          : bottlesText(subscription, subscription.quantity)}
      </dd>
    </>
  );
}

interface SubscriptionCardProps {
  subscription: Subscription;
  onAction: (action: ChangeAction) => void;
}

/** One subscription: what ships, how often, for how much, when next, and what can change. */
export function SubscriptionCard({ subscription, onAction }: SubscriptionCardProps) {
  const headingId = `subscription-${subscription.id}-title`;
  const cancelled = subscription.status === 'CANCELLED';
  const ended = cancelled || subscription.status === 'COMPLETED';
  const refill = subscription.refill;
  const together = subscription.together;
  // Only the payer is billed: the other person is told who pays, never shown the card.
  const paidByOther = together !== null && together.role !== 'payer';
  // A gift or plan is managed on the partner page (decision 018), so it offers no change here.
  const actions = together ? [] : availableActions(subscription);
  const main = actions.filter((action) => action !== 'cancel');
  return (
    <article
      id={subscriptionCardId(subscription.id)}
      tabIndex={-1}
      aria-labelledby={headingId}
      className="rounded-3xl border border-line bg-white p-5 shadow-[0_1px_2px_rgba(15,37,51,0.04)] outline-none focus-visible:ring-2 focus-visible:ring-accent-600 sm:p-6"
    >
      <header className="flex gap-4">
        <img
          src={subscription.img}
          alt=""
          width={80}
          height={80}
          className={`size-16 shrink-0 rounded-2xl bg-surface object-cover ring-1 ring-line sm:size-20 ${ended ? 'opacity-60 grayscale' : ''}`}
        />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1.5">
            <h2 id={headingId} className="font-sans text-lg font-semibold text-ink">
              {subscription.name}
            </h2>
            <SubscriptionStatusBadge status={subscription.status} />
          </div>
          {together ? (
            <p className="text-[0.9375rem] font-semibold text-accent-700">
              {togetherLabel(together)}
            </p>
          ) : null}
          <p className="mt-1 text-xl font-semibold text-ink">
            {priceLabel(subscription.price_cents, subscription.frequency)}
          </p>
          {subscription.quantity > 1 && together?.kind !== 'plan' ? (
            <p className="text-sm text-muted">
              {subscription.quantity} × {formatCents(subscription.unit_price_cents)}
            </p>
          ) : null}
        </div>
      </header>

      {subscription.status === 'PAST_DUE' ? (
        <div role="alert" className="mt-5 rounded-2xl border border-danger/20 bg-danger-soft p-4">
          {paidByOther ? (
            <p className="text-[0.9375rem] text-ink">
              Payment due: {together.with_first_name} has been asked to update their card.
            </p>
          ) : (
            <>
              <p className="text-[0.9375rem] text-ink">{messages.paymentFailureNotice}</p>
              <Link to={paths.editPaymentMethod} className={`${buttonClass('primary')} mt-3`}>
                Update payment method
              </Link>
            </>
          )}
        </div>
      ) : null}

      <dl className="mt-5 grid gap-4 border-t border-line pt-4 text-[0.9375rem] sm:grid-cols-3">
        <div>
          <dt className="text-sm text-muted">{refill ? 'Prescription refills' : 'Delivery'}</dt>
          {refill ? (
            <>
              <dd className="text-ink">
                {frequencyWords[subscription.frequency]} ·{' '}
                {refill.refills_remaining === 1
                  ? '1 refill left'
                  : `${refill.refills_remaining} refills left`}
              </dd>
              <dd className="text-sm text-ink-soft">
                Prescription valid until{' '}
                <time dateTime={refill.valid_until}>{mediumDate(refill.valid_until)}</time>
              </dd>
            </>
          ) : together ? (
            <TogetherLines subscription={subscription} together={together} />
          ) : (
            <dd className="text-ink">{bottlesText(subscription, subscription.quantity)}</dd>
          )}
        </div>
        <div>
          <dt className="text-sm text-muted">
            {subscription.status === 'PAST_DUE'
              ? 'Payment due since'
              : paidByOther
                ? 'Next delivery'
                : 'Next billing date'}
          </dt>
          <dd className="font-semibold text-ink">
            {ended ? (
              'None'
            ) : (
              <time dateTime={subscription.next_billing_date}>
                {mediumDate(subscription.next_billing_date)}
              </time>
            )}
          </dd>
          {subscription.status === 'PAUSED' && subscription.paused_until ? (
            <dd className="text-sm text-ink-soft">
              Paused until{' '}
              <time dateTime={subscription.paused_until}>
                {mediumDate(subscription.paused_until)}
              </time>
            </dd>
          ) : null}
        </div>
        <div>
          <dt className="text-sm text-muted">Card</dt>
          <dd className="text-ink">
            {paidByOther ? (
              `Paid by ${together.with_first_name}`
            ) : subscription.card ? (
              <>
                {subscription.card.brand} <span aria-hidden="true">••••</span>
                <span className="sr-only">ending in</span> {subscription.card.last4}
              </>
            ) : (
              'No card on file'
            )}
          </dd>
          {subscription.status !== 'PAST_DUE' && !paidByOther ? (
            <dd className="mt-0.5 text-sm">
              <Link to={paths.editPaymentMethod} className={textLinkClass}>
                {subscription.card ? 'Change card' : 'Add a card'}
              </Link>
            </dd>
          ) : null}
        </div>
      </dl>

      {subscription.status === 'COMPLETED' ? (
        <p className="mt-4 rounded-2xl bg-surface p-4 text-[0.9375rem] text-ink-soft">
          Every refill of this prescription has been sent. To continue treatment,{' '}
          <Link to={paths.visit(subscription.category)} className={textLinkClass}>
            start a new visit
          </Link>{' '}
          so your provider can review it.
        </p>
      ) : null}

      {cancelled && subscription.cancel_reason ? (
        <p className="mt-4 rounded-2xl bg-surface p-4 text-[0.9375rem] text-ink-soft">
          <span className="font-semibold text-ink">You told us: </span>
          {subscription.cancel_reason}
        </p>
      ) : null}

      {refill ? <TreatmentRequests subscription={subscription} /> : null}

      {together ? (
        <div className="mt-5 border-t border-line pt-4">
          <Link to={paths.partner} className={`${textLinkClass} text-[0.9375rem]`}>
            Manage on your partner page
          </Link>
        </div>
      ) : null}

      {actions.length > 0 ? (
        <div className="mt-5 border-t border-line pt-4">
          <h3 className="sr-only">Manage {subscription.name}</h3>
          <ul className="grid grid-cols-1 gap-2 min-[420px]:grid-cols-2 sm:flex sm:flex-wrap">
            {main.map((action) => (
              <li key={action}>
                <button
                  type="button"
                  onClick={() => onAction(action)}
                  aria-haspopup="dialog"
                  className={`${buttonClass(action === 'reactivate' || action === 'resume' ? 'primary' : 'secondary')} min-h-10! w-full px-4! text-sm sm:w-auto`}
                >
                  {actionLabel(action, subscription)}
                </button>
              </li>
            ))}
          </ul>
          {actions.includes('cancel') ? (
            <button
              type="button"
              onClick={() => onAction('cancel')}
              aria-haspopup="dialog"
              className="mt-3 inline-flex min-h-11 items-center rounded-full px-1 text-sm font-semibold text-danger underline-offset-4 hover:underline"
            >
              Cancel subscription
            </button>
          ) : null}
        </div>
      ) : null}
    </article>
  );
}
