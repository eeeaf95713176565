import type { AppContext } from '#server/context.ts';
import {
  customerBrief,
  firstNamesOf,
  lockCustomers,
} from '#server/features/accounts/accounts.people.ts';
import type { ActiveSession } from '#server/features/auth/auth.service.ts';
import { forgetProgressToPartner } from '#server/features/checkout/checkout.progress.ts';
import { sendQueuedSoon } from '#server/features/outbox/outbox.service.ts';
import { notFound } from '#server/lib/errors.ts';
import { hashToken, wellFormedToken } from '#server/lib/tokens.ts';
import { nothingShared, type PartnerOverview } from '#shared/partners.ts';
import { queueLinkEnded } from './partners.emails.ts';
import * as iq from './partners.invitations.queries.ts';
import { sentStatus } from './partners.invitations.ts';
import { me, notLinked } from './partners.people.ts';
import * as q from './partners.queries.ts';
import { endTogetherOnUnlink } from './partners.together-changes.ts';
import * as vq from './partners.visit-invitations.queries.ts';
import { visitInvitationsOf } from './partners.visit-invitations.ts';

/**
 * Partners (issue 16, decision 016): the link itself — the partner page's overview, unlinking, and
 * what operations see of a link. Each other story has its own file: invitations, sharing, visit
 * invitations, shipping to the partner, gifts and couples' plans, emails. Every answer is read
 * from the database on the call that asks for it, never from a cache: an unlink on one instance is
 * the next call's truth on every other.
 */

const HISTORY_SHOWN = 100;

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
  const partner = link ? await customerBrief(ctx, link.partnerId) : undefined;
  const latest = link ? undefined : await iq.selectLatestSent(ctx.db, self.customerId);
  const received = await iq.selectReceived(ctx.db, {
    customerId: self.customerId,
    // A typed address proves nothing: only a proved one, or the invitation's own link, finds it.
    email: self.emailVerified ? self.email : null,
    tokenHash: wellFormedToken(inviteToken) ? hashToken(inviteToken) : null,
    now,
  });
  // Each inviter's first name from accounts, for all of them at once; one whose account is gone
  // has nobody to link with, so their invitation is not shown.
  const inviters = await firstNamesOf(
    ctx,
    received.map((r) => r.inviterId),
  );
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
    received: received.flatMap((r) => {
      const fromFirstName = inviters.get(r.inviterId);
      return fromFirstName === undefined
        ? []
        : [
            {
              invitation_id: r.id,
              from_first_name: fromFirstName,
              sent_at: r.createdAt,
              expires_at: r.expiresAt,
            },
          ];
    }),
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
  const partner = await customerBrief(ctx, link.partnerId);
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    await lockCustomers(trx, [self.customerId, link.partnerId]);
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

// --- For operations ------------------------------------------------------------------------------

/** Whether a customer is linked, for the operations order page: first name and customer id only. */
export async function partnerForStaff(
  ctx: AppContext,
  customerId: number,
): Promise<{ first_name: string; customer_id: number } | null> {
  const link = await q.selectOwnLink(ctx.db, customerId);
  const brief = link && (await customerBrief(ctx, link.partnerId));
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
  const brief = await customerBrief(ctx, partnerId);
  return brief ? { first_name: brief.firstName, customer_id: brief.customerId } : null;
}
