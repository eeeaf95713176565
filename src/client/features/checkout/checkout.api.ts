import { useQuery } from '@tanstack/react-query';
import { apiPaths } from '#shared/api.ts';
import {
  PlaceOrderResponseSchema,
  UpsellsResponseSchema,
  type PlaceOrder,
} from '#shared/checkout.ts';
import { v2Call } from '#client/features/cart/cart.api.ts';
import { apiPost } from '#client/lib/api.ts';

export const upsellsKey = ['/leads/upsells'] as const;

/** Step 2's offers (`/leads/upsells`), for the cart as it is now. */
export function useUpsells(enabled: boolean) {
  return useQuery({
    queryKey: upsellsKey,
    queryFn: async ({ signal }) => {
      const response = await apiPost(apiPaths.upsells, UpsellsResponseSchema, {
        body: {},
        signal,
      });
      return response.data.offers;
    },
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
export async function placeOrder(body: PlaceOrder) {
  const response = await v2Call(apiPaths.v2PlaceOrder, PlaceOrderResponseSchema, body);
  return response.data;
}
