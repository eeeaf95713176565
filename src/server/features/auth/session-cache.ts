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
 * do not each look the session up again (issue 14). On PostgreSQL only, where several instances
 * share the sessions: every instance listens on one channel, and whatever ends a customer's
 * sessions (log out, another device logged out, a password changed or reset, an account secured)
 * notifies it in the same transaction, so every instance forgets them when it commits. While the
 * listening connection is down, nothing is kept or read from here. On SQLite the one indexed
 * lookup stays: its statement is prepared once and the file is local, and processes sharing a
 * file could not tell each other.
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
const SESSION_CACHE_ENTRIES = 10_000;
const CHANNEL = 'pairwell_sessions_ended';

export function createSessionCache(database: DbOptions): SessionCache {
  if (!database.databaseUrl) return noSessionCache;
  const kept = new LRUCache<string, KeptSession>({
    max: SESSION_CACHE_ENTRIES,
    ttl: SESSION_CACHE_TTL_MS,
  });
  let listening = false;
  /** Bumped whenever sessions end: a read that started before must not be kept. */
  let generation = 0;
  const forget = (customerId: number) => {
    generation += 1;
    for (const [tokenHash, session] of kept.entries())
      if (session.customerId === customerId) kept.delete(tokenHash);
  };
  const listener = listenPostgres(database, CHANNEL, {
    onNotice(payload) {
      const customerId = Number(payload);
      if (Number.isSafeInteger(customerId)) forget(customerId);
    },
    onReady(ready) {
      // Notices may have been missed while it was down: start again from nothing.
      generation += 1;
      kept.clear();
      listening = ready;
    },
  });
  return {
    get: (tokenHash) => (listening ? kept.get(tokenHash) : undefined),
    reading() {
      const started = generation;
      return (tokenHash, session) => {
        if (listening && generation === started) kept.set(tokenHash, session);
      };
    },
    async ended(db, customerId) {
      forget(customerId);
      await sql`select pg_notify(${CHANNEL}, ${String(customerId)})`.execute(db);
    },
    close: () => listener.close(),
  };
}

/** SQLite: every session is read from the database. */
const noSessionCache: SessionCache = {
  get: () => undefined,
  reading: () => () => undefined,
  ended: async () => undefined,
  close: async () => undefined,
};
