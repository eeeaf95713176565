import { sql, type Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import { reusable } from '#server/db/reusable.ts';

type Db = Kysely<Database>;

export interface Credentials {
  customerId: number;
  passwordHash: string;
}

export async function selectCredentialsByEmail(
  db: Db,
  email: string,
): Promise<Credentials | undefined> {
  const row = await db
    .selectFrom('customers')
    .select(['id', 'password_hash'])
    .where('email', '=', email)
    .executeTakeFirst();
  return row && { customerId: row.id, passwordHash: row.password_hash };
}

export async function selectPasswordHash(db: Db, customerId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('customers')
    .select('password_hash')
    .where('id', '=', customerId)
    .executeTakeFirst();
  return row?.password_hash;
}

export async function updatePasswordHash(
  db: Db,
  customerId: number,
  passwordHash: string,
  now: string,
): Promise<void> {
  await db
    .updateTable('customers')
    .set({ password_hash: passwordHash, updated_at: now })
    .where('id', '=', customerId)
    .execute();
}

export interface SessionUserRow {
  customerId: number;
  leadsId: string;
  firstName: string;
  lastName: string;
  email: string;
}

export async function selectSessionUser(
  db: Db,
  customerId: number,
): Promise<SessionUserRow | undefined> {
  const row = await db
    .selectFrom('customers')
    .select(['id', 'leads_id', 'first_name', 'last_name', 'email'])
    .where('id', '=', customerId)
    .executeTakeFirst();
  return (
    row && {
      customerId: row.id,
      leadsId: row.leads_id,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
    }
  );
}

// --- Sessions ------------------------------------------------------------------------------------

export interface SessionRow {
  tokenHash: string;
  publicId: string;
  customerId: number;
  leadsId: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  userAgent: string;
  network: string | null;
}

export async function insertSession(db: Db, session: Omit<SessionRow, 'leadsId'>): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      token_hash: session.tokenHash,
      public_id: session.publicId,
      customer_id: session.customerId,
      created_at: session.createdAt,
      last_seen_at: session.lastSeenAt,
      expires_at: session.expiresAt,
      user_agent: session.userAgent,
      network: session.network,
    })
    .execute();
}

const sessionQuery = reusable((db: Db, tokenHash: string) =>
  db
    .selectFrom('sessions as s')
    .innerJoin('customers as c', 'c.id', 's.customer_id')
    .select([
      's.token_hash',
      's.public_id',
      's.customer_id',
      'c.leads_id',
      's.created_at',
      's.last_seen_at',
      's.expires_at',
      's.user_agent',
    ])
    .where('s.token_hash', '=', tokenHash),
);

/** Read by every request whose session is not kept (decision 019), so compiled once. */
export async function selectSession(db: Db, tokenHash: string): Promise<SessionRow | undefined> {
  const [row] = await sessionQuery(db, tokenHash);
  return row && toSession(row);
}

export async function selectSessionsOf(db: Db, customerId: number): Promise<SessionRow[]> {
  const rows = await db
    .selectFrom('sessions as s')
    .innerJoin('customers as c', 'c.id', 's.customer_id')
    .select([
      's.token_hash',
      's.public_id',
      's.customer_id',
      'c.leads_id',
      's.created_at',
      's.last_seen_at',
      's.expires_at',
      's.user_agent',
      's.network',
    ])
    .where('s.customer_id', '=', customerId)
    .orderBy('s.last_seen_at', 'desc')
    .execute();
  return rows.map(toSession);
}

function toSession(row: {
  token_hash: string;
  public_id: string;
  customer_id: number;
  leads_id: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  user_agent: string;
  network?: string | null;
}): SessionRow {
  return {
    tokenHash: row.token_hash,
    publicId: row.public_id,
    customerId: row.customer_id,
    leadsId: row.leads_id,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    expiresAt: row.expires_at,
    userAgent: row.user_agent,
    network: row.network ?? null,
  };
}

/** Ends one session of a customer, named by its public id; false when they have none by that id. */
export async function deleteSessionByPublicId(
  db: Db,
  customerId: number,
  publicId: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('sessions')
    .where('customer_id', '=', customerId)
    .where('public_id', '=', publicId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function touchSession(db: Db, tokenHash: string, now: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ last_seen_at: now })
    .where('token_hash', '=', tokenHash)
    .execute();
}

export async function deleteSession(db: Db, tokenHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
}

