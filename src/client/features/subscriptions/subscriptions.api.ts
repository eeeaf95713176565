import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { messages } from '#shared/wording.ts';
import {
  subscriptionsApi,
  type Subscription,
  type SubscriptionChange,
} from '#shared/subscriptions.ts';
import { showToast } from '#client/components/ui/toast.tsx';
import { refreshMemberData } from '#client/features/accounts/accounts.api.ts';
import { call, callWithMessage, failedWith } from '#client/lib/api.ts';

export const subscriptionKeys = {
  list: (leadsId: string) => ['/account/subscriptions', leadsId] as const,
  preview: (leadsId: string, subscriptionId: number, change: SubscriptionChange | null) =>
    ['/subscription/update', 'preview', leadsId, subscriptionId, change] as const,
};

/** Spec §7 `/account/subscriptions/`: every subscription of the logged-in customer. */
export function useSubscriptions(leadsId: string) {
  return useQuery({
    queryKey: subscriptionKeys.list(leadsId),
    queryFn: ({ signal }) =>
      call(subscriptionsApi.subscriptions, { body: { leads_id: leadsId }, signal }).then(
        (data) => data.subscriptions,
      ),
  });
}

/**
 * What a change would do (the new price and next date), without doing it; asked once `change` is
 * known. A refusal is the query's error, with the server's reason; with no reason, spec §8's
 * 'Failed to update subscription.' The answer is for this dialog alone: it is asked again when
 * the dialog opens again, and only then (`refetch` after someone else changed the subscription).
 */
export function useChangePreview(
  leadsId: string,
  subscriptionId: number,
  change: SubscriptionChange | null,
) {
  return useQuery({
    queryKey: subscriptionKeys.preview(leadsId, subscriptionId, change),
    queryFn: ({ signal }) =>
      call(subscriptionsApi.subscriptionUpdate, {
        body: {
          leads_id: leadsId,
          subscription_id: subscriptionId,
          change: change as SubscriptionChange,
          preview: true,
        },
        signal,
        fallbackMessage: messages.subscriptionFailed,
      }).then((data) => data.subscription),
    enabled: change !== null,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
}

/**
 * Makes the change. The delivery frequency goes through spec §7's `/account/shipfrequency/`;
 * everything else through `/subscription/update/`. Both word what changed at run time (the new
 * date, the new price), so the toast is the server's message.
 */
async function applyChange(leadsId: string, subscriptionId: number, change: SubscriptionChange) {
  const fallbackMessage = messages.subscriptionFailed;
  const { data, message } =
    change.action === 'change_frequency'
      ? await callWithMessage(subscriptionsApi.shipFrequency, {
          body: { leads_id: leadsId, subscription_id: subscriptionId, frequency: change.frequency },
          fallbackMessage,
        })
      : await callWithMessage(subscriptionsApi.subscriptionUpdate, {
          body: { leads_id: leadsId, subscription_id: subscriptionId, change, preview: false },
          fallbackMessage,
        });
  return { subscription: data.subscription, message };
}

/**
 * Changes a subscription: the card shows the saved state at once and Home asks again. When
 * someone else changed it meanwhile (another tab, a renewal), the list is read again before the
 * caller's `onError` runs, so the dialog can preview from the fresh state.
 */
export function useChangeSubscription(leadsId: string, subscriptionId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: SubscriptionChange) => applyChange(leadsId, subscriptionId, change),
    onSuccess: ({ subscription, message }) => {
      storeSubscription(queryClient, leadsId, subscription);
      void refreshMemberData(queryClient, leadsId);
      showToast({ kind: 'success', title: 'Subscription updated', description: message });
    },
    onError: async (error) => {
      if (isSubscriptionChanged(error))
        await queryClient.invalidateQueries({ queryKey: subscriptionKeys.list(leadsId) });
    },
  });
}

/** Someone (another tab, the billing run) changed the subscription since this page loaded it. */
export function isSubscriptionChanged(error: unknown): boolean {
  return failedWith(error, subscriptionsApi.subscriptionUpdate, 'SUBSCRIPTION_CHANGED');
}

/** The saved subscription replaces the one in the list at once, before any reload. */
export function storeSubscription(
  queryClient: QueryClient,
  leadsId: string,
  subscription: Subscription,
): void {
  queryClient.setQueryData<Subscription[]>(subscriptionKeys.list(leadsId), (list) =>
    list?.map((item) => (item.id === subscription.id ? subscription : item)),
  );
}
