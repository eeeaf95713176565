import { useQuery } from '@tanstack/react-query';
import { checkoutApi, type PlaceOrder } from '#shared/checkout.ts';
import { v2Call } from '#client/features/cart/cart.api.ts';
import { call } from '#client/lib/api.ts';

export const upsellsKey = ['/leads/upsells'] as const;

/** Step 2's offers (`/leads/upsells`), for the cart as it is now. */
export function useUpsells(enabled: boolean) {
  return useQuery({
    queryKey: upsellsKey,
    queryFn: async ({ signal }) => (await call(checkoutApi.upsells, { body: {}, signal })).offers,
    enabled,
    staleTime: 0,
    refetchOnWindowFocus: false,
    retry: false,
  });
}

/**
 * v2 `ecom/place-order`. The body carries no price (the server prices the cart); the card digits
 * go from the form to this one request and nowhere else.
 */
export function placeOrder(body: PlaceOrder) {
  return v2Call(checkoutApi.placeOrder, body);
}
