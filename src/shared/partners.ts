import { z } from 'zod';
import { apiPaths } from './api.ts';
import { EmailSchema } from './auth.ts';
import { endpoint } from './contract.ts';
import { usDateFromIso } from './dates.ts';
import { idSchema } from './ids.ts';
import { orderStatuses } from './orders.ts';
import { PARTNER_INVITE_TTL_DAYS, sharingItems, sharingItemText } from './partners-privacy.ts';
import { SubscriptionFrequencySchema } from './subscriptions.ts';
import { programCategories, programs, type ProgramCategory } from './visits.ts';

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
  /** You invited `counterpart` to start their own visit of `program` (`quiet`: without saying you started one). */
  'visit_invited',
  /** You dismissed `counterpart`'s invitation to a visit of `program`. */
  'visit_invitation_dismissed',
  /** `counterpart` declined your gift subscription, or your couples' plan (decision 018). */
  'gift_declined',
  'plan_declined',
  /** The gift or couples' plan with `counterpart` ended: cancelled, or the link ended. */
  'gift_ended',
  'plan_ended',
] as const;
export type HistoryKind = (typeof historyKinds)[number];

export const HistoryEventSchema = z.object({
  kind: z.enum(historyKinds),
  item: z.enum(sharingItems).nullable(),
  counterpart: z.string(),
  quiet: z.boolean(),
  /** ISO instant */
  at: z.string(),
  /** The program a visit invitation's line is about (issue 16); null on every other line. */
  program: z.enum(programCategories).nullable(),
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
    case 'visit_invited': {
      const program = event.program ? programs[event.program].name : 'an online';
      return event.quiet
        ? `You invited ${who} to start their own ${program} visit ${on}, without saying you started one.`
        : `You invited ${who} to start their own ${program} visit ${on}, and let them know you started one.`;
    }
    case 'visit_invitation_dismissed': {
      const program = event.program ? aProgramVisit(event.program) : 'an online visit';
      return `You dismissed ${who}'s suggestion of ${program} ${on}.`;
    }
    case 'gift_declined':
      return `${who} declined your gift subscription ${on}. Nothing was charged.`;
    case 'plan_declined':
      return `${who} declined your couples' plan ${on}. Nothing was charged.`;
    case 'gift_ended':
      return `The gift subscription between you and ${who} ended ${on}. Nothing more will be charged.`;
    case 'plan_ended':
      return `Your couples' plan with ${who} ended ${on}. Nothing more will be charged.`;
  }
}

/** "a Sleep visit", "an ED visit": the program's name with its article, for sentences. */
export function aProgramVisit(program: ProgramCategory): string {
  const name = programs[program].name;
  return `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name} visit`;
}

/**
 * A visit invitation as its invitee reads it (issue 16). With `started` off it says nothing of the
 * inviter's own visit: only that they think one might be worth a look.
 */
export function visitInvitationText(invitation: {
  from_first_name: string;
  program: ProgramCategory;
  started: boolean;
}): string {
  const name = invitation.from_first_name;
  const visit = aProgramVisit(invitation.program);
  return invitation.started
    ? `${name} started ${visit} and invited you to start yours.`
    : `${name} thinks ${visit} might be worth a look.`;
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
  /**
   * Visit invitations (issue 16). `can_send`: the programs the caller finished a visit of (decided
   * by a provider), while linked, and whether an invitation of it is waiting for the partner.
   * `received`: the partner's invitations waiting for the caller; never the inviter's visit id,
   * status or answers, and whether they started a visit only when they chose to say so.
   */
  visit_invitations: z.object({
    can_send: z.array(z.object({ program: z.enum(programCategories), pending: z.boolean() })),
    received: z.array(
      z.object({
        invitation_id: z.number().int(),
        from_first_name: z.string(),
        program: z.enum(programCategories),
        /** The inviter chose to say they started a visit of the program. */
        started: z.boolean(),
        /** Where the caller's own visit of the program starts. */
        start_path: z.string(),
        /** ISO instant */
        sent_at: z.string(),
      }),
    ),
  }),
  /**
   * Whether your email address is proved (issue 26): until it is, invitations sent to it are not
   * shown (one whose link you opened still is).
   */
  email_verified: z.boolean(),
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

export const VisitInviteSchema = z.strictObject({
  program: z.enum(programCategories, { error: 'Choose a program' }),
  /** "Let {name} know I started a visit": off unless the patient turns it on. */
  reveal_started: z.boolean({ error: 'Choose whether your partner may know you started a visit' }),
});

export const VisitInvitationAnswerSchema = z.strictObject({
  invitation_id: idSchema('Choose an invitation'),
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
  /** Issue 16: the order ships to you (the viewer), to the address you share. */
  ships_to_you: z.boolean(),
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
    example: { email: 'sam@example.com' },
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
  /** Invite the partner to start their own visit of a program the caller finished. No email. */
  visitInvite: endpoint({
    path: apiPaths.partnerVisitInvite,
    access: 'customer',
    body: VisitInviteSchema,
    message: 'Invitation sent.',
    errors: ['NOT_FOUND', 'VISIT_INVITATION_PENDING'],
  }),
  /** The invitee puts a visit invitation away. */
  visitInviteDismiss: endpoint({
    path: apiPaths.partnerVisitInviteDismiss,
    access: 'customer',
    body: VisitInvitationAnswerSchema,
    message: 'Dismissed.',
    errors: ['NOT_FOUND'],
  }),
};

/** Why an invitation can no longer be answered, in the words the invitee reads. */
export const invitationClosedText = {
  expired: `This invitation has expired. Invitations last ${PARTNER_INVITE_TTL_DAYS} days; ask for a new one.`,
  closed: 'This invitation is no longer open.',
} as const;

export const alreadyLinkedText =
  'You already have a partner linked. Unlink first to link with someone else.';
