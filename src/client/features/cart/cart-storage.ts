import { useSyncExternalStore } from 'react';
import { CartEntrySchema, lineQuantity, MAX_QUANTITY, type CartEntry } from '#shared/cart.ts';
import type { Product } from '#shared/catalog.ts';
import { storageKeys } from '#shared/constants.ts';
import { localStore, sessionStore } from '#client/lib/safe-storage.ts';

/**
 * A visitor's cart, kept in local storage under `selectedProduct` (spec §3 "Cart entry"). Entries
 * that fail the entry schema — a missing field, a frequency outside the three values — are dropped
 * when the cart is read, and the rest are kept (spec §5 Cart). A logged-in customer's cart is the
 * server's; this one joins it at log-in (cart.api.ts mergeBrowserCart).
 */

const EMPTY: readonly CartEntry[] = Object.freeze([]);

/** The coupon a visitor applied: the code only; its discount is checked with the server. */
export const couponStorageKey = storageKeys.cartCoupon;

let lastRaw: string | null | undefined;
let lastEntries: readonly CartEntry[] = EMPTY;
const listeners = new Set<() => void>();

/** Keeps the valid entries of whatever was stored; one line per product. */
export function parseBrowserCart(raw: string | null): CartEntry[] {
  if (!raw) return [];
  let stored: unknown;
  try {
    stored = JSON.parse(raw);
  } catch {
    return [];
  }
  const list = Array.isArray(stored) ? stored : [stored];
  const entries: CartEntry[] = [];
  for (const candidate of list) {
    const parsed = CartEntrySchema.safeParse(candidate);
    if (!parsed.success) continue;
    const entry = { ...parsed.data, quantity: Math.min(parsed.data.quantity, MAX_QUANTITY) };
    const same = entries.findIndex((e) => e.product_id === entry.product_id);
    if (same === -1) entries.push(entry);
    else {
      const existing = entries[same] as CartEntry;
      entries[same] = {
        ...existing,
        quantity: Math.min(existing.quantity + entry.quantity, MAX_QUANTITY),
      };
    }
  }
  return entries;
}

/**
 * The entries now in storage. Read on every call (cheap) so a change made elsewhere — another
 * tab, or the log-out clearing all local storage — is never hidden behind a stale copy; what
 * failed the schema is written back without it.
 */
export function readBrowserCart(): readonly CartEntry[] {
  const raw = localStore.get(storageKeys.cart);
  // The copy is keyed by the stored text itself, so storage cleared or changed elsewhere is seen.
  if (raw === lastRaw) return lastEntries;
  const entries = parseBrowserCart(raw);
  lastRaw = raw;
  lastEntries = entries.length === 0 ? EMPTY : entries;
  if (raw !== null && JSON.stringify(entries) !== raw) {
    // Dropped at load: storage keeps only the entries that passed.
    persist(entries);
  }
  return lastEntries;
}

function persist(entries: readonly CartEntry[]): void {
  const raw = entries.length === 0 ? null : JSON.stringify(entries);
  // Full or unavailable storage drops the write: the cart lives for this page only.
  if (raw === null) localStore.remove(storageKeys.cart);
  else localStore.set(storageKeys.cart, raw);
  lastRaw = raw;
  lastEntries = entries.length === 0 ? EMPTY : entries;
}

function emit(): void {
  for (const listener of listeners) listener();
}

function write(entries: readonly CartEntry[]): void {
  persist(entries);
  if (entries.length === 0) setBrowserCoupon(null);
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === storageKeys.cart) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useBrowserCart(): readonly CartEntry[] {
  return useSyncExternalStore(subscribe, readBrowserCart, () => EMPTY);
}

/** Exactly the fields of spec §3 "Cart entry", from a catalogue offer. */
export function entryFromOffer(offer: Product, quantity: number): CartEntry {
  return {
    name: offer.product_name,
    product_id: offer.product_id,
    price: offer.price,
    frequency: offer.frequency,
    description: offer.description,
    dose: offer.dose,
    quantity,
    img: offer.img,
  };
}

/**
 * Adds an offer: a product that stacks adds up (to MAX_QUANTITY); anything else is one line of
 * one (shared/cart.ts `stacks`). Answers the line's quantity afterwards.
 */
export function addBrowserEntry(offer: Product, quantity: number): number {
  const entries = [...readBrowserCart()];
  const index = entries.findIndex((e) => e.product_id === offer.product_id);
  const current = index === -1 ? 0 : (entries[index] as CartEntry).quantity;
  const next = lineQuantity(offer, current + quantity);
  const entry = entryFromOffer(offer, next);
  if (index === -1) entries.push(entry);
  else entries[index] = entry;
  write(entries);
  return next;
}

export function setBrowserQuantity(productId: number, quantity: number): void {
  const clamped = Math.max(0, Math.min(Math.round(quantity), MAX_QUANTITY));
  const entries = readBrowserCart()
    .map((e) => (e.product_id === productId ? { ...e, quantity: clamped } : e))
    .filter((e) => e.quantity > 0);
  write(entries);
}

export function removeBrowserEntry(productId: number): void {
  write(readBrowserCart().filter((e) => e.product_id !== productId));
}

export function clearBrowserCart(): void {
  write([]);
}

// --- The visitor's coupon code -------------------------------------------------------------------

export function readBrowserCoupon(): string | null {
  return sessionStore.get(couponStorageKey);
}

export function setBrowserCoupon(code: string | null): void {
  // Unavailable storage: the coupon is simply not remembered.
  if (code) sessionStore.set(couponStorageKey, code);
  else sessionStore.remove(couponStorageKey);
  emit();
}

function readCouponSnapshot(): string | null {
  return readBrowserCoupon();
}

export function useBrowserCoupon(): string | null {
  return useSyncExternalStore(subscribe, readCouponSnapshot, () => null);
}
