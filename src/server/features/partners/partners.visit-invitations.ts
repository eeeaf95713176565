// Together for a visit (issue 16, decision 016): from a finished visit, a patient invites their
// partner to start their own visit of the same program; the partner starts one or puts it away.
// Only the program travels: nothing of the inviter's visit, and no email.
import type { AppContext } from '#server/context.ts';
import { customerBrief } from '#server/features/accounts/accounts.people.ts';
import type { ActiveSession } from '#server/features/auth/auth.service.ts';
import { finishedProgramsOf } from '#server/features/visits/visits.program.ts';
import { AppError, notFound } from '#server/lib/errors.ts';
import { aProgramVisit, type PartnerOverview } from '#shared/partners.ts';
import { paths } from '#shared/paths.ts';
import { programs, type ProgramCategory } from '#shared/visits.ts';
import { invitationNotFound } from './partners.invitations.ts';
import { notLinked } from './partners.people.ts';
import * as q from './partners.queries.ts';
import * as vq from './partners.visit-invitations.queries.ts';

/**
 * The visit invitations of a linked pair as `self` sees them: the programs `self` finished a visit
 * of (and whether one waits for the partner), and the partner's invitations waiting for `self`.
 * Nothing of the inviter's visit goes out: not its id, status or answers, and that they started
 * one only when they chose to say so.
 */
export async function visitInvitationsOf(
  ctx: AppContext,
  selfId: number,
  partnerId: number,
  partnerFirstName: string,
): Promise<PartnerOverview['visit_invitations']> {
  const finished = await finishedProgramsOf(ctx, selfId);
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
  const partner = await customerBrief(ctx, link.partnerId);
  if (!partner) throw notFound(notLinked);
  const programName = programs[program].name;
  if (!(await finishedProgramsOf(ctx, session.customerId)).includes(program))
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
  const inviter = await customerBrief(ctx, invitation.inviterId);
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
