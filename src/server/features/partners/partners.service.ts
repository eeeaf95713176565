import type { AppContext } from '#server/context.ts';
import { enforceRateLimit, type ActiveSession } from '#server/features/auth/auth.service.ts';
import { forgetProgressToPartner } from '#server/features/checkout/checkout.progress.ts';
import { queueEmail, SECRET_SLOT, sendQueuedSoon } from '#server/features/outbox/outbox.service.ts';
import { emailHtml, emailSignature } from '#server/lib/email-layout.ts';
import { AppError, notFound } from '#server/lib/errors.ts';
import { absoluteLink } from '#server/lib/links.ts';
import { hashToken, randomToken, wellFormedToken } from '#server/lib/tokens.ts';
import {
  alreadyLinkedText,
  aProgramVisit,
  invitationClosedText,
  nothingShared,
  PARTNER_INVITE_TTL_DAYS,
  PARTNER_INVITE_TTL_MS,
  type PartnerOverview,
  type PartnerShared,
  type Sharing,
  type SharingItem,
} from '#shared/partners.ts';
import { bottlesPerDelivery } from '#shared/catalog.ts';
import { paths } from '#shared/paths.ts';
import { site } from '#shared/site.ts';
import { programs, type ProgramCategory } from '#shared/visits.ts';
import * as q from './partners.queries.ts';
import * as vq from './partners.visit-invitations.queries.ts';
import { endTogetherOnUnlink } from './partners.together.ts';

/**
 * Partners (issue 16, decision 016). Every answer is read from the database on the call that asks
 * for it, never from a cache: an unlink on one instance is the next call's truth on every other.
 */

const DAY_MS = 24 * 60 * 60_000;
const INVITES_PER_DAY = 10;
const HISTORY_SHOWN = 100;

const invitationNotFound = 'We could not find that invitation.';
const notLinked = 'You are not linked with a partner.';

type Tx = AppContext;

async function me(ctx: AppContext, session: ActiveSession): Promise<q.CustomerBrief> {
  const brief = await q.selectCustomerBrief(ctx.db, session.customerId);
  // The session outlived its account: as any other call would, ask for a log-in.
  if (!brief) throw new AppError('UNAUTHENTICATED', 'Please log in again.');
  return { ...brief, email: brief.email.toLowerCase() };
}

const isExpired = (invitation: q.InvitationRow, now: string) => invitation.expiresAt <= now;

// --- What the partner page shows -----------------------------------------------------------------

export async function partnerOverview(
  ctx: AppContext,
  session: ActiveSession,
  inviteToken: string | undefined,
): Promise<PartnerOverview> {
  const self = await me(ctx, session);
  const now = ctx.clock.now().toISOString();
  const link = await q.selectOwnLink(ctx.db, self.customerId);
  const theirSide = link ? await q.selectSideSharedWith(ctx.db, self.customerId) : undefined;
  const partner = link ? await q.selectCustomerBrief(ctx.db, link.partnerId) : undefined;
  const latest = link ? undefined : await q.selectLatestSent(ctx.db, self.customerId);
  const received = await q.selectReceived(ctx.db, {
    customerId: self.customerId,
    // A typed address proves nothing: only a proved one, or the invitation's own link, finds it.
    email: self.emailVerified ? self.email : null,
    tokenHash: wellFormedToken(inviteToken) ? hashToken(inviteToken) : null,
    now,
  });
  const events = await q.selectEvents(ctx.db, self.customerId, HISTORY_SHOWN);
  const visitInvitations = link
    ? await visitInvitationsOf(ctx, self.customerId, link.partnerId, partner?.firstName ?? '')
    : { can_send: [], received: [] };

  return {
    partner:
      link && partner
        ? {
            first_name: partner.firstName,
            linked_at: link.linkedAt,
            shares_with_you:
              theirSide && theirSide.customerId === link.partnerId
                ? theirSide.shares
                : nothingShared,
          }
        : null,
    you_share: link?.shares ?? nothingShared,
    sent: latest ? sentStatus(latest, now) : null,
    received: received.map((r) => ({
      invitation_id: r.id,
      from_first_name: r.fromFirstName,
      sent_at: r.createdAt,
      expires_at: r.expiresAt,
    })),
    history: events.map((e) => ({
      kind: e.kind,
      item: e.item,
      counterpart: e.counterpart,
      quiet: e.quiet,
      at: e.at,
      program: e.program ?? null,
    })),
    visit_invitations: visitInvitations,
    email_verified: self.emailVerified,
  };
}

