import { useInfiniteQuery, useQuery, type QueryClient } from '@tanstack/react-query';
import { cacheKeys } from '#shared/constants.ts';
import { ordersApi } from '#shared/orders.ts';
import { call } from '#client/lib/api.ts';

export const orderKeys = {
  details: (leadsId: string) => ['/account/orders', leadsId] as const,
  order: (leadsId: string, orderNumber: string) =>
    ['/account/orders', leadsId, 'order', orderNumber] as const,
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

/**
 * Spec §7 "Orders details": the answer's message becomes the lander, one page of the order history
 * inside; `fetchNextPage` asks for the next, older page (refetching asks for every page shown again,
 * each after the one before, so a new order neither hides nor repeats one).
 */
export function useOrdersDetails(leadsId: string) {
  return useInfiniteQuery({
    queryKey: orderKeys.details(leadsId),
    queryFn: ({ signal, pageParam }) =>
      call(ordersApi.ordersDetails, {
        body: { leads_id: leadsId, ...(pageParam ? { cursor: pageParam } : {}) },
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => (page.has_more ? page.next_cursor : null),
  });
}

/**
 * One of the customer's orders by its number, wherever it is in the history (`/orders#<number>`,
 * a receipt); not found for a number that is not theirs.
 */
export function useOrder(
  leadsId: string,
  orderNumber: string,
  options: { enabled?: boolean } = {},
) {
  return useQuery({
    queryKey: orderKeys.order(leadsId, orderNumber),
    queryFn: async ({ signal }) =>
      (
        await call(ordersApi.order, {
          body: { leads_id: leadsId, order_number: orderNumber },
          signal,
        })
      ).order,
    enabled: (options.enabled ?? true) && orderNumber !== '',
  });
}

/** Spec §7 "Pending orders": online visits started and not finished ("a data list"). */
