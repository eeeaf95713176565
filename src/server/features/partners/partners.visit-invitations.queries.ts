// Visit invitations ("Together for a visit", issue 16, decision 016): a patient who finished a
// visit invites their partner to start their own of the same program. Only the program travels.
import { sql, type Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import type { ProgramCategory } from '#shared/visits.ts';

/**
 * A pending visit invitation's status, written into the SQL instead of bound: it is the condition
 * of the partial index of pending invitations, and SQLite prepares a statement again on every run
 * when a bound value decides whether a partial index applies (decision 017).
 */
const PENDING_INVITATION = sql.lit('pending' as const);

type Db = Kysely<Database>;

/** A new pending invitation; false when one of the program already waits (the unique index). */
export async function insertVisitInvitation(
  db: Db,
  invitation: {
    inviterId: number;
    inviteeId: number;
    program: ProgramCategory;
    revealStarted: boolean;
    now: string;
  },
): Promise<boolean> {
  const row = await db
    .insertInto('partner_visit_invitations')
    .values({
      inviter_id: invitation.inviterId,
      invitee_id: invitation.inviteeId,
      program: invitation.program,
      reveal_started: invitation.revealStarted ? 1 : 0,
      status: 'pending',
      created_at: invitation.now,
      closed_at: null,
    })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The programs of the pending invitations from `inviterId` to `inviteeId`. */
export async function selectPendingVisitPrograms(
  db: Db,
  inviterId: number,
  inviteeId: number,
): Promise<ProgramCategory[]> {
  const rows = await db
    .selectFrom('partner_visit_invitations')
    .select('program')
    .where('inviter_id', '=', inviterId)
    .where('invitee_id', '=', inviteeId)
    .where('status', '=', PENDING_INVITATION)
    .execute();
  return rows.map((r) => r.program);
}

export interface VisitInvitationRow {
  id: number;
  inviterId: number;
  program: ProgramCategory;
  revealStarted: boolean;
  createdAt: string;
}

/**
 * The pending invitations waiting for `inviteeId` from `inviterId`, newest first, as the invitee
 * sees them: one of a program they have opened a visit of since it came has done its work for
 * them. It stays pending all the same, for the inviter sees nothing of the invitee's visits.
 */
export async function selectVisitInvitationsFor(
  db: Db,
  inviteeId: number,
  inviterId: number,
): Promise<VisitInvitationRow[]> {
  const rows = await db
    .selectFrom('partner_visit_invitations as i')
    .select(['i.id', 'i.inviter_id', 'i.program', 'i.reveal_started', 'i.created_at'])
    .where('i.invitee_id', '=', inviteeId)
    .where('i.inviter_id', '=', inviterId)
    .where('i.status', '=', PENDING_INVITATION)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('visits as v')
            .select('v.id')
            .whereRef('v.customer_id', '=', 'i.invitee_id')
            .whereRef('v.category', '=', 'i.program')
            .whereRef('v.created_at', '>=', 'i.created_at'),
        ),
      ),
    )
    .orderBy('i.id', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    inviterId: r.inviter_id,
    program: r.program,
    revealStarted: r.reveal_started === 1,
    createdAt: r.created_at,
  }));
}

/** A pending invitation waiting for `inviteeId`, by id; anyone else's is not found. */
export async function selectPendingVisitInvitation(
  db: Db,
  id: number,
  inviteeId: number,
): Promise<VisitInvitationRow | undefined> {
  const row = await db
    .selectFrom('partner_visit_invitations')
    .select(['id', 'inviter_id', 'program', 'reveal_started', 'created_at'])
    .where('id', '=', id)
    .where('invitee_id', '=', inviteeId)
    .where('status', '=', PENDING_INVITATION)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      inviterId: row.inviter_id,
      program: row.program,
      revealStarted: row.reveal_started === 1,
      createdAt: row.created_at,
    }
  );
}

/** Closes one pending invitation; false when it was no longer pending. */
export async function closeVisitInvitation(
  db: Db,
  id: number,
  status: 'dismissed' | 'ended',
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('partner_visit_invitations')
    .set({ status, closed_at: now })
    .where('id', '=', id)
    .where('status', '=', PENDING_INVITATION)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ends every pending invitation between a and b, either way (the link ended). */
export async function endVisitInvitations(
  db: Db,
  a: number,
  b: number,
  now: string,
): Promise<void> {
  // One direction at a time: SQLite's planner refuses the OR of both over these partial indexes.
  for (const [inviter, invitee] of [
    [a, b],
    [b, a],
  ] as const)
    await db
      .updateTable('partner_visit_invitations')
      .set({ status: 'ended', closed_at: now })
      .where('inviter_id', '=', inviter)
      .where('invitee_id', '=', invitee)
      .where('status', '=', PENDING_INVITATION)
      .execute();
}
