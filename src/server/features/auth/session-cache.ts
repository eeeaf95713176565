import { sql, type Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { listenPostgres, type DbOptions } from '#server/db/client.ts';
import type { Database } from '#server/db/schema.ts';

/** A customer session as the database had it when it was read. */
export interface KeptSession {
  customerId: number;
  leadsId: string;
  /** ISO instants */
  lastSeenAt: string;
  expiresAt: string;
}

/**
 * Customer sessions read from the database, kept for a few seconds so that a page's several calls
 * do not each look the session up again (issue 14). Whatever ends a customer's sessions (log out,
 * another device logged out, a password changed or reset, an account secured) forgets them here at
 * once, and every other instance sharing the database learns of it:
 * - on PostgreSQL, every instance listens on one channel, and the change notifies it in the same
 *   transaction, so every instance forgets them when it commits. While the listening connection is
 *   down, nothing is kept or read from here.
 * - on SQLite, other processes (or connections) on the same file cannot notify: before using what
 *   it keeps, an instance asks SQLite whether any other connection has committed since it last
 *   asked (`PRAGMA data_version`, which reads no table), at most every SQLITE_CHECK_MS, and forgets
 *   everything when one has. Its own commits go through `ended`.
 */
export interface SessionCache {
  /** The session kept for this token hash, if any. */
  get(tokenHash: string): KeptSession | undefined;
  /**
   * Call before reading a session from the database; keep what was read with the function it
   * returns. A read that overlapped the end of any session is not kept (it may be the old row).
   */
  reading(): (tokenHash: string, session: KeptSession) => void;
  /**
   * The customer's sessions ended (or some of them): forgotten here at once, and on every instance
   * when `db`'s transaction commits.
   */
  ended(db: Kysely<Database>, customerId: number): Promise<void>;
  close(): Promise<void>;
}

/** How long a session is trusted without reading it again, at most. */
export const SESSION_CACHE_TTL_MS = 10_000;
/**
 * SQLite: how long what is kept is used before asking again whether another connection wrote to
 * the file; so a session another process ends is refused here within this long (on PostgreSQL,
 * within the notice's delivery).
 */
export const SQLITE_CHECK_MS = 20;
const SESSION_CACHE_ENTRIES = 10_000;
const CHANNEL = 'pairwell_sessions_ended';

/** What both databases share: the kept sessions, and the count of ends that guards reads. */
function keptSessions() {
  const kept = new LRUCache<string, KeptSession>({
    max: SESSION_CACHE_ENTRIES,
    ttl: SESSION_CACHE_TTL_MS,
  });
  /** Bumped whenever sessions end: a read that started before must not be kept. */
  let generation = 0;
  return {
    kept,
    get generation() {
      return generation;
    },
    forget(customerId: number) {
      generation += 1;
      for (const [tokenHash, session] of kept.entries())
        if (session.customerId === customerId) kept.delete(tokenHash);
    },
    forgetAll() {
      generation += 1;
      kept.clear();
    },
  };
}

/**
 * `dataVersion` is SQLite's `PRAGMA data_version` on the app's connection (DbHandle); PostgreSQL
 * needs none.
 */
export function createSessionCache(
  database: DbOptions,
  dataVersion: (() => number) | undefined,
): SessionCache {
  if (database.databaseUrl) return postgresSessionCache(database);
  if (!dataVersion) throw new Error('A SQLite session cache needs PRAGMA data_version');
  return sqliteSessionCache(dataVersion);
}

function postgresSessionCache(database: DbOptions): SessionCache {
  const sessions = keptSessions();
  let listening = false;
  const listener = listenPostgres(database, CHANNEL, {
    onNotice(payload) {
      const customerId = Number(payload);
      if (Number.isSafeInteger(customerId)) sessions.forget(customerId);
    },
    onReady(ready) {
      // Notices may have been missed while it was down: start again from nothing.
      sessions.forgetAll();
      listening = ready;
    },
  });
  return {
    get: (tokenHash) => (listening ? sessions.kept.get(tokenHash) : undefined),
    reading() {
      const started = sessions.generation;
      return (tokenHash, session) => {
        if (listening && sessions.generation === started) sessions.kept.set(tokenHash, session);
      };
    },
    async ended(db, customerId) {
      sessions.forget(customerId);
      await sql`select pg_notify(${CHANNEL}, ${String(customerId)})`.execute(db);
    },
    close: () => listener.close(),
  };
}

function sqliteSessionCache(dataVersion: () => number): SessionCache {
  const sessions = keptSessions();
  let version = dataVersion();
  let checkedAt = performance.now();
  /** Forgets everything when another connection has committed since the last check. */
  const check = () => {
    const now = performance.now();
    if (now - checkedAt < SQLITE_CHECK_MS) return;
    checkedAt = now;
    const current = dataVersion();
    if (current !== version) sessions.forgetAll();
    version = current;
  };
  return {
    get(tokenHash) {
      check();
      return sessions.kept.get(tokenHash);
    },
    reading() {
      const started = sessions.generation;
      return (tokenHash, session) => {
        if (sessions.generation === started) sessions.kept.set(tokenHash, session);
      };
    },
    async ended(_db, customerId) {
      // This connection's own commits do not change its data_version: forget here.
      sessions.forget(customerId);
    },
    close: async () => undefined,
  };
}
