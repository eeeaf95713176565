import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import {
  cartSubtotal,
  cartTotals,
  lineQuantity,
  lineTotal,
  MAX_QUANTITY,
  stacks,
  type Cart,
  type CartEntry,
  type PricedLine,
} from '#shared/cart.ts';
import type { Frequency, Product, ProductLine } from '#shared/catalog.ts';
import { ApiError } from '#client/lib/api.ts';
import { useAppState } from '#client/lib/app-state.ts';
import { trackAddToCart, type ItemSource } from '#client/lib/analytics.ts';
import { useCatalog } from '#client/features/catalog/catalog.api.ts';
import {
  addToServerCart,
  applyServerCoupon,
  checkCoupon,
  removeFromServerCart,
  setServerQuantities,
  useServerCart,
} from './cart.api.ts';
import {
  addBrowserEntry,
  removeBrowserEntry,
  setBrowserCoupon,
  setBrowserQuantity,
  useBrowserCart,
  useBrowserCoupon,
} from './cart-storage.ts';

/** One line of the cart as every cart screen shows it, whoever's cart it is. */
export interface CartLine {
  product_id: number;
  name: string;
  img: string;
  frequency: Frequency;
  dose: string;
  category: string;
  /** For the link to the product page; null when the catalogue no longer lists it. */
  slug: string | null;
  quantity: number;
  unitCents: number;
  lineTotalCents: number;
  /** A one-time product that comes in quantities; subscriptions and the bundle do not. */
  canChangeQuantity: boolean;
}

export interface CartView {
  mode: 'member' | 'visitor';
  status: 'pending' | 'error' | 'ready';
  error: Error | null;
  retry: () => void;
  lines: CartLine[];
  coupon: { code: string; description: string; discountCents: number } | null;
  /** A visitor's coupon that no longer applies (the subtotal changed), with the reason. */
  couponProblem: { code: string; message: string } | null;
  itemCount: number;
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  taxCents: number;
  totalCents: number;
}

/** Whether the cart is the account's (logged in) or this browser's (spec §3). */
export function useIsMember(): boolean {
  return useAppState((state) => state.login.isLoggedIn && state.user.userData.leadsId !== null);
}

export function lineFromServer(item: Cart['products']['items'][number]): CartLine {
  return {
    product_id: item.product_id,
    name: item.name,
    img: item.img,
    frequency: item.frequency,
    dose: item.dose,
    category: item.category,
    slug: item.slug,
    quantity: item.quantity,
    unitCents: item.price_cents,
    lineTotalCents: item.line_total_cents,
    canChangeQuantity: stacks(item),
  };
}

function findOffer(lines: ProductLine[] | undefined, productId: number) {
  for (const line of lines ?? []) {
    const offer = line.offers.find((o) => o.product_id === productId);
    if (offer) return { line, offer };
  }
  return null;
}

/**
 * A browser entry priced for display: the catalogue's current price when it is known, the
 * entry's own otherwise. The server prices the order itself; nothing here is ever sent as a price.
 */
export function lineFromEntry(entry: CartEntry, catalog: ProductLine[] | undefined): CartLine {
  const found = findOffer(catalog, entry.product_id);
  const unitCents = found?.offer.price_cents ?? Math.round(entry.price * 100);
  const product = {
    frequency: entry.frequency,
    quantity_supported: found ? found.offer.quantity_supported : true,
  };
  const quantity = lineQuantity(product, entry.quantity);
  return {
    product_id: entry.product_id,
    name: entry.name,
    img: entry.img,
    frequency: entry.frequency,
    dose: entry.dose,
    category: found?.line.category ?? 'supplements',
    slug: found?.line.slug ?? null,
    quantity,
    unitCents,
    lineTotalCents: lineTotal({ price_cents: unitCents, quantity }),
    canChangeQuantity: stacks(product),
  };
}

/** A line in the words of the shared pricing (shared/cart.ts). */
function pricedLine(line: CartLine): PricedLine {
  return { price_cents: line.unitCents, quantity: line.quantity };
}

/** A cart line as an analytics item (spec §3 "Analytics cart item"). */
export function itemSource(line: CartLine): ItemSource {
  return {
    product_id: line.product_id,
    name: line.name,
    category: line.category,
    frequency: line.frequency,
    price_cents: line.unitCents,
    quantity: line.quantity,
  };
}

