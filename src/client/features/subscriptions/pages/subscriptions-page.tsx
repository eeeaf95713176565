import { useState } from 'react';
import { Link } from 'react-router';
import { buttonClass } from '#client/components/ui/button.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
import {
  AccountHeader,
  useMemberData,
} from '#client/features/accounts/components/account-layout.tsx';
import { paths } from '#shared/paths.ts';
import { ChangeDialog } from '../components/change-dialog.tsx';
import { SubscriptionCard, subscriptionCardId } from '../components/subscription-card.tsx';
import { useSubscriptions } from '../subscriptions.api.ts';
import type { ChangeAction } from '#shared/subscriptions.ts';

/**
 * /subscriptions (spec §2): every subscription with its price, schedule, card and status, and
 * the changes a customer can make, each confirmed against the server's preview.
 */
export function SubscriptionsPage() {
  const { leadsId } = useMemberData();
  const subscriptions = useSubscriptions(leadsId);
  const [open, setOpen] = useState<{ id: number; action: ChangeAction } | null>(null);
  const target = open ? subscriptions.data?.find((item) => item.id === open.id) : undefined;

  return (
    <>
      <AccountHeader
        title="Subscriptions"
        subtitle="Change how often your gummies arrive, skip or move a delivery, pause, or cancel any time."
      />
      <QueryView query={subscriptions} loading="Loading your subscriptions…">
        {(list) =>
          list.length === 0 ? (
            <div className="rounded-3xl border border-line bg-white p-5 shadow-[0_1px_2px_rgba(15,37,51,0.04)] sm:p-6">
              <h2 className="text-xl text-ink">No subscriptions yet</h2>
              <p className="mt-2 text-ink-soft">
                Choose monthly or quarterly delivery on any of our gummies and they arrive on their
                own, for less than ordering each time. You can skip, pause or cancel whenever you
                like.
              </p>
              <Link to={paths.shop} className={`${buttonClass('primary')} mt-4`}>
                Shop supplements
              </Link>
            </div>
          ) : (
            <ul className="space-y-5">
              {list.map((subscription) => (
                <li key={subscription.id}>
                  <SubscriptionCard
                    subscription={subscription}
                    onAction={(action) => setOpen({ id: subscription.id, action })}
                  />
                </li>
              ))}
            </ul>
          )
        }
      </QueryView>
      {target && open ? (
        <ChangeDialog
          leadsId={leadsId}
          subscription={target}
          action={open.action}
          onClose={() => setOpen(null)}
          // Focus goes back to the button that opened the dialog; a change can take that button
          // away (Cancel, Resume, Reactivate), and then the card itself takes focus.
          returnFocusTo={() => document.getElementById(subscriptionCardId(target.id))}
        />
      ) : null}
    </>
  );
}
