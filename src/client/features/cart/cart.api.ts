import { useQuery, type QueryClient } from '@tanstack/react-query';
import { cartApi, MAX_QUANTITY, type Cart } from '#shared/cart.ts';
import type { BodyOf, DataOf, Endpoint } from '#shared/contract.ts';
import { cacheKeys } from '#shared/constants.ts';
import { messages } from '#shared/wording.ts';
import { showToast } from '#client/components/ui/toast.tsx';
import { ApiError, call, type CallArgs, errorText } from '#client/lib/api.ts';
import { reportError } from '#client/lib/error-reporting.ts';
import type { SessionUser } from '#shared/session.ts';
import {
  forgetSession,
  isUnauthenticated,
  rememberSession,
} from '#client/features/auth/session.api.ts';
import {
  clearBrowserCart,
  readBrowserCart,
  readBrowserCoupon,
  setBrowserCoupon,
} from './cart-storage.ts';

/** Spec §7: the server cart lives in the query cache under `/ecom/cart`. */
export const cartKey = [cacheKeys.cart] as const;

/**
 * Whether a v2 failure is worth a report. What the customer can put right themselves — a field
 * message, a coupon's reason, a declined card — is shown to them and not reported; everything
 * else is (spec §8 "v2 commerce calls").
 */
function worthReporting(error: unknown): boolean {
  if (!(error instanceof ApiError)) return !(error instanceof DOMException);
  return error.status !== 400 && error.status !== 402 && error.status !== 401;
}

/**
 * One v2 commerce call (spec §7): the body must be truthy and its `data` is what comes back. The
 * message is the server's when it gives one, 'An error occurred, please try again later.'
 * otherwise (spec §8), and the failure is reported.
 */
export async function v2Call<E extends Endpoint & { body: unknown }>(
  endpoint: E,
  body: BodyOf<E>,
  signal?: AbortSignal,
): Promise<DataOf<E>> {
  try {
    const options = { body, fallbackMessage: messages.v2Failed, ...(signal ? { signal } : {}) };
    // Every v2 call has a body (spec §7: it must be truthy); the cast only bridges the generic.
    return await call(endpoint, ...([options] as unknown as CallArgs<E>));
  } catch (error) {
    if (worthReporting(error)) reportError(error, 'error', `v2 ${endpoint.path}`);
    throw error;
  }
}

type CartEndpoint = (typeof cartApi)[Exclude<keyof typeof cartApi, 'couponCode'>];

async function cartCall<E extends CartEndpoint>(
  endpoint: E,
  body: BodyOf<E>,
  signal?: AbortSignal,
): Promise<Cart> {
  return (await v2Call(endpoint, body, signal)).cart;
}

/** The logged-in customer's cart, priced by the server. Not refetched on window focus (spec §9). */
export function useServerCart(enabled: boolean, queryClient: QueryClient) {
  return useQuery({
    queryKey: cartKey,
    queryFn: async ({ signal }) => {
      try {
        return await cartCall(cartApi.cart, {}, signal);
      } catch (error) {
        // The session ended (expired, or logged out in another tab): this browser's cart again.
        if (isUnauthenticated(error)) forgetSession(queryClient);
        throw error;
      }
    },
    enabled,
    refetchOnWindowFocus: false,
  });
}

/** After any change: the cache holds the server's answer and the member area's count reloads. */
async function settle(queryClient: QueryClient, cart: Cart): Promise<Cart> {
  queryClient.setQueryData(cartKey, cart);
  await queryClient.invalidateQueries({ queryKey: ['/account/basics'] });
  return cart;
}

async function changed(queryClient: QueryClient, call: Promise<Cart>): Promise<Cart> {
  try {
    return await settle(queryClient, await call);
  } catch (error) {
    if (isUnauthenticated(error)) forgetSession(queryClient);
    throw error;
  }
}

export function addToServerCart(queryClient: QueryClient, productId: number, quantity: number) {
  return changed(queryClient, cartCall(cartApi.addProduct, { product_id: productId, quantity }));
}

export function removeFromServerCart(queryClient: QueryClient, productId: number) {
  return changed(queryClient, cartCall(cartApi.removeProduct, { product_id: productId }));
}

/** `set` mode: these quantities replace the cart's (0 removes the line). */
export function setServerQuantities(
  queryClient: QueryClient,
  items: { product_id: number; quantity: number }[],
) {
  return changed(queryClient, cartCall(cartApi.updateCart, { mode: 'set', items }));
}

/**
 * `merge` mode: these are added to the cart (a line that stacks grows, up to MAX_QUANTITY; a plan
 * stays one line of one), as "Buy again" puts a past order back in the cart.
 */
export function mergeIntoServerCart(
  queryClient: QueryClient,
  items: { product_id: number; quantity: number }[],
) {
  return changed(queryClient, cartCall(cartApi.updateCart, { mode: 'merge', items }));
}

/** A refusal (400 COUPON_REFUSED) throws with the reason as its message. */
export function applyServerCoupon(queryClient: QueryClient, code: string | null) {
  return changed(queryClient, cartCall(cartApi.applyCoupon, { code }));
}

/** v1 `/coupon/code`: would this code apply to a visitor's subtotal? Refusals say why. */
export async function checkCoupon(code: string, subtotalCents: number, signal?: AbortSignal) {
  return call(cartApi.couponCode, {
    body: { code, subtotal_cents: subtotalCents },
    ...(signal ? { signal } : {}),
  });
}

/**
 * At log-in and sign-up (spec §3): the browser cart is added to the account's cart and the
 * visitor's coupon applied to it; then the session is remembered (the pages switch to the
 * account's cart, already in the cache) and the browser's copy is cleared. A failed merge keeps
 * the browser cart — it is tried again at the next log-in — and never blocks the log-in itself.
 */
export async function rememberSessionWithCart(
  queryClient: QueryClient,
  user: SessionUser,
): Promise<void> {
  const entries = readBrowserCart();
  const code = readBrowserCoupon();
  let cart: Cart | null = null;
  let merged = entries.length === 0;
  if (!merged) {
    try {
      cart = await cartCall(cartApi.updateCart, {
        mode: 'merge',
        items: entries.map((entry) => ({
          product_id: entry.product_id,
          quantity: Math.min(entry.quantity, MAX_QUANTITY),
        })),
      });
      merged = true;
    } catch (error) {
      showToast({
        kind: 'error',
        title: "We couldn't add your cart to your account",
        description: errorText(error, messages.v2Failed),
      });
    }
  }
  if (merged && code) {
    try {
      cart = await cartCall(cartApi.applyCoupon, { code });
    } catch (error) {
      showToast({
        kind: 'error',
        title: `Coupon ${code} was not applied`,
        description: errorText(error, messages.v2Failed),
      });
    }
  }
  if (cart) queryClient.setQueryData(cartKey, cart);
  rememberSession(queryClient, user);
  if (merged) {
    clearBrowserCart();
    setBrowserCoupon(null);
  }
  if (cart) await queryClient.invalidateQueries({ queryKey: ['/account/basics'] });
}
