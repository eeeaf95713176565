import { storageKeys } from '#shared/constants.ts';
import { useSyncExternalStore } from 'react';
import {
  CheckoutShippingSchema,
  PlacedOrderSchema,
  type CheckoutShipping,
  type PlacedOrder,
} from '#shared/checkout.ts';
import { sessionStore } from '#client/lib/safe-storage.ts';

/** Step 1's answer: the shipping address and phone (PlaceOrder `shipping`). */
export const ShippingSchema = CheckoutShippingSchema;
export type Shipping = CheckoutShipping;

/**
 * The shipping address lives in memory only, for this checkout: an address is personal data and
 * the browser keeps none of it in storage (DESIGN §3). The server keeps a logged-in customer's
 * (`useShippingSoFar`), so a reload or a new tab goes on from the step they reached.
 */
let shipping: Shipping | null = null;
/** Issue 16: "Ship to {partner}" was chosen (the server reads the partner's address itself). */
let toPartner = false;
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function setCheckoutShipping(next: Shipping | null, shipToPartner = false): void {
  shipping = next;
  toPartner = next !== null && shipToPartner;
  for (const listener of listeners) listener();
}

export function useCheckoutShipping(): Shipping | null {
  return useSyncExternalStore(
    subscribe,
    () => shipping,
    () => null,
  );
}

export function useCheckoutShipsToPartner(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => toPartner,
    () => false,
  );
}

// --- The idempotency key (PlaceOrder `idempotency_key`) ------------------------------------------

export const checkoutKeyStorageKey = storageKeys.checkoutKey;
export const lastOrderStorageKey = storageKeys.lastOrder;

let memoryKey: string | null = null;

/**
 * One key per checkout, made when the customer first places the order and kept for the tab until
 * the order succeeds: a double click, a retry after a lost answer or a reload sends the same key,
 * and the server places one order and one charge.
 */
export function checkoutKey(): string {
  // Kept in memory too: a browser that refuses storage still sends one key per checkout.
  memoryKey = sessionStore.get(checkoutKeyStorageKey) ?? memoryKey ?? crypto.randomUUID();
  sessionStore.set(checkoutKeyStorageKey, memoryKey);
  return memoryKey;
}

/** After a decline (a new attempt) or a placed order (the checkout is over). */
export function forgetCheckoutKey(): void {
  memoryKey = null;
  sessionStore.remove(checkoutKeyStorageKey);
}

// --- The order just placed, for /checkout/complete -----------------------------------------------

let lastOrder: PlacedOrder | null = null;

/** Kept for the tab so the confirmation survives a reload; it holds no address or card data. */
export function rememberPlacedOrder(order: PlacedOrder): void {
  lastOrder = order;
  // Refused storage: the confirmation shows from memory.
  sessionStore.set(lastOrderStorageKey, JSON.stringify(order));
}

export function readPlacedOrder(): PlacedOrder | null {
  if (lastOrder) return lastOrder;
  const raw = sessionStore.get(lastOrderStorageKey);
  try {
    const parsed = raw ? PlacedOrderSchema.safeParse(JSON.parse(raw)) : null;
    return parsed?.success ? parsed.data : null;
  } catch {
    return null; // Not JSON: nothing to show.
  }
}

/** For tests. */
export function resetCheckoutStateForTests(): void {
  shipping = null;
  toPartner = false;
  memoryKey = null;
  lastOrder = null;
}
