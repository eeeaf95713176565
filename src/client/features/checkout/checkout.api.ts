import { useQuery, type QueryClient } from '@tanstack/react-query';
import {
  checkoutApi,
  type CheckoutProgress,
  type CheckoutShipping,
  type CheckoutStepName,
  type PlaceOrder,
} from '#shared/checkout.ts';
import { v2Call } from '#client/features/cart/cart.api.ts';
import { call } from '#client/lib/api.ts';
import { reportError } from '#client/lib/error-reporting.ts';
import { useCheckoutShipping, useCheckoutShipsToPartner } from './checkout-state.ts';

export const upsellsKey = ['/leads/upsells'] as const;
export const progressKey = ['/checkout/progress/'] as const;

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

/** Where this customer's checkout has got to, as the server keeps it (read once per page load). */
function useCheckoutProgress(enabled: boolean) {
  return useQuery({
    queryKey: progressKey,
    queryFn: async ({ signal }) =>
      (await call(checkoutApi.progress, { body: {}, signal })).progress,
    enabled,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    retry: false,
  });
}

export type ShippingSoFar =
  | { status: 'pending' }
  | {
      status: 'ready';
      shipping: CheckoutShipping | null;
      step: CheckoutStepName | null;
      /** Issue 16: "Ship to {partner}" was chosen at step 1. */
      toPartner: boolean;
    };

/**
 * The shipping address given at step 1: this tab's, or for a customer after a reload or in a new
 * tab, the one the server kept. A progress that cannot be read starts again at step 1, from the
 * account's saved address.
 */
export function useShippingSoFar(member: boolean): ShippingSoFar {
  const remembered = useCheckoutShipping();
  const rememberedToPartner = useCheckoutShipsToPartner();
  const progress = useCheckoutProgress(member);
  const step = progress.data?.step ?? null;
  if (remembered)
    return { status: 'ready', shipping: remembered, step, toPartner: rememberedToPartner };
  if (!member) return { status: 'ready', shipping: null, step: null, toPartner: false };
  if (progress.isPending) return { status: 'pending' };
  return {
    status: 'ready',
    shipping: progress.data?.shipping ?? null,
    step,
    toPartner: progress.data?.ship_to_partner === true,
  };
}

/**
 * Keeps the step reached and the address on the server. A failure does not hold the customer up:
 * this tab still has the address, and only a reload would miss it.
 */
export async function saveCheckoutProgress(
  queryClient: QueryClient,
  step: CheckoutStepName,
  shipping: CheckoutShipping,
  toPartner = false,
): Promise<void> {
  try {
    const { progress } = await call(checkoutApi.saveProgress, {
      body: { step, shipping, ...(toPartner ? { ship_to_partner: true } : {}) },
    });
    queryClient.setQueryData<CheckoutProgress | null>(progressKey, progress);
  } catch (error) {
    reportError(error, 'warning', 'checkout progress');
  }
}

/** The order is placed: the server has forgotten the progress, and so does this tab. */
export function forgetCheckoutProgress(queryClient: QueryClient): void {
  queryClient.removeQueries({ queryKey: progressKey });
}

/**
 * v2 `ecom/place-order`. The body carries no price (the server prices the cart); the card digits
 * go from the form to this one request and nowhere else.
 */
export function placeOrder(body: PlaceOrder) {
  return v2Call(checkoutApi.placeOrder, body);
}