/** Ends every session of a customer, except `keep` when given; returns how many ended. */
export async function deleteSessionsOf(db: Db, customerId: number, keep?: string): Promise<number> {
  let query = db.deleteFrom('sessions').where('customer_id', '=', customerId);
  if (keep) query = query.where('token_hash', '!=', keep);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

// --- Password resets -----------------------------------------------------------------------------

export async function insertPasswordReset(
  db: Db,
  reset: { tokenHash: string; customerId: number; createdAt: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('password_resets')
    .values({
      token_hash: reset.tokenHash,
      customer_id: reset.customerId,
      created_at: reset.createdAt,
      expires_at: reset.expiresAt,
      used_at: null,
    })
    .execute();
}

/** Marks a live reset token used, once: a second call, or an expired token, returns undefined. */
/** Whether a reset token is unused and unexpired; nothing is spent. */
export async function isPasswordResetUsable(
  db: Db,
  tokenHash: string,
  now: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('password_resets')
    .select('token_hash')
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

/** The email of the account a reset link is for, while the link still works. */
export async function selectPasswordResetEmail(
  db: Db,
  tokenHash: string,
  now: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('password_resets as r')
    .innerJoin('customers as c', 'c.id', 'r.customer_id')
    .select('c.email')
    .where('r.token_hash', '=', tokenHash)
    .where('r.used_at', 'is', null)
    .where('r.expires_at', '>', now)
    .executeTakeFirst();
  return row?.email;
}

export async function consumePasswordReset(
  db: Db,
  tokenHash: string,
  now: string,
): Promise<number | undefined> {
  const row = await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('customer_id')
    .executeTakeFirst();
  return row?.customer_id;
}

// --- Rate limits ---------------------------------------------------------------------------------

/** Counts one event under `key` in a fixed window and returns the count so far, atomically. */
export async function hitRateLimit(
  db: Db,
  key: string,
  now: Date,
  windowMs: number,
): Promise<number> {
  const nowIso = now.toISOString();
  const cutoff = new Date(now.getTime() - windowMs).toISOString();
  const row = await db
    .insertInto('rate_limits')
    .values({ key, window_start: nowIso, count: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when rate_limits.window_start <= ${cutoff} then 1 else rate_limits.count + 1 end`,
        window_start: sql<string>`case when rate_limits.window_start <= ${cutoff} then ${nowIso} else rate_limits.window_start end`,
      }),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  return row.count;
}

export async function peekRateLimit(
  db: Db,
  key: string,
  now: Date,
  windowMs: number,
): Promise<number> {
  const cutoff = new Date(now.getTime() - windowMs).toISOString();
  const row = await db
    .selectFrom('rate_limits')
    .select('count')
    .where('key', '=', key)
    .where('window_start', '>', cutoff)
    .executeTakeFirst();
  return row?.count ?? 0;
}

/** Gives back one counted event (an attempt that turned out not to be a failure). */
export async function releaseRateLimitHit(db: Db, key: string): Promise<void> {
  await db
    .updateTable('rate_limits')
    .set({ count: sql<number>`count - 1` })
    .where('key', '=', key)
    .where('count', '>', 0)
    .execute();
}

export async function clearRateLimit(db: Db, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).execute();
}

// --- Known devices and unlock links --------------------------------------------------------------

/** Whether this device token has logged in to `account` and the memory of it has not expired. */
export async function knownDeviceExists(
  db: Db,
  tokenHash: string,
  account: string,
  now: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('known_devices')
    .select('account')
    .where('token_hash', '=', tokenHash)
    .where('account', '=', account)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Gives a device a new token: every account it was known to stays known under the new one. The
 * old token, wherever it may have leaked or been planted from, stops counting.
 */
export async function rekeyDevice(db: Db, oldHash: string, newHash: string): Promise<void> {
  await db
    .updateTable('known_devices')
    .set({ token_hash: newHash })
    .where('token_hash', '=', oldHash)
    .execute();
}

/** Remembers (or refreshes) a device for an account, and forgets the account's expired devices. */
export async function upsertKnownDevice(
  db: Db,
  device: { tokenHash: string; account: string; now: string; expiresAt: string },
): Promise<void> {
  await db
    .deleteFrom('known_devices')
    .where('account', '=', device.account)
    .where('expires_at', '<=', device.now)
    .execute();
  await db
    .insertInto('known_devices')
    .values({
      token_hash: device.tokenHash,
      account: device.account,
      created_at: device.now,
      last_login_at: device.now,
      expires_at: device.expiresAt,
    })
    .onConflict((oc) =>
      oc
        .columns(['token_hash', 'account'])
        .doUpdateSet({ last_login_at: device.now, expires_at: device.expiresAt }),
    )
    .execute();
}

export async function deleteKnownDevicesOf(db: Db, account: string): Promise<void> {
  await db.deleteFrom('known_devices').where('account', '=', account).execute();
}

export async function insertLoginUnlock(
  db: Db,
  unlock: { tokenHash: string; account: string; createdAt: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('login_unlocks')
    .values({
      token_hash: unlock.tokenHash,
      account: unlock.account,
      created_at: unlock.createdAt,
      expires_at: unlock.expiresAt,
      used_at: null,
    })
    .execute();
}

/**
 * Spends a live unlock token of an account of this kind (`customer:` or `staff:`), once: a second
 * call, an expired token or one of the other kind returns undefined.
 */
export async function consumeLoginUnlock(
  db: Db,
  tokenHash: string,
  accountPrefix: 'customer:' | 'staff:',
  now: string,
): Promise<string | undefined> {
  const row = await db
    .updateTable('login_unlocks')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('account', 'like', `${accountPrefix}%`)
    .returning('account')
    .executeTakeFirst();
  return row?.account;
}

/** Spends every reset link of a customer still unused (after an email change is undone). */
export async function revokePasswordResets(db: Db, customerId: number, now: string): Promise<void> {
  await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('customer_id', '=', customerId)
    .where('used_at', 'is', null)
    .execute();
}
