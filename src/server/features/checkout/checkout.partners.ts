import type { AppContext } from '#server/context.ts';
import type { PartnerShared } from '#shared/partners.ts';

/**
 * What checkout asks partners when an order ships to the customer's partner (issue 16, decision
 * 016). Partners asks checkout to forget a kept address, so checkout cannot import partners: the app
 * hands these to checkout's routes at start (app.ts).
 */
export interface PartnerShipping {
  /**
   * The partner's id, first name and the address they share now, read from their account on this
   * call; refused (PARTNER_ADDRESS_UNAVAILABLE) unless they share it.
   */
  shippingFor(
    ctx: AppContext,
    customerId: number,
  ): Promise<{
    partnerId: number;
    firstName: string;
    address: NonNullable<PartnerShared['address']>;
  }>;
  /** Whether the customer's partner shares a shipping address with them now. */
  sharesAddress(ctx: AppContext, customerId: number): Promise<boolean>;
}