/**
 * The inviter's own invitation as the page shows it: waiting, declined or expired, plainly. One
 * closed because its invitee linked with someone else still reads as waiting: the inviter learns
 * nothing of the invitee's life from it.
 */
function sentStatus(invitation: q.InvitationRow, now: string): PartnerOverview['sent'] {
  const status =
    invitation.status === 'declined'
      ? 'declined'
      : !openToInviter(invitation)
        ? null
        : isExpired(invitation, now)
          ? 'expired'
          : 'pending';
  if (status === null) return null;
  return {
    invitation_id: invitation.id,
    email: invitation.email,
    status,
    sent_at: invitation.createdAt,
    expires_at: invitation.expiresAt,
  };
}

// --- Inviting ------------------------------------------------------------------------------------

/**
 * Invites someone by email. The answer is the same whether or not the address has an account or a
 * partner, so an invitation tells the inviter nothing about anyone. A new invitation replaces a
 * pending one.
 */
export async function invitePartner(
  ctx: AppContext,
  session: ActiveSession,
  email: string,
): Promise<void> {
  const self = await me(ctx, session);
  const address = email.toLowerCase();
  if (address === self.email) {
    const message = "Enter your partner's email, not your own.";
    throw new AppError('VALIDATION', message, { email: message });
  }
  if (await q.selectOwnLink(ctx.db, self.customerId))
    throw new AppError('PARTNER_LINKED', alreadyLinkedText);
  await enforceRateLimit(ctx, `partner-invite:${self.customerId}`, INVITES_PER_DAY, DAY_MS);

  const now = ctx.clock.now();
  const nowIso = now.toISOString();
  const hasAccount = await q.customerExistsWithEmail(ctx.db, address);
  await ctx.db.transaction().execute(async (trx) => {
    const tx: Tx = { ...ctx, db: trx };
    await withdrawPending(tx, self.customerId, nowIso);
    const id = await q.insertInvitation(trx, {
      inviterId: self.customerId,
      email: address,
      now: nowIso,
      expiresAt: new Date(now.getTime() + PARTNER_INVITE_TTL_MS).toISOString(),
    });
    await q.insertEvent(trx, self.customerId, {
      kind: 'invited',
      item: null,
      counterpart: address,
      quiet: false,
      at: nowIso,
    });
    await queueInvitation(tx, { id, to: address, inviterFirstName: self.firstName, hasAccount });
  });
  sendQueuedSoon(ctx);
}

/** Closes the customer's pending invitations (their links stop working), each in the history. */
async function withdrawPending(tx: Tx, inviterId: number, now: string): Promise<void> {
  for (const invitation of await q.selectPendingSent(tx.db, inviterId)) {
    if (!(await q.withdrawSent(tx.db, invitation.id, now))) continue;
    if (isExpired(invitation, now)) continue;
    await q.insertEvent(tx.db, inviterId, {
      kind: 'invitation_withdrawn',
      item: null,
      counterpart: invitation.email,
      quiet: false,
      at: now,
    });
  }
}

export const PARTNER_INVITE_SECRET = 'partner-invite';

/**
 * The invitation email: who invited them (first name only), what linking means and what it never
 * shares. Someone with an account goes to their partner page; anyone else to sign-up, which keeps
 * the invitation for after. The token is made as the email goes out (mintPartnerInvite).
 */
