import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';

// Invitations to link two accounts as partners (issue 16, decision 016): sent by email, answered
// by the person they were sent to, withdrawn by their inviter.

type Db = Kysely<Database>;

export interface InvitationRow {
  id: number;
  inviterId: number;
  email: string;
  tokenHash: string | null;
  /** `closed`: its invitee linked with someone else (see closeInvitationsTo). */
  status: 'pending' | 'accepted' | 'declined' | 'withdrawn' | 'closed';
  createdAt: string;
  expiresAt: string;
}

const invitationColumns = [
  'id',
  'inviter_id',
  'email',
  'token_hash',
  'status',
  'created_at',
  'expires_at',
] as const;

function toInvitation(row: {
  id: number;
  inviter_id: number;
  email: string;
  token_hash: string | null;
  status: InvitationRow['status'];
  created_at: string;
  expires_at: string;
}): InvitationRow {
  return {
    id: row.id,
    inviterId: row.inviter_id,
    email: row.email,
    tokenHash: row.token_hash,
    status: row.status,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

export async function insertInvitation(
  db: Db,
  invitation: { inviterId: number; email: string; now: string; expiresAt: string },
): Promise<number> {
  const row = await db
    .insertInto('partner_invitations')
    .values({
      inviter_id: invitation.inviterId,
      email: invitation.email,
      token_hash: null,
      status: 'pending',
      created_at: invitation.now,
      expires_at: invitation.expiresAt,
      answered_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function selectInvitation(db: Db, id: number): Promise<InvitationRow | undefined> {
  const row = await db
    .selectFrom('partner_invitations')
    .select(invitationColumns)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toInvitation(row);
}

/** The customer's latest invitation, whatever became of it. */
export async function selectLatestSent(
  db: Db,
  inviterId: number,
): Promise<InvitationRow | undefined> {
  const row = await db
    .selectFrom('partner_invitations')
    .select(invitationColumns)
    .where('inviter_id', '=', inviterId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && toInvitation(row);
}

/**
 * What an inviter may still withdraw: pending, or closed because its invitee linked with someone
 * else, which its inviter is never told (decision 016).
 */
const OPEN_TO_INVITER = ['pending', 'closed'] as const;

/** The customer's invitations still open to them (expired ones too: they are closed with the rest). */
export async function selectPendingSent(db: Db, inviterId: number): Promise<InvitationRow[]> {
  const rows = await db
    .selectFrom('partner_invitations')
    .select(invitationColumns)
    .where('inviter_id', '=', inviterId)
    .where('status', 'in', OPEN_TO_INVITER)
    .execute();
  return rows.map(toInvitation);
}

export interface ReceivedRow {
  id: number;
  inviterId: number;
  createdAt: string;
  expiresAt: string;
}

/**
 * Open invitations for someone: sent to their email (null while it is not proved), or the one
 * whose link (token) they hold; never their own.
 */
export async function selectReceived(
  db: Db,
  who: { customerId: number; email: string | null; tokenHash: string | null; now: string },
): Promise<ReceivedRow[]> {
  if (who.email === null && who.tokenHash === null) return [];
  const rows = await db
    .selectFrom('partner_invitations')
    .select(['id', 'inviter_id', 'created_at', 'expires_at'])
    .where('status', '=', 'pending')
    .where('expires_at', '>', who.now)
    .where('inviter_id', '!=', who.customerId)
    .where((eb) =>
      eb.or([
        ...(who.email === null ? [] : [eb('email', '=', who.email)]),
        ...(who.tokenHash === null ? [] : [eb('token_hash', '=', who.tokenHash)]),
      ]),
    )
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    inviterId: r.inviter_id,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
  }));
}

/** Answers a pending invitation; false when it was no longer pending (someone else answered). */
export async function closeInvitation(
  db: Db,
  id: number,
  status: 'accepted' | 'declined',
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('partner_invitations')
    .set({ status, answered_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The inviter withdraws an invitation still open to them; false when it no longer was. */
export async function withdrawSent(db: Db, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('partner_invitations')
    .set({ status: 'withdrawn', answered_at: now })
    .where('id', '=', id)
    .where('status', 'in', OPEN_TO_INVITER)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * A link was made: the invitations still waiting for either partner's address can no longer be
 * accepted (their inviters are not told; to them each reads as waiting until it expires).
 */
export async function closeInvitationsTo(db: Db, emails: string[], now: string): Promise<void> {
  await db
    .updateTable('partner_invitations')
    .set({ status: 'closed', answered_at: now })
    .where('email', 'in', emails)
    .where('status', '=', 'pending')
    .execute();
}

/** Stores the hash of the token an invitation's email carries, while the invitation is open. */
export async function setInvitationToken(
  db: Db,
  id: number,
  tokenHash: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('partner_invitations')
    .set({ token_hash: tokenHash })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
