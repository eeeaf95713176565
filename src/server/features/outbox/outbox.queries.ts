import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';

type Db = Kysely<Database>;

export interface NewOutboxMessage {
  kind: 'email' | 'sms';
  messageId: string;
  recipient: string;
  subject: string;
  text: string;
  html: string | null;
  secretPurpose: string | null;
  secretRef: string | null;
  now: string;
}

export async function insertMessage(db: Db, m: NewOutboxMessage): Promise<number> {
  const row = await db
    .insertInto('outbox_messages')
    .values({
      kind: m.kind,
      message_id: m.messageId,
      recipient: m.recipient,
      subject: m.subject,
      text: m.text,
      html: m.html,
      secret_purpose: m.secretPurpose,
      secret_ref: m.secretRef,
      status: 'pending',
      attempts: 0,
      next_attempt_at: m.now,
      created_at: m.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface ClaimedMessage {
  id: number;
  kind: 'email' | 'sms';
  messageId: string;
  recipient: string;
  subject: string;
  text: string;
  html: string | null;
  secretPurpose: string | null;
  secretRef: string | null;
  attempts: number;
}

/**
 * Claims up to `limit` due messages until `leaseUntil`. Each claim is its own conditional update,
 * so of two instances reading the same candidates each message goes to exactly one of them; a
 * claim whose sender died runs out at `leaseUntil` and the message is due again.
 */
export async function claimDue(
  db: Db,
  now: string,
  leaseUntil: string,
  limit: number,
): Promise<{ claimed: ClaimedMessage[]; full: boolean }> {
  const candidates = await db
    .selectFrom('outbox_messages')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  const claimed: number[] = [];
  for (const { id } of candidates) {
    const result = await db
      .updateTable('outbox_messages')
      .set({ claimed_until: leaseUntil })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) claimed.push(id);
  }
  // `full`: there were as many candidates as asked for, so more may be due, even when another
  // instance won some of them (the claimed count alone would end a drain early).
  const full = candidates.length === limit;
  if (claimed.length === 0) return { claimed: [], full };
  const rows = await db
    .selectFrom('outbox_messages')
    .select([
      'id',
      'kind',
      'message_id',
      'recipient',
      'subject',
      'text',
      'html',
      'secret_purpose',
      'secret_ref',
      'attempts',
    ])
    .where('id', 'in', claimed)
    .orderBy('id')
    .execute();
  const messages = rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    messageId: r.message_id,
    recipient: r.recipient,
    subject: r.subject,
    text: r.text,
    html: r.html,
    secretPurpose: r.secret_purpose,
    secretRef: r.secret_ref,
    attempts: r.attempts,
  }));
  return { claimed: messages, full };
}

/** Sent: the row keeps its envelope (who, what subject, when) but no longer its words. */
export async function markSent(db: Db, id: number, leaseUntil: string, now: string) {
  await db
    .updateTable('outbox_messages')
    .set((eb) => ({
      status: 'sent',
      attempts: eb('attempts', '+', 1),
      sent_at: now,
      text: '',
      html: null,
      claimed_until: null,
      last_error: null,
    }))
    .where('id', '=', id)
    .where('claimed_until', '=', leaseUntil)
    .execute();
}

/** One more failed attempt: due again at `nextAttemptAt`, or failed for good when that is null. */
export async function markAttemptFailed(
  db: Db,
  id: number,
  leaseUntil: string,
  failure: { error: string; nextAttemptAt: string | null },
) {
  await db
    .updateTable('outbox_messages')
    .set((eb) => ({
      status: failure.nextAttemptAt === null ? 'failed' : 'pending',
      attempts: eb('attempts', '+', 1),
      ...(failure.nextAttemptAt === null ? {} : { next_attempt_at: failure.nextAttemptAt }),
      claimed_until: null,
      last_error: failure.error,
    }))
    .where('id', '=', id)
    .where('claimed_until', '=', leaseUntil)
    .execute();
}

export interface ProblemRow {
  id: number;
  kind: 'email' | 'sms';
  recipient: string;
  subject: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  lastError: string | null;
  createdAt: string;
  nextAttemptAt: string;
}

/** Failed messages, and pending ones queued before `lateBefore`: newest first. No bodies. */
export async function selectProblems(db: Db, lateBefore: string, limit: number) {
  const rows = await db
    .selectFrom('outbox_messages')
    .select([
      'id',
      'kind',
      'recipient',
      'subject',
      'status',
      'attempts',
      'last_error',
      'created_at',
      'next_attempt_at',
    ])
    .where((eb) =>
      eb.or([
        eb('status', '=', 'failed'),
        eb.and([eb('status', '=', 'pending'), eb('created_at', '<', lateBefore)]),
      ]),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r): ProblemRow => ({
    id: r.id,
    kind: r.kind,
    recipient: r.recipient,
    subject: r.subject,
    status: r.status,
    attempts: r.attempts,
    lastError: r.last_error,
    createdAt: r.created_at,
    nextAttemptAt: r.next_attempt_at,
  }));
}

/**
 * Due now with a fresh set of attempts: only a message that has not been sent and that no sender
 * holds at this moment (its claim would otherwise be taken from under it, and it would go twice).
 */
export async function requeue(db: Db, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('outbox_messages')
    .set({ status: 'pending', attempts: 0, next_attempt_at: now })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'failed'])
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function selectStatus(db: Db, id: number) {
  return db
    .selectFrom('outbox_messages')
    .select(['status', 'recipient'])
    .where('id', '=', id)
    .executeTakeFirst();
}