async function queueInvitation(
  tx: Tx,
  invitation: { id: number; to: string; inviterFirstName: string; hasAccount: boolean },
): Promise<void> {
  const target = invitation.hasAccount
    ? `${paths.partner}?invite=${SECRET_SLOT}`
    : `${paths.signup}?partnerInvite=${SECRET_SLOT}`;
  const link = absoluteLink(tx.env, target);
  const name = invitation.inviterFirstName;
  const lines = [
    'Hello,',
    `${name} invited you to link your ${site.name} accounts as partners.`,
    'Once linked, each of you chooses what the other can see: a shipping address, store orders and their tracking, supplement subscriptions. Nothing is shared until you choose to. Online visits and everything in them, messages with your care team and photo IDs are never shared.',
    `This invitation expires in ${PARTNER_INVITE_TTL_DAYS} days.`,
  ];
  const label = invitation.hasAccount ? 'See the invitation' : 'Create your account';
  const footnote = `If you don't know ${name}, you can ignore this email: nothing is linked unless you accept. Questions? Reply to this email or write to ${site.supportEmail}.`;
  await queueEmail(tx, {
    to: invitation.to,
    secret: { purpose: PARTNER_INVITE_SECRET, ref: String(invitation.id) },
    subject: `${name} invited you to link accounts on ${site.name}`,
    text: [...lines, '', `${label}: ${link}`, '', footnote, '', ...emailSignature].join('\n'),
    html: emailHtml(lines, { href: link, label }, footnote),
  });
}

/**
 * The outbox's minter for invitation emails: a fresh token while the invitation is still open
 * (none once it was withdrawn, answered or has expired). Only its hash is kept.
 */
export async function mintPartnerInvite(ctx: AppContext, ref: string): Promise<string | null> {
  const id = Number(ref);
  if (!Number.isSafeInteger(id)) return null;
  const token = randomToken();
  const stored = await q.setInvitationToken(
    ctx.db,
    id,
    hashToken(token),
    ctx.clock.now().toISOString(),
  );
  return stored ? token : null;
}

export async function withdrawInvitation(
  ctx: AppContext,
  session: ActiveSession,
  invitationId: number,
): Promise<void> {
  const invitation = await q.selectInvitation(ctx.db, invitationId);
  if (!invitation || invitation.inviterId !== session.customerId)
    throw notFound(invitationNotFound);
  const now = ctx.clock.now().toISOString();
  assertOpen(invitation, now, openToInviter);
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await q.withdrawSent(trx, invitation.id, now)))
      throw new AppError('INVITATION_CLOSED', invitationClosedText.closed);
    await q.insertEvent(trx, session.customerId, {
      kind: 'invitation_withdrawn',
      item: null,
      counterpart: invitation.email,
      quiet: false,
      at: now,
    });
  });
}

/**
 * Whether the inviter may still withdraw it: pending, or closed because its invitee linked with
 * someone else, which the inviter is not told (a closure they could see would tell them).
 */
const openToInviter = (invitation: q.InvitationRow) =>
  invitation.status === 'pending' || invitation.status === 'closed';

const openToInvitee = (invitation: q.InvitationRow) => invitation.status === 'pending';

function assertOpen(
  invitation: q.InvitationRow,
  now: string,
  open: (invitation: q.InvitationRow) => boolean = openToInvitee,
): void {
  if (!open(invitation)) throw new AppError('INVITATION_CLOSED', invitationClosedText.closed);
  if (isExpired(invitation, now))
    throw new AppError('INVITATION_CLOSED', invitationClosedText.expired);
}

/**
 * The invitation, when it is addressed to the caller: sent to their email, proved by a link mailed
 * to it (whoever signs up with, or changes to, an address they cannot read proves nothing), or
 * they hold its link. Anyone else's is "not found", exactly as one that does not exist.
 */
async function invitationFor(
  ctx: AppContext,
  self: q.CustomerBrief,
  invitationId: number,
  inviteToken: string | undefined,
): Promise<q.InvitationRow> {
  const invitation = await q.selectInvitation(ctx.db, invitationId);
  const holdsLink =
    wellFormedToken(inviteToken) &&
    invitation?.tokenHash !== null &&
    invitation?.tokenHash === hashToken(inviteToken);
  if (
    !invitation ||
    invitation.inviterId === self.customerId ||
    ((invitation.email !== self.email || !self.emailVerified) && !holdsLink)
  )
    throw notFound(invitationNotFound);
  return invitation;
}

// --- Answering -----------------------------------------------------------------------------------

/**
 * What accepting and declining both start with: the caller, the invitation when it is addressed
 * to them (else "not found"), and the moment, once it is known to be still open.
 */
