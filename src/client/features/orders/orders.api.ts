import { useQuery } from '@tanstack/react-query';
import { apiPaths } from '#shared/api.ts';
import { OrdersDetailsResponseSchema } from '#shared/lander.ts';
import { PendingOrdersResponseSchema } from '#shared/telehealth.ts';
import { apiPost } from '#client/lib/api.ts';

export const orderKeys = {
  details: (leadsId: string) => ['/account/orders', leadsId] as const,
  pending: (leadsId: string) => ['/account/pendingorders', leadsId] as const,
};

/** Spec §7 "Orders details": the answer's message becomes the lander, order history inside. */
export function useOrdersDetails(leadsId: string) {
  return useQuery({
    queryKey: orderKeys.details(leadsId),
    queryFn: ({ signal }) =>
      apiPost(apiPaths.ordersDetails, OrdersDetailsResponseSchema, {
        body: { leads_id: leadsId },
        signal,
      }).then((response) => response.message),
  });
}

/** Spec §7 "Pending orders": online visits started and not finished ("a data list"). */
export function usePendingOrders(leadsId: string) {
  return useQuery({
    queryKey: orderKeys.pending(leadsId),
    queryFn: ({ signal }) =>
      apiPost(apiPaths.pendingOrders, PendingOrdersResponseSchema, {
        body: { leads_id: leadsId },
        signal,
      }).then((response) => response.data),
  });
}
