// Where a logged-in customer's store checkout has got to, so a reload or a new tab goes on from
// there (issue 13). The browser keeps no address in storage (DESIGN §3); the server keeps this one
// with the account until the order is placed, and forgets a checkout left alone for a week.
import type { AppContext } from '#server/context.ts';
import {
  CheckoutShippingSchema,
  type CheckoutProgress,
  type CheckoutStepName,
  type CheckoutShipping,
} from '#shared/checkout.ts';
import { deleteProgress, selectProgress, upsertProgress } from './checkout.queries.ts';

/** A checkout left alone this long starts again from the account's saved address. */
const KEPT_FOR_MS = 7 * 24 * 60 * 60 * 1000;

export async function checkoutProgress(
  ctx: AppContext,
  customerId: number,
): Promise<CheckoutProgress | null> {
  const row = await selectProgress(ctx.db, customerId);
  if (!row) return null;
  if (ctx.clock.now().getTime() - Date.parse(row.updatedAt) > KEPT_FOR_MS) return null;
  let stored: unknown;
  try {
    stored = JSON.parse(row.shipping);
  } catch {
    return null;
  }
  // Checked again on the way out: the rules of an address may have changed since it was kept.
  // Issue 16: "Ship to {partner}" is kept beside the address (the address is re-read at the order).
  const { ship_to_partner: kept, ...address } =
    stored !== null && typeof stored === 'object' ? (stored as Record<string, unknown>) : {};
  const shipping = CheckoutShippingSchema.safeParse(address);
  if (!shipping.success) return null;
  const toPartner = kept === true;
  return {
    step: row.step,
    shipping: shipping.data,
    ...(toPartner ? { ship_to_partner: true } : {}),
  };
}

export async function saveCheckoutProgress(
  ctx: AppContext,
  customerId: number,
  step: CheckoutStepName,
  shipping: CheckoutShipping,
  toPartner = false,
): Promise<CheckoutProgress> {
  await upsertProgress(ctx.db, customerId, {
    step,
    shipping: JSON.stringify(toPartner ? { ...shipping, ship_to_partner: true } : shipping),
    updatedAt: ctx.clock.now().toISOString(),
  });
  return { step, shipping, ...(toPartner ? { ship_to_partner: true } : {}) };
}

/** The order is placed: the next checkout starts afresh. */
export async function forgetCheckoutProgress(ctx: AppContext, customerId: number): Promise<void> {
  await deleteProgress(ctx.db, customerId);
}
