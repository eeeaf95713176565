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
import type { PartnerShipping } from './checkout.partners.ts';
import { deleteProgress, selectProgress, upsertProgress } from './checkout.queries.ts';

/** A checkout left alone this long starts again from the account's saved address. */
const KEPT_FOR_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * What a kept progress holds: the address as stored and, beside it, whether "Ship to {partner}"
 * was chosen (issue 16: the partner's address is re-read at the order). Null when unreadable.
 */
function parseKept(shipping: string): { address: unknown; toPartner: boolean } | null {
  let stored: unknown;
  try {
    stored = JSON.parse(shipping);
  } catch {
    return null;
  }
  const { ship_to_partner: kept, ...address } =
    stored !== null && typeof stored === 'object' ? (stored as Record<string, unknown>) : {};
  return { address, toPartner: kept === true };
}

export async function checkoutProgress(
  ctx: AppContext,
  customerId: number,
  partners: PartnerShipping,
): Promise<CheckoutProgress | null> {
  const row = await selectProgress(ctx.db, customerId);
  if (!row) return null;
  if (ctx.clock.now().getTime() - Date.parse(row.updatedAt) > KEPT_FOR_MS) return null;
  const kept = parseKept(row.shipping);
  // Checked again on the way out: the rules of an address may have changed since it was kept.
  const shipping = CheckoutShippingSchema.safeParse(kept?.address);
  if (!kept || !shipping.success) return null;
  // The partner's address shows only while they share it (issue 26): a tab still open when they
  // stopped may have kept it again since.
  if (kept.toPartner && !(await partners.sharesAddress(ctx, customerId))) {
    await deleteProgress(ctx.db, customerId);
    return null;
  }
  return {
    step: row.step,
    shipping: shipping.data,
    ...(kept.toPartner ? { ship_to_partner: true } : {}),
  };
}

export async function saveCheckoutProgress(
  ctx: AppContext,
  customerId: number,
  step: CheckoutStepName,
  shipping: CheckoutShipping,
  toPartner: boolean,
  partners: PartnerShipping,
): Promise<CheckoutProgress> {
  const progress = { step, shipping, ...(toPartner ? { ship_to_partner: true } : {}) };
  // A partner's address is kept only while they share it: the order would be refused anyway.
  if (toPartner && !(await partners.sharesAddress(ctx, customerId))) {
    await deleteProgress(ctx.db, customerId);
    return progress;
  }
  await upsertProgress(ctx.db, customerId, {
    step,
    shipping: JSON.stringify(toPartner ? { ...shipping, ship_to_partner: true } : shipping),
    updatedAt: ctx.clock.now().toISOString(),
  });
  return progress;
}

/** The order is placed: the next checkout starts afresh. */
export async function forgetCheckoutProgress(ctx: AppContext, customerId: number): Promise<void> {
  await deleteProgress(ctx.db, customerId);
}

/**
 * The partner stopped sharing their address, or the link ended (issue 26): a checkout under way
 * to them forgets it, in the transaction of that change, so their address is no longer kept in
 * this account and a reload starts again from the customer's own. Any other progress stays.
 */
export async function forgetProgressToPartner(ctx: AppContext, customerId: number): Promise<void> {
  const row = await selectProgress(ctx.db, customerId);
  if (row && parseKept(row.shipping)?.toPartner) await deleteProgress(ctx.db, customerId);
}
