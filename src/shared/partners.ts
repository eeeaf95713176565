import { z } from 'zod';
import { apiPaths } from './api.ts';
import { EmailSchema } from './auth.ts';
import { endpoint } from './contract.ts';
import { usDateFromIso } from './dates.ts';
import { idSchema } from './ids.ts';
import { orderStatuses } from './orders.ts';
import { PARTNER_INVITE_TTL_DAYS, sharingItems, sharingItemText } from './partners-privacy.ts';
import { SubscriptionFrequencySchema } from './subscriptions.ts';

export {
  neverShared,
  PARTNER_INVITE_TTL_DAYS,
  PARTNER_INVITE_TTL_MS,
  sharingItems,
  sharingItemText,
  type SharingItem,
} from './partners-privacy.ts';

/**
 * Partners (issue 16, decision 016): two accounts linked by invitation and consent. Each partner
 * chooses, item by item, what the other may see; nothing is shared until they do. Health records
 * (visits, answers, prescriptions, messages with providers, photo IDs) have no setting at all:
 * they are never shown to a partner.
 */

export const SharingSchema = z.object({
  address: z.boolean(),
  orders: z.boolean(),
  subscriptions: z.boolean(),
});
export type Sharing = z.infer<typeof SharingSchema>;

export const nothingShared: Sharing = { address: false, orders: false, subscriptions: false };

export const historyKinds = [
  /** You invited `counterpart` (an email address). */
  'invited',
  /** You withdrew your invitation to `counterpart`. */
  'invitation_withdrawn',
  /** `counterpart` (an email address) declined your invitation. */
  'invitation_declined',
  /** You declined `counterpart`'s invitation. */
  'declined',
  /** You and `counterpart` linked. */
  'linked',
  /** You unlinked from `counterpart` (`quiet`: without telling them). */
  'unlinked',
  /** The link with `counterpart` ended (they unlinked). */
  'link_ended',
  'sharing_started',
  'sharing_stopped',
] as const;
export type HistoryKind = (typeof historyKinds)[number];

export const HistoryEventSchema = z.object({
  kind: z.enum(historyKinds),
  item: z.enum(sharingItems).nullable(),
  counterpart: z.string(),
  quiet: z.boolean(),
  /** ISO instant */
  at: z.string(),
});
export type HistoryEvent = z.infer<typeof HistoryEventSchema>;

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** One line of the customer's partner history, in their words: "You started sharing …". */
export function historyText(event: HistoryEvent): string {
  const on = `on ${usDateFromIso(event.at.slice(0, 10))}`;
  const item = event.item ? lowerFirst(sharingItemText[event.item].label) : '';
  const who = event.counterpart;
  switch (event.kind) {
    case 'invited':
      return `You invited ${who} to link as your partner ${on}.`;
    case 'invitation_withdrawn':
      return `You withdrew your invitation to ${who} ${on}.`;
    case 'invitation_declined':
      return `${who} declined your invitation ${on}.`;
    case 'declined':
      return `You declined ${who}'s invitation ${on}.`;
    case 'linked':
      return `You and ${who} linked as partners ${on}.`;
    case 'unlinked':
      return event.quiet
        ? `You unlinked from ${who} ${on}, without notifying them. Sharing ended.`
        : `You unlinked from ${who} ${on}. Sharing ended.`;
    case 'link_ended':
      return `Your link with ${who} ended ${on}. Sharing ended.`;
    case 'sharing_started':
      return `You started sharing your ${item} ${on}.`;
    case 'sharing_stopped':
      return `You stopped sharing your ${item} ${on}.`;
  }
}

export const invitationStatuses = ['pending', 'declined', 'expired'] as const;

export const PartnerOverviewSchema = z.object({
  /** The linked partner, and what they share with you; null when not linked. */
  partner: z
    .object({
      first_name: z.string(),
      /** ISO instant */
      linked_at: z.string(),
      shares_with_you: SharingSchema,
    })
    .nullable(),
  /** What you share with your partner (all false when not linked). */
  you_share: SharingSchema,
  /** Your latest invitation, while it is pending, or once declined or expired (not after a link). */
  sent: z
    .object({
      invitation_id: z.number().int(),
      email: z.string(),
      status: z.enum(invitationStatuses),
      sent_at: z.string(),
      expires_at: z.string(),
    })
    .nullable(),
  /** Invitations waiting for your answer. */
  received: z.array(
    z.object({
      invitation_id: z.number().int(),
      from_first_name: z.string(),
      sent_at: z.string(),
      expires_at: z.string(),
    }),
  ),
  /** Newest first. */
  history: z.array(HistoryEventSchema),
});
export type PartnerOverview = z.infer<typeof PartnerOverviewSchema>;

/** The token from an invitation's link (`?invite=`): shows that invitation to whoever holds it. */
const InviteTokenSchema = z.string().max(256).optional();