async function openInvitationFor(
  ctx: AppContext,
  session: ActiveSession,
  invitationId: number,
  inviteToken: string | undefined,
): Promise<{ self: q.CustomerBrief; invitation: q.InvitationRow; now: string }> {
  const self = await me(ctx, session);
  const invitation = await invitationFor(ctx, self, invitationId, inviteToken);
  const now = ctx.clock.now().toISOString();
  assertOpen(invitation, now);
  return { self, invitation, now };
}

/**
 * Accepts an invitation: the two accounts are linked, sharing nothing yet. The database's unique
 * keys decide a race (two invitations accepted at once): one link is made, the other call is told
 * plainly and changes nothing.
 */
export async function acceptInvitation(
  ctx: AppContext,
  session: ActiveSession,
  invitationId: number,
  inviteToken: string | undefined,
): Promise<void> {
  const { self, invitation, now } = await openInvitationFor(
    ctx,
    session,
    invitationId,
    inviteToken,
  );
  if (await q.selectOwnLink(ctx.db, self.customerId))
    throw new AppError('PARTNER_LINKED', alreadyLinkedText);
  const inviter = await q.selectCustomerBrief(ctx.db, invitation.inviterId);
  if (!inviter) throw new AppError('INVITATION_CLOSED', invitationClosedText.closed);

  await ctx.db.transaction().execute(async (trx) => {
    const tx: Tx = { ...ctx, db: trx };
    await q.lockCustomers(trx, [self.customerId, inviter.customerId]);
    if (!(await q.closeInvitation(trx, invitation.id, 'accepted', now)))
      throw new AppError('INVITATION_CLOSED', invitationClosedText.closed);
    // The unique keys are the rule: if either person was linked meanwhile, a side is refused.
    const selfLinked = await q.insertLinkSide(trx, self.customerId, inviter.customerId, now);
    const inviterLinked =
      selfLinked && (await q.insertLinkSide(trx, inviter.customerId, self.customerId, now));
    if (!inviterLinked) {
      const selfTaken = await q.selectOwnLink(trx, self.customerId);
      throw selfTaken
        ? new AppError('PARTNER_LINKED', alreadyLinkedText)
        : new AppError('INVITATION_CLOSED', invitationClosedText.closed);
    }
    // Every other invitation either of them sent or received closes with the link, so none
    // lingers to be accepted later (decision 016).
    await withdrawPending(tx, self.customerId, now);
    await withdrawPending(tx, inviter.customerId, now);
    await q.closeInvitationsTo(trx, [self.email, inviter.email.toLowerCase()], now);
    for (const [who, other] of [
      [self, inviter],
      [inviter, self],
    ] as const)
      await q.insertEvent(trx, who.customerId, {
        kind: 'linked',
        item: null,
        counterpart: other.firstName,
        quiet: false,
        at: now,
      });
  });
}

export async function declineInvitation(
  ctx: AppContext,
  session: ActiveSession,
  invitationId: number,
  inviteToken: string | undefined,
): Promise<void> {
  const { self, invitation, now } = await openInvitationFor(
    ctx,
    session,
    invitationId,
    inviteToken,
  );
  const inviter = await q.selectCustomerBrief(ctx.db, invitation.inviterId);
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await q.closeInvitation(trx, invitation.id, 'declined', now)))
      throw new AppError('INVITATION_CLOSED', invitationClosedText.closed);
    await q.insertEvent(trx, self.customerId, {
      kind: 'declined',
      item: null,
      counterpart: inviter?.firstName ?? 'someone',
      quiet: false,
      at: now,
    });
    // The inviter learns it was declined, under the address they typed: nothing about the account.
    await q.insertEvent(trx, invitation.inviterId, {
      kind: 'invitation_declined',
      item: null,
      counterpart: invitation.email,
      quiet: false,
      at: now,
    });
  });
}

// --- Unlinking -----------------------------------------------------------------------------------

/**
 * Ends the link at once: both sides and every sharing choice go in one statement, so the next call
 * of either partner, on any instance, sees nothing. `notify` false is a quiet unlink: no email.
 */
