// The partners feature's emails (issue 16, decision 016): the invitation, with the token its link
// carries, and the short note that a link ended. Nothing else about partners is ever emailed: a
// visit invitation names a program, which is health information, and gifts and plans are read in
// the app.
import type { AppContext } from '#server/context.ts';
import { queueEmail, SECRET_SLOT } from '#server/features/outbox/outbox.service.ts';
import { emailHtml, emailSignature } from '#server/lib/email-layout.ts';
import { absoluteLink } from '#server/lib/links.ts';
import { hashToken, randomToken } from '#server/lib/tokens.ts';
import { PARTNER_INVITE_TTL_DAYS } from '#shared/partners.ts';
import { paths } from '#shared/paths.ts';
import { site } from '#shared/site.ts';
import { setInvitationToken } from './partners.invitations.queries.ts';

export const PARTNER_INVITE_SECRET = 'partner-invite';

/**
 * The invitation email: who invited them (first name only), what linking means and what it never
 * shares. Someone with an account goes to their partner page; anyone else to sign-up, which keeps
 * the invitation for after. The token is made as the email goes out (mintPartnerInvite).
 */
export async function queueInvitation(
  tx: AppContext,
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
  const stored = await setInvitationToken(
    ctx.db,
    id,
    hashToken(token),
    ctx.clock.now().toISOString(),
  );
  return stored ? token : null;
}

/** The short note to the other partner that the link ended: nothing more. */
export async function queueLinkEnded(
  tx: AppContext,
  notice: { to: string; firstName: string },
): Promise<void> {
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
