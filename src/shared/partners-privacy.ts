/**
 * What a partner can and cannot see (issue 16, decision 016), in words, with no imports: the public
 * home page and the FAQ say it from here without bringing the partners contract (and classic zod)
 * into a first visit's download (decision 007). `partners.ts` builds the contract on these.
 */

/** An invitation can be accepted for this many days after it is sent. */
export const PARTNER_INVITE_TTL_DAYS = 14;
export const PARTNER_INVITE_TTL_MS = PARTNER_INVITE_TTL_DAYS * 24 * 60 * 60_000;

/** What a partner may choose to share, each a switch of its own. */
export const sharingItems = ['address', 'orders', 'subscriptions'] as const;
export type SharingItem = (typeof sharingItems)[number];

export const sharingItemText: Record<SharingItem, { label: string; means: string }> = {
  address: {
    label: 'Shipping address',
    means: 'The address your orders ship to, so your partner knows where to send things.',
  },
  orders: {
    label: 'Store orders and their tracking',
    means:
      'Supplement orders from the shop, with their status and tracking number. Never online-visit or prescription orders.',
  },
  subscriptions: {
    label: 'Supplement subscriptions and their next dates',
    means:
      'Which gummies you subscribe to, how often, how many bottles and the next date. Never prescription refills.',
  },
};

/** What no setting shares: said on the partner page, the Home card, the landing page and the FAQ. */
export const neverShared = [
  'Online visits and your answers to health questions',
  'Prescriptions and prescription refills',
  'Messages with your care team',
  'Your photo ID',
  'Your email, phone number, date of birth and payment card',
] as const;