export async function unlinkPartner(
  ctx: AppContext,
  session: ActiveSession,
  notify: boolean,
): Promise<void> {
  const self = await me(ctx, session);
  const link = await q.selectOwnLink(ctx.db, self.customerId);
  if (!link) throw notFound(notLinked);
  const partner = await q.selectCustomerBrief(ctx.db, link.partnerId);
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    await q.lockCustomers(trx, [self.customerId, link.partnerId]);
    if ((await q.deleteLink(trx, self.customerId, link.partnerId)) === 0) throw notFound(notLinked);
    // Visit invitations waiting either way end with the link (issue 16).
    await vq.endVisitInvitations(trx, self.customerId, link.partnerId, now);
    // Neither keeps the other's address in a checkout under way to them (issue 26).
    for (const customerId of [self.customerId, link.partnerId])
      await forgetProgressToPartner({ ...ctx, db: trx }, customerId);
    await q.insertEvent(trx, self.customerId, {
      kind: 'unlinked',
      item: null,
      counterpart: partner?.firstName ?? 'your partner',
      quiet: !notify,
      at: now,
    });
    if (!partner) return;
    // Gifts and couples' plans between them end with the link (decision 018): no email.
    await endTogetherOnUnlink({ ...ctx, db: trx }, self, partner, now);
    await q.insertEvent(trx, partner.customerId, {
      kind: 'link_ended',
      item: null,
      counterpart: self.firstName,
      quiet: false,
      at: now,
    });
    if (notify)
      await queueLinkEnded(
        { ...ctx, db: trx },
        { to: partner.email, firstName: partner.firstName },
      );
  });
  if (notify) sendQueuedSoon(ctx);
}

/** The short note to the other partner that the link ended: nothing more. */
async function queueLinkEnded(tx: Tx, notice: { to: string; firstName: string }): Promise<void> {
  const link = absoluteLink(tx.env, paths.partner);
  const lines = [
    `Hello ${notice.firstName},`,
    `The partner link between your ${site.name} account and your partner's has ended. Nothing is shared between your accounts any more.`,
  ];
  const footnote = `Questions? Reply to this email or write to ${site.supportEmail}.`;
  await queueEmail(tx, {
    to: notice.to,
    subject: `Your partner link on ${site.name} has ended`,
    text: [...lines, '', `Your account: ${link}`, '', footnote, '', ...emailSignature].join('\n'),
    html: emailHtml(lines, { href: link, label: 'Go to your account' }, footnote),
  });
}

// --- Sharing -------------------------------------------------------------------------------------

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
    const partner = await q.selectCustomerBrief(trx, link.partnerId);
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

// --- What the partner shares with the caller -----------------------------------------------------

/**
 * Exactly what the caller's linked partner chose to share, read now: each section null unless its
 * switch is on, and all of them null with no link. Never contact details, card or anything
 * clinical (the queries select none of it).
 */
