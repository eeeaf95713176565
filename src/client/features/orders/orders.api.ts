import { useQuery, type QueryClient } from '@tanstack/react-query';
import { cacheKeys } from '#shared/constants.ts';
import { ordersApi } from '#shared/orders.ts';
import { visitsApi } from '#shared/visits.ts';
import { call } from '#client/lib/api.ts';

export const orderKeys = {
  details: (leadsId: string) => ['/account/orders', leadsId] as const,
  pending: (leadsId: string) => ['/account/pendingorders', leadsId] as const,
};

/**
 * An order was placed or an online visit paid: what the member area shows of the customer's orders
 * is out of date — the order history, the visits still pending, and the attention flags and card
 * on Home and Accounts. Marked stale, each is fetched again when next shown (a view opened within
 * the queries' 30 s of freshness would otherwise miss the new order).
 */
export function refreshOrderViews(queryClient: QueryClient): void {
  for (const key of [
    orderKeys.details('')[0],
    orderKeys.pending('')[0],
    '/account/basics',
    cacheKeys.accountData,
    cacheKeys.patientData,
  ])
    void queryClient.invalidateQueries({ queryKey: [key] });
}

/** Spec §7 "Orders details": the answer's message becomes the lander, order history inside. */
export function useOrdersDetails(leadsId: string) {
  return useQuery({
    queryKey: orderKeys.details(leadsId),
    queryFn: ({ signal }) => call(ordersApi.ordersDetails, { body: { leads_id: leadsId }, signal }),
  });
}

/** Spec §7 "Pending orders": online visits started and not finished ("a data list"). */
export function usePendingOrders(leadsId: string) {
  return useQuery({
    queryKey: orderKeys.pending(leadsId),
    queryFn: ({ signal }) => call(visitsApi.pendingOrders, { body: { leads_id: leadsId }, signal }),
  });
}
