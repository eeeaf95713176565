import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { AccountData, CardSummary, PaymentRetry } from '#shared/accounts.ts';
import { formatCents } from '#shared/money.ts';
import { site } from '#shared/site.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { showToast } from '#client/components/ui/toast.tsx';
import { textLinkClass } from '#client/components/ui/button.ts';
import { paths } from '#shared/paths.ts';
import { accountKeys, refreshMemberData, useAccountData } from '../accounts.api.ts';
import { AccountHeader, useMemberData } from '../components/account-layout.tsx';
import { AccountSection } from '#client/components/ui/account-section.tsx';
import { CardForm } from '../components/card-form.tsx';
import { PaymentCard } from '#client/components/ui/payment-card.tsx';

interface Saved {
  card: CardSummary;
  retries: PaymentRetry[];
}

/**
 * /accounts/editPaymentMethod: the card on file and a form to replace it (spec §2). A card saved
 * while a payment had failed is charged for that order at once; the page then stays and says
 * plainly whether the order was charged (how much, which order) or not, and why.
 */
export function EditPaymentMethodPage() {
  const { leadsId } = useMemberData();
  const account = useAccountData(leadsId);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [saved, setSaved] = useState<Saved | null>(null);

  return (
    <>
      <AccountHeader
        title="Update payment method"
        subtitle="The new card is used for your next order and every active subscription."
        link={{ to: paths.accounts, label: 'Back to Accounts' }}
      />
      <QueryView query={account} loading="Loading your payment method…">
        {(data) => (
          <div className="space-y-6">
            {saved ? <RetryResults saved={saved} /> : null}
            <AccountSection id="current-card" title="Card on file">
              <PaymentCard card={data.card} />
            </AccountSection>
            <AccountSection id="new-card" title="New card">
              <CardForm
                hasShippingAddress={data.shipping !== null}
                onSaved={async ({ card, retries }) => {
                  queryClient.setQueryData<AccountData>(
                    accountKeys.accountData(leadsId),
                    (cached) => (cached ? { ...cached, card } : cached),
                  );
                  void refreshMemberData(queryClient, leadsId);
                  if (retries.length > 0) {
                    setSaved({ card, retries });
                    return;
                  }
                  showToast({
                    kind: 'success',
                    title: 'Payment method updated',
                    description: `${card.brand} ending in ${card.last4} is now your card on file.`,
                  });
                  await navigate(paths.accounts);
                }}
              />
            </AccountSection>
          </div>
        )}
      </QueryView>
    </>
  );
}

/** What one failed payment came to once charged again to the new card, in plain words. */
function retryText(retry: PaymentRetry, card: CardSummary): string {
  const amount = formatCents(retry.amount_cents);
  const cardName = `${card.brand} ending in ${card.last4}`;
  if (retry.outcome === 'paid')
    return `We charged ${amount} to your ${cardName} for order ${retry.order_number}. It is paid, and we will ship it soon.`;
  if (retry.outcome === 'failed')
    return `Order ${retry.order_number} (${amount}) was not charged: ${retry.reason ?? 'your card was declined.'} Your new card is saved, but the order is still unpaid. Try another card below, or contact us at ${site.supportEmail}.`;
  return `Order ${retry.order_number} (${amount}) is being charged to your ${cardName} right now. Orders shows the result in a moment.`;
}

/** The card's saving, and what became of each failed payment: focused, so it is read at once. */
function RetryResults({ saved }: { saved: Saved }) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => panel.current?.focus(), [saved]);
  const allPaid = saved.retries.every((retry) => retry.outcome === 'paid');
  const anyFailed = saved.retries.some((retry) => retry.outcome === 'failed');
  return (
    <div
      ref={panel}
      tabIndex={-1}
      role={anyFailed ? 'alert' : 'status'}
      aria-labelledby="retry-results-title"
      className={`rounded-2xl border p-5 outline-none focus-visible:ring-2 focus-visible:ring-accent-600 ${
        anyFailed ? 'border-danger/25 bg-danger-soft' : 'border-success/25 bg-success-soft'
      }`}
    >
      <h2 id="retry-results-title" className="font-sans text-lg font-semibold text-ink">
        {allPaid
          ? 'Card saved and your order is paid'
          : anyFailed
            ? 'Card saved, but your order was not charged'
            : 'Card saved'}
      </h2>
      <ul className="mt-2 space-y-2 text-[0.9375rem] text-ink">
        {saved.retries.map((retry) => (
          <li key={retry.order_number}>
            {retryText(retry, saved.card)}{' '}
            <Link to={paths.order(retry.order_number)} className={textLinkClass}>
              See order {retry.order_number}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