export async function sharedWithMe(
  ctx: AppContext,
  session: ActiveSession,
): Promise<PartnerShared> {
  const side = await q.selectSideSharedWith(ctx.db, session.customerId);
  const partner = side && (await q.selectCustomerBrief(ctx.db, side.customerId));
  if (!side || !partner) return { partner: null, address: null, orders: null, subscriptions: null };
  const owner = side.customerId;

  const address = side.shares.address ? await q.selectShippingAddress(ctx.db, owner) : undefined;
  let orders: PartnerShared['orders'] = null;
  if (side.shares.orders) {
    const rows = await q.selectStoreOrders(ctx.db, owner);
    const lines = await q.selectOrderLines(
      ctx.db,
      rows.map((r) => r.id),
    );
    orders = rows.map((r) => ({
      order_number: r.orderNumber,
      order_date: r.createdAt,
      status: r.status,
      tracking_number: r.trackingNumber,
      ships_to_you: r.shipToPartnerId === session.customerId,
      items: lines
        .filter((l) => l.orderId === r.id)
        .map((l) => ({ product_name: l.productName, quantity: l.quantity })),
    }));
  }
  const subscriptions = side.shares.subscriptions
    ? (await q.selectSupplementSubscriptions(ctx.db, owner)).map((s) => ({
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

// --- Together for a visit -----------------------------------------------------------------------

/**
 * The visit invitations of a linked pair as `self` sees them: the programs `self` finished a visit
 * of (and whether one waits for the partner), and the partner's invitations waiting for `self`.
 * Nothing of the inviter's visit goes out: not its id, status or answers, and that they started
 * one only when they chose to say so.
 */
async function visitInvitationsOf(
  ctx: AppContext,
  selfId: number,
  partnerId: number,
  partnerFirstName: string,
): Promise<PartnerOverview['visit_invitations']> {
  const finished = await vq.selectFinishedPrograms(ctx.db, selfId);
  const pending = await vq.selectPendingVisitPrograms(ctx.db, selfId, partnerId);
  const received = await vq.selectVisitInvitationsFor(ctx.db, selfId, partnerId);
  return {
    can_send: finished.map((program) => ({ program, pending: pending.includes(program) })),
    received: received.map((r) => ({
      invitation_id: r.id,
      from_first_name: partnerFirstName,
      program: r.program,
      started: r.revealStarted,
      start_path: paths.visit(r.program),
      sent_at: r.createdAt,
    })),
  };
}

/**
 * From a finished visit (decided by a provider), the patient invites their partner to start their
 * own visit of the same program. `revealStarted` off (the default) says nothing of the patient's
 * visit. No email is sent (a program is health information); the partner sees it when they log in.
 * At most one waits per program per pair: the database's unique index decides a race.
 */
export async function sendVisitInvitation(
  ctx: AppContext,
  session: ActiveSession,
  program: ProgramCategory,
  revealStarted: boolean,
): Promise<void> {
  const link = await q.selectOwnLink(ctx.db, session.customerId);
  if (!link) throw notFound(notLinked);
  const partner = await q.selectCustomerBrief(ctx.db, link.partnerId);
  if (!partner) throw notFound(notLinked);
  const programName = programs[program].name;
  if (!(await vq.selectFinishedPrograms(ctx.db, session.customerId)).includes(program))
    throw notFound(
      `You have no finished ${programName} visit to invite ${partner.firstName} from.`,
    );
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    // Still linked, as the transaction sees it: an unlink meanwhile leaves nothing behind.
    if (!(await q.selectOwnLink(trx, session.customerId))) throw notFound(notLinked);
    const made = await vq.insertVisitInvitation(trx, {
      inviterId: session.customerId,
      inviteeId: partner.customerId,
      program,
      revealStarted,
      now,
    });
    if (!made)
      throw new AppError(
        'VISIT_INVITATION_PENDING',
        `Your invitation to ${partner.firstName} for ${aProgramVisit(program)} is already waiting for them.`,
      );
    await q.insertEvent(trx, session.customerId, {
      kind: 'visit_invited',
      item: null,
      counterpart: partner.firstName,
      quiet: !revealStarted,
      at: now,
      program,
    });
  });
}

/** The invitee puts a visit invitation away; it is written to their own history. */
export async function dismissVisitInvitation(
  ctx: AppContext,
  session: ActiveSession,
  invitationId: number,
): Promise<void> {
  const notThere = () => notFound(invitationNotFound);
  const invitation = await vq.selectPendingVisitInvitation(
    ctx.db,
    invitationId,
    session.customerId,
  );
  if (!invitation) throw notThere();
  const inviter = await q.selectCustomerBrief(ctx.db, invitation.inviterId);
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await vq.closeVisitInvitation(trx, invitation.id, 'dismissed', now))) throw notThere();
    await q.insertEvent(trx, session.customerId, {
      kind: 'visit_invitation_dismissed',
      item: null,
      counterpart: inviter?.firstName ?? 'your partner',
      quiet: false,
      at: now,
      program: invitation.program,
    });
  });
}

// --- For operations ------------------------------------------------------------------------------

/** Whether a customer is linked, for the operations order page: first name and customer id only. */
export async function partnerForStaff(
  ctx: AppContext,
  customerId: number,
): Promise<{ first_name: string; customer_id: number } | null> {
  const brief = await q.selectPartnerBrief(ctx.db, customerId);
  return brief ? { first_name: brief.firstName, customer_id: brief.customerId } : null;
}

/**
 * The partner a store order ships to, for the operations order page: first name and customer id,
 * nothing else of theirs. Null when that account no longer exists.
 */
export async function shipsToPartnerForStaff(
  ctx: AppContext,
  partnerId: number,
): Promise<{ first_name: string; customer_id: number } | null> {
  const brief = await q.selectCustomerBrief(ctx.db, partnerId);
  return brief ? { first_name: brief.firstName, customer_id: brief.customerId } : null;
}