const invitationId = idSchema('Choose an invitation');

export const PartnerOverviewRequestSchema = z.strictObject({ invite_token: InviteTokenSchema });

export const InviteSchema = z.strictObject({ email: EmailSchema });

export const InvitationAnswerSchema = z.strictObject({
  invitation_id: invitationId,
  invite_token: InviteTokenSchema,
});

export const WithdrawSchema = z.strictObject({ invitation_id: invitationId });

export const UnlinkSchema = z.strictObject({
  /** False: a quiet unlink, no email to the other partner. */
  notify: z.boolean({ error: 'Choose whether to notify your partner' }),
});

export const SharingChangeSchema = z.strictObject({
  item: z.enum(sharingItems, { error: 'Choose what to share' }),
  shared: z.boolean({ error: 'Choose whether to share it' }),
});

export const PartnerAddressSchema = z.object({
  address: z.string(),
  address2: z.string(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
});

export const PartnerOrderSchema = z.object({
  order_number: z.string(),
  /** ISO instant */
  order_date: z.string(),
  status: z.enum(orderStatuses),
  tracking_number: z.string().nullable(),
  items: z.array(z.object({ product_name: z.string(), quantity: z.number().int() })),
});
export type PartnerOrder = z.infer<typeof PartnerOrderSchema>;

export const PartnerSubscriptionSchema = z.object({
  product_name: z.string(),
  frequency: SubscriptionFrequencySchema,
  /** What arrives in one delivery (three every quarter for a quarterly plan of one). */
  bottles: z.number().int(),
  status: z.enum(['ACTIVE', 'PAUSED']),
  /** YYYY-MM-DD */
  next_date: z.string(),
});
export type PartnerSubscription = z.infer<typeof PartnerSubscriptionSchema>;

/**
 * What the linked partner shares with the caller: each section null unless its switch is on, and
 * everything null (with no partner) when not linked. Never an email, phone, date of birth, card or
 * anything clinical.
 */
export const PartnerSharedSchema = z.object({
  partner: z.object({ first_name: z.string() }).nullable(),
  address: PartnerAddressSchema.nullable(),
  orders: z.array(PartnerOrderSchema).nullable(),
  subscriptions: z.array(PartnerSubscriptionSchema).nullable(),
});
export type PartnerShared = z.infer<typeof PartnerSharedSchema>;

export const partnersApi = {
  /** Partner, invitations, what each shares and the history; read fresh on every call. */
  overview: endpoint({
    path: apiPaths.partners,
    access: 'customer',
    body: PartnerOverviewRequestSchema,
    response: PartnerOverviewSchema,
    errors: [],
  }),
  invite: endpoint({
    path: apiPaths.partnerInvite,
    access: 'customer',
    body: InviteSchema,
    message: 'Invitation sent.',
    errors: ['PARTNER_LINKED'],
  }),
  withdraw: endpoint({
    path: apiPaths.partnerInviteWithdraw,
    access: 'customer',
    body: WithdrawSchema,
    message: 'Invitation withdrawn.',
    errors: ['NOT_FOUND', 'INVITATION_CLOSED'],
  }),
  accept: endpoint({
    path: apiPaths.partnerInviteAccept,
    access: 'customer',
    body: InvitationAnswerSchema,
    message: 'You are now linked as partners. Nothing is shared until one of you chooses to.',
    errors: ['NOT_FOUND', 'INVITATION_CLOSED', 'PARTNER_LINKED'],
  }),
  decline: endpoint({
    path: apiPaths.partnerInviteDecline,
    access: 'customer',
    body: InvitationAnswerSchema,
    message: 'Invitation declined.',
    errors: ['NOT_FOUND', 'INVITATION_CLOSED'],
  }),
  unlink: endpoint({
    path: apiPaths.partnerUnlink,
    access: 'customer',
    body: UnlinkSchema,
    message: 'You are no longer linked. Nothing is shared any more.',
    errors: ['NOT_FOUND'],
  }),
  sharing: endpoint({
    path: apiPaths.partnerSharing,
    access: 'customer',
    body: SharingChangeSchema,
    response: z.object({ you_share: SharingSchema }),
    errors: ['NOT_FOUND'],
  }),
  shared: endpoint({
    path: apiPaths.partnerShared,
    access: 'customer',
    body: z.strictObject({}),
    response: PartnerSharedSchema,
    errors: [],
  }),
};

/** Why an invitation can no longer be answered, in the words the invitee reads. */
export const invitationClosedText = {
  expired: `This invitation has expired. Invitations last ${PARTNER_INVITE_TTL_DAYS} days; ask for a new one.`,
  closed: 'This invitation is no longer open.',
} as const;

export const alreadyLinkedText =
  'You already have a partner linked. Unlink first to link with someone else.';