function serverView(
  query: ReturnType<typeof useServerCart>,
): Omit<CartView, 'mode' | 'couponProblem'> {
  const cart = query.data;
  const status = cart ? 'ready' : query.isError ? 'error' : 'pending';
  return {
    status,
    error: query.error,
    retry: () => void query.refetch(),
    lines: cart ? cart.products.items.map(lineFromServer) : [],
    coupon: cart?.coupon
      ? {
          code: cart.coupon.code,
          description: cart.coupon.description,
          discountCents: cart.coupon.discount_cents,
        }
      : null,
    itemCount: cart?.item_count ?? 0,
    subtotalCents: cart?.subtotal_cents ?? 0,
    discountCents: cart?.discount_cents ?? 0,
    shippingCents: cart?.shipping_cents ?? 0,
    taxCents: cart?.tax_cents ?? 0,
    totalCents: cart?.total_cents ?? 0,
  };
}

/** The cart to show: the server's for a logged-in customer, this browser's for a visitor. */
export function useCart(): CartView {
  const queryClient = useQueryClient();
  const member = useIsMember();
  const server = useServerCart(member, queryClient);
  const entries = useBrowserCart();
  const code = useBrowserCoupon();
  const catalog = useCatalog();

  const lines = entries.map((entry) => lineFromEntry(entry, catalog.data?.lines));
  const subtotal = cartSubtotal(lines.map(pricedLine));
  const couponQuery = useQuery({
    queryKey: ['/coupon/code', code, subtotal],
    queryFn: ({ signal }) => checkCoupon(code ?? '', subtotal, signal),
    enabled: !member && code !== null && subtotal > 0,
    staleTime: Infinity,
    retry: false,
  });

  if (member) return { mode: 'member', couponProblem: null, ...serverView(server) };

  const coupon = couponQuery.data
    ? {
        code: couponQuery.data.code,
        description: couponQuery.data.description,
        discountCents: couponQuery.data.discount_cents,
      }
    : null;
  // Priced as the server prices its cart; the coupon's discount is the server's answer.
  const totals = cartTotals(lines.map(pricedLine), coupon?.discountCents ?? 0);
  return {
    mode: 'visitor',
    status: 'ready',
    error: null,
    retry: () => undefined,
    lines,
    coupon,
    couponProblem:
      code && couponQuery.isError ? { code, message: couponQuery.error.message } : null,
    itemCount: totals.item_count,
    subtotalCents: totals.subtotal_cents,
    discountCents: totals.discount_cents,
    shippingCents: totals.shipping_cents,
    taxCents: totals.tax_cents,
    totalCents: totals.total_cents,
  };
}

/** The count for the header's cart button: the server's for a member, the browser's otherwise. */
export function useCartCount(): number | null {
  const queryClient = useQueryClient();
  const member = useIsMember();
  const server = useServerCart(member, queryClient);
  const entries = useBrowserCart();
  if (member) return server.data?.item_count ?? null;
  return entries.reduce((sum, entry) => sum + entry.quantity, 0);
}

/** What every cart screen can do. Each action throws an ApiError with the words to show. */
export function useCartActions() {
  const queryClient = useQueryClient();
  const member = useIsMember();

  const add = useCallback(
    async (offer: Product, quantity: number, current: number | null): Promise<boolean> => {
      const adds = stacks(offer);
      // A subscription or the bundle already in the cart stays one line of one.
      if (!adds && current !== null && current > 0) return false;
      const amount = adds ? quantity : 1;
      if ((current ?? 0) + amount > MAX_QUANTITY) {
        const message = `You can order up to ${MAX_QUANTITY} at a time`;
        throw new ApiError(400, 'QUANTITY', message, { quantity: message });
      }
      if (member) await addToServerCart(queryClient, offer.product_id, amount);
      else addBrowserEntry(offer, amount);
      trackAddToCart({
        product_id: offer.product_id,
        name: offer.product_name,
        category: offer.category,
        frequency: offer.frequency,
        price_cents: offer.price_cents,
        quantity: amount,
      });
      return true;
    },
    [member, queryClient],
  );

  const setQuantity = useCallback(
    async (productId: number, quantity: number): Promise<void> => {
      if (member) await setServerQuantities(queryClient, [{ product_id: productId, quantity }]);
      else setBrowserQuantity(productId, quantity);
    },
    [member, queryClient],
  );

  const remove = useCallback(
    async (productId: number): Promise<void> => {
      if (member) await removeFromServerCart(queryClient, productId);
      else removeBrowserEntry(productId);
    },
    [member, queryClient],
  );

  const applyCoupon = useCallback(
    async (code: string, subtotalCents: number): Promise<void> => {
      if (member) {
        await applyServerCoupon(queryClient, code);
        return;
      }
      const result = await checkCoupon(code, subtotalCents);
      queryClient.setQueryData(['/coupon/code', result.code, subtotalCents], result);
      setBrowserCoupon(result.code);
    },
    [member, queryClient],
  );

  const removeCoupon = useCallback(async (): Promise<void> => {
    if (member) await applyServerCoupon(queryClient, null);
    else setBrowserCoupon(null);
  }, [member, queryClient]);

  return { member, add, setQuantity, remove, applyCoupon, removeCoupon };
}
