import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { AccountData } from '#shared/accounts.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { showToast } from '#client/components/ui/toast.tsx';
import { paths } from '#shared/paths.ts';
import { accountKeys, refreshMemberData, useAccountData } from '../accounts.api.ts';
import { AccountHeader, useMemberData } from '../components/account-layout.tsx';
import { AccountSection } from '../components/account-section.tsx';
import { CardForm } from '../components/card-form.tsx';
import { PaymentCard } from '../components/payment-card.tsx';

/** /accounts/editPaymentMethod: the card on file and a form to replace it (spec §2). */
export function EditPaymentMethodPage() {
  const { leadsId } = useMemberData();
  const account = useAccountData(leadsId);
  const queryClient = useQueryClient();
  const navigate = useNavigate();

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
            <AccountSection id="current-card" title="Card on file">
              <PaymentCard card={data.card} />
            </AccountSection>
            <AccountSection id="new-card" title="New card">
              <CardForm
                hasShippingAddress={data.shipping !== null}
                onSaved={async (card) => {
                  queryClient.setQueryData<AccountData>(
                    accountKeys.accountData(leadsId),
                    (cached) => (cached ? { ...cached, card } : cached),
                  );
                  showToast({
                    kind: 'success',
                    title: 'Payment method updated',
                    description: `${card.brand} ending in ${card.last4} is now your card on file.`,
                  });
                  void refreshMemberData(queryClient, leadsId);
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
