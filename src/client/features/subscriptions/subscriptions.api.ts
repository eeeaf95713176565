import { useQuery, type QueryClient } from '@tanstack/react-query';
import { apiPaths, v1Success } from '#shared/api.ts';
import { messages } from '#shared/messages.ts';
import {
  SubscriptionListSchema,
  SubscriptionUpdateResultSchema,
  type Subscription,
  type SubscriptionChange,
} from '#shared/subscriptions.ts';
import { ApiError, apiPost } from '#client/lib/api.ts';

export const subscriptionKeys = {
  list: (leadsId: string) => ['/account/subscriptions', leadsId] as const,
};

/** Spec §7 `/account/subscriptions/`: every subscription of the logged-in customer. */
export function useSubscriptions(leadsId: string) {
  return useQuery({
    queryKey: subscriptionKeys.list(leadsId),
    queryFn: ({ signal }) =>
      apiPost(apiPaths.subscriptions, v1Success(SubscriptionListSchema), {
        body: { leads_id: leadsId },
        signal,
      }).then((response) => response.data.subscriptions),
  });
}

export interface ChangeResult {
  subscription: Subscription;
  message: string;
}

/**
 * What a change would do (the new price and next date), without doing it. A refusal comes back
 * as an ApiError with the server's reason; with no reason, spec §8's 'Failed to update
 * subscription.'
 */
export async function previewChange(
  leadsId: string,
  subscriptionId: number,
  change: SubscriptionChange,
): Promise<ChangeResult> {
  const response = await apiPost(apiPaths.subscriptionUpdate, SubscriptionUpdateResultSchema, {
    body: { leads_id: leadsId, subscription_id: subscriptionId, change, preview: true },
    fallbackMessage: messages.subscriptionFailed,
  });
  return { subscription: response.data.subscription, message: response.message };
}

/**
 * Makes the change. The delivery frequency goes through spec §7's `/account/shipfrequency/`;
 * everything else through `/subscription/update/`.
 */
export async function applyChange(
  leadsId: string,
  subscriptionId: number,
  change: SubscriptionChange,
): Promise<ChangeResult> {
  const response =
    change.action === 'change_frequency'
      ? await apiPost(apiPaths.shipFrequency, SubscriptionUpdateResultSchema, {
          body: { leads_id: leadsId, subscription_id: subscriptionId, frequency: change.frequency },
          fallbackMessage: messages.subscriptionFailed,
        })
      : await apiPost(apiPaths.subscriptionUpdate, SubscriptionUpdateResultSchema, {
          body: { leads_id: leadsId, subscription_id: subscriptionId, change, preview: false },
          fallbackMessage: messages.subscriptionFailed,
        });
  return { subscription: response.data.subscription, message: response.message };
}

/** Someone (another tab, the billing run) changed the subscription since this page loaded it. */
export function isSubscriptionChanged(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409;
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
