// Shipping a store order to the partner (issue 16, decision 016): checkout asks here, on each call,
// whether the partner shares their address and what it is. Apart from the partner page's story so
// that checkout can ask while the partners service asks checkout to forget a kept address.
import type { AppContext } from '#server/context.ts';
import { customerBrief } from '#server/features/accounts/accounts.people.ts';
import { addressOf } from '#server/features/accounts/accounts.service.ts';
import { AppError } from '#server/lib/errors.ts';
import type { PartnerShared } from '#shared/partners.ts';
import * as q from './partners.queries.ts';

/** Why an order cannot ship to the partner now; said at checkout, with nothing charged. */
export const partnerAddressGoneText =
  "Your partner's shipping address is no longer shared with you, so this order can't ship there. Nothing was charged. Choose another address.";

export type PartnerAddress = NonNullable<PartnerShared['address']>;

/**
 * The shipping address on the owner's account, as a partner may see it: the street, city, state
 * and ZIP, nothing else. Whether the owner shares it is the caller's to check first.
 */
export async function shippingAddressToShare(
  ctx: AppContext,
  ownerId: number,
): Promise<PartnerAddress | undefined> {
  const onFile = await addressOf(ctx, ownerId, 'shipping');
  if (!onFile) return undefined;
  const { address, address2, city, state, zip } = onFile;
  return { address, address2, city, state, zip };
}

/** The linked partner and the shipping address they share with the customer now, if they do. */
async function sharedShipping(
  ctx: AppContext,
  customerId: number,
): Promise<{ partnerId: number; firstName: string; address: PartnerAddress } | undefined> {
  const side = await q.selectSideSharedWith(ctx.db, customerId);
  if (!side?.shares.address) return undefined;
  const partner = await customerBrief(ctx, side.customerId);
  const address = await shippingAddressToShare(ctx, side.customerId);
  if (!partner || !address) return undefined;
  return { partnerId: partner.customerId, firstName: partner.firstName, address };
}

/**
 * For a store order shipped to the partner (issue 16): who they are and their shipping address, read
 * from their account on this call (never an address the browser sends). Refused, the same way
 * whatever the reason, unless the caller is linked and the partner shares their address now.
 */
export async function partnerShippingFor(
  ctx: AppContext,
  customerId: number,
): Promise<{ partnerId: number; firstName: string; address: PartnerAddress }> {
  const shipping = await sharedShipping(ctx, customerId);
  if (!shipping)
    throw new AppError('PARTNER_ADDRESS_UNAVAILABLE', partnerAddressGoneText, {
      'shipping.address': partnerAddressGoneText,
    });
  return shipping;
}

/** Whether the customer's partner shares a shipping address with them now. */
export async function partnerSharesAddress(ctx: AppContext, customerId: number): Promise<boolean> {
  return (await sharedShipping(ctx, customerId)) !== undefined;
}
