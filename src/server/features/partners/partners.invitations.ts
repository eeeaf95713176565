// Invitations to link two accounts as partners (issue 16, decision 016): inviting by email,
// withdrawing, and the invitee accepting or declining. An invitation tells its inviter nothing
// about anyone; the link it makes shares nothing until each partner chooses to.
import type { AppContext } from '#server/context.ts';
import {
  customerBrief,
  hasAccountWithEmail,
  lockCustomers,
  type CustomerBrief,
} from '#server/features/accounts/accounts.people.ts';
import { enforceRateLimit, type ActiveSession } from '#server/features/auth/auth.service.ts';
import { sendQueuedSoon } from '#server/features/outbox/outbox.service.ts';
import { AppError, notFound } from '#server/lib/errors.ts';
import { hashToken, wellFormedToken } from '#server/lib/tokens.ts';
import {
  alreadyLinkedText,
  invitationClosedText,
  PARTNER_INVITE_TTL_MS,
  type PartnerOverview,
} from '#shared/partners.ts';
import { queueInvitation } from './partners.emails.ts';
import * as iq from './partners.invitations.queries.ts';
import { me } from './partners.people.ts';
import * as q from './partners.queries.ts';

const DAY_MS = 24 * 60 * 60_000;
const INVITES_PER_DAY = 10;

export const invitationNotFound = 'We could not find that invitation.';

type Tx = AppContext;

const isExpired = (invitation: iq.InvitationRow, now: string) => invitation.expiresAt <= now;

// --- What the inviter sees -----------------------------------------------------------------------

/**
 * The inviter's own invitation as the page shows it: waiting, declined or expired, plainly. One
 * closed because its invitee linked with someone else still reads as waiting: the inviter learns
 * nothing of the invitee's life from it.
 */
export function sentStatus(invitation: iq.InvitationRow, now: string): PartnerOverview['sent'] {
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
  const hasAccount = await hasAccountWithEmail(ctx, address);
  await ctx.db.transaction().execute(async (trx) => {
    const tx: Tx = { ...ctx, db: trx };
    await withdrawPending(tx, self.customerId, nowIso);
    const id = await iq.insertInvitation(trx, {
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
  for (const invitation of await iq.selectPendingSent(tx.db, inviterId)) {
    if (!(await iq.withdrawSent(tx.db, invitation.id, now))) continue;
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

export async function withdrawInvitation(
  ctx: AppContext,
  session: ActiveSession,
  invitationId: number,
): Promise<void> {
  const invitation = await iq.selectInvitation(ctx.db, invitationId);
  if (!invitation || invitation.inviterId !== session.customerId)
    throw notFound(invitationNotFound);
  const now = ctx.clock.now().toISOString();
  assertOpen(invitation, now, openToInviter);
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await iq.withdrawSent(trx, invitation.id, now)))
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
const openToInviter = (invitation: iq.InvitationRow) =>
  invitation.status === 'pending' || invitation.status === 'closed';

const openToInvitee = (invitation: iq.InvitationRow) => invitation.status === 'pending';

function assertOpen(
  invitation: iq.InvitationRow,
  now: string,
  open: (invitation: iq.InvitationRow) => boolean = openToInvitee,
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
  self: CustomerBrief,
  invitationId: number,
  inviteToken: string | undefined,
): Promise<iq.InvitationRow> {
  const invitation = await iq.selectInvitation(ctx.db, invitationId);
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
): Promise<{ self: CustomerBrief; invitation: iq.InvitationRow; now: string }> {
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
  const inviter = await customerBrief(ctx, invitation.inviterId);
  if (!inviter) throw new AppError('INVITATION_CLOSED', invitationClosedText.closed);

  await ctx.db.transaction().execute(async (trx) => {
    const tx: Tx = { ...ctx, db: trx };
    await lockCustomers(trx, [self.customerId, inviter.customerId]);
    if (!(await iq.closeInvitation(trx, invitation.id, 'accepted', now)))
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
    await iq.closeInvitationsTo(trx, [self.email, inviter.email.toLowerCase()], now);
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
  const inviter = await customerBrief(ctx, invitation.inviterId);
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await iq.closeInvitation(trx, invitation.id, 'declined', now)))
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
