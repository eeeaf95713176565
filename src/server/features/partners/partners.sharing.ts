// What partners share (issue 16, decision 016): each partner's switches (a shipping address, store
// orders, supplement subscriptions) and what the other sees because of them, read on the call that
// asks. The orders, subscriptions and address are asked of the features that own them.
import type { AppContext } from '#server/context.ts';
import { customerBrief } from '#server/features/accounts/accounts.people.ts';
import type { ActiveSession } from '#server/features/auth/auth.service.ts';
import { forgetProgressToPartner } from '#server/features/checkout/checkout.progress.ts';
import { recentStoreOrdersOf } from '#server/features/orders/orders.history.ts';
import { runningSupplementsOf } from '#server/features/subscriptions/subscriptions.service.ts';
import { notFound } from '#server/lib/errors.ts';
import { bottlesPerDelivery } from '#shared/catalog.ts';
import type { PartnerShared, Sharing, SharingItem } from '#shared/partners.ts';
import { notLinked } from './partners.people.ts';
import * as q from './partners.queries.ts';
import { shippingAddressToShare } from './partners.shipping.ts';

/** Turns one item's sharing on or off; a change is written to the customer's history. */
export async function changeSharing(
  ctx: AppContext,
  session: ActiveSession,
  item: SharingItem,
  shared: boolean,
): Promise<{ you_share: Sharing }> {
  const now = ctx.clock.now().toISOString();
  return ctx.db.transaction().execute(async (trx) => {
    const link = await q.selectOwnLink(trx, session.customerId);
    if (!link) throw notFound(notLinked);
    if (link.shares[item] === shared) return { you_share: link.shares };
    const partner = await customerBrief({ ...ctx, db: trx }, link.partnerId);
    await q.updateSharing(trx, session.customerId, item, shared);
    // The partner's checkout under way to this address forgets it with the sharing (issue 26).
    if (item === 'address' && !shared)
      await forgetProgressToPartner({ ...ctx, db: trx }, link.partnerId);
    await q.insertEvent(trx, session.customerId, {
      kind: shared ? 'sharing_started' : 'sharing_stopped',
      item,
      counterpart: partner?.firstName ?? '',
      quiet: false,
      at: now,
    });
    return { you_share: { ...link.shares, [item]: shared } };
  });
}

/**
 * Exactly what the caller's linked partner chose to share, read now: each section null unless its
 * switch is on, and all of them null with no link. Never contact details, card or anything
 * clinical (what the owning features answer holds none of it).
 */
export async function sharedWithMe(
  ctx: AppContext,
  session: ActiveSession,
): Promise<PartnerShared> {
  const side = await q.selectSideSharedWith(ctx.db, session.customerId);
  const partner = side && (await customerBrief(ctx, side.customerId));
  if (!side || !partner) return { partner: null, address: null, orders: null, subscriptions: null };
  const owner = side.customerId;

  const address = side.shares.address ? await shippingAddressToShare(ctx, owner) : undefined;
  const orders = side.shares.orders
    ? (await recentStoreOrdersOf(ctx, owner)).map((r) => ({
        order_number: r.orderNumber,
        order_date: r.createdAt,
        status: r.status,
        tracking_number: r.trackingNumber,
        ships_to_you: r.shipToPartnerId === session.customerId,
        items: r.items.map((l) => ({ product_name: l.productName, quantity: l.quantity })),
      }))
    : null;
  const subscriptions = side.shares.subscriptions
    ? (await runningSupplementsOf(ctx, owner)).map((s) => ({
        product_name: s.productName,
        frequency: s.frequency,
        bottles: bottlesPerDelivery({ frequency: s.frequency }, s.quantity),
        status: s.status,
        next_date: s.nextBillingDate,
      }))
    : null;
  return {
    partner: { first_name: partner.firstName },
    address: address ?? null,
    orders,
    subscriptions,
  };
}
