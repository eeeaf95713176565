import fs from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql, type SqliteDatabase } from 'kysely';
import type pg from 'pg';
import { ensurePrivateFile, PRIVATE_FILE_MODE } from '#server/lib/private-files.ts';
import type { Database } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface DbHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Where the SQLite file lives (undefined on PostgreSQL). */
  file?: string;
  /**
   * SQLite: `PRAGMA data_version` on the app's connection, which changes when another connection
   * (another process on the same file) commits; the connection's own commits leave it alone.
   * Undefined on PostgreSQL.
   */
  dataVersion?: () => number;
  close: () => Promise<void>;
}

export interface DbOptions {
  dataDir: string;
  databaseUrl?: string | undefined;
  /** PostgreSQL schema to work in (tests give each app its own). */
  pgSchema?: string;
  /** SQLite file name inside dataDir, or ':memory:'. */
  sqliteFile?: string;
  /** Told when an idle PostgreSQL connection fails (the pool replaces it). */
  onPoolError?: (error: Error) => void;
}

/**
 * Each driver is loaded when a database of its kind is opened, so a process holds only the one its
 * configuration uses (issue 14: pg's modules were resident in every SQLite server).
 */
const require = createRequire(import.meta.url);
let sqliteDriver: typeof SQLite | undefined;
const loadSqlite = () => (sqliteDriver ??= require('better-sqlite3') as typeof SQLite);
let pgDriver: typeof pg | undefined;
function loadPg(): typeof pg {
  if (pgDriver) return pgDriver;
  const loaded = require('pg') as typeof pg;
  // PostgreSQL returns BIGINT (COUNT, SUM) as text by default; our values fit in a JS number.
  loaded.types.setTypeParser(loaded.types.builtins.INT8, (value) => Number(value));
  return (pgDriver = loaded);
}

export function openDatabase(options: DbOptions): DbHandle {
  if (options.databaseUrl) return openPostgres(options);
  return openSqlite(options.dataDir, options.sqliteFile ?? 'pairwell.db');
}

/** Asks SQLite whether another connection has committed since (it reads no table). */
export const SQLITE_DATA_VERSION = 'PRAGMA data_version';

function openSqlite(dataDir: string, fileName: string): DbHandle {
  const file = fileName === ':memory:' ? fileName : path.resolve(dataDir, fileName);
  if (file !== ':memory:') {
    // 0600 before SQLite opens it: the -wal and -shm files it creates copy the database's mode.
    ensurePrivateFile(file);
    for (const companion of [`${file}-wal`, `${file}-shm`])
      if (fs.existsSync(companion)) fs.chmodSync(companion, PRIVATE_FILE_MODE);
  }
  const sqlite = new (loadSqlite())(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
  });
  const dataVersion = sqlite.prepare(SQLITE_DATA_VERSION).pluck();
  return {
    db,
    dialect: 'sqlite',
    file: file === ':memory:' ? undefined : file,
    dataVersion: () => dataVersion.get() as number,
    close: () => db.destroy(),
  };
}

/** How many compiled statements a SQLite connection keeps (the app writes a few hundred). */
export const STATEMENT_CACHE_SIZE = 1000;

/**
 * Kysely prepares every query anew, and better-sqlite3 compiles SQL on every `prepare()`. This keeps
 * each SQL text's compiled statement (the least recently used goes first) so the same query reuses
 * it; SQLite recompiles a kept statement itself if a migration changes the schema under it.
 */
export function withStatementCache(
  sqlite: SQLite.Database,
  size = STATEMENT_CACHE_SIZE,
): SqliteDatabase {
  const kept = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let statement = kept.get(text);
      if (statement) kept.delete(text);
      else {
        statement = sqlite.prepare(text);
        if (kept.size >= size) kept.delete(kept.keys().next().value ?? '');
      }
      kept.set(text, statement);
      return statement;
    },
  };
}

/** Like psql, a URL without a user name connects as the operating-system user. */
export function pgConnection(url: string): pg.ClientConfig {
  if (!URL.canParse(url)) return { connectionString: url };
  const parsed = new URL(url);
  if (parsed.username === '') parsed.username = os.userInfo().username;
  return { connectionString: parsed.toString() };
}

/**
 * The SQL texts the app runs on every request (`db/reusable.ts`), each with the name PostgreSQL
 * keeps it prepared under on every connection of the pool. An unnamed statement is parsed and
 * planned anew on every call: the cart's five-table join took PostgreSQL about 110 µs a call with
 * four in flight, against 35 µs prepared, and cost the Node process 37–47 µs against 23–25 (issue
 * 14, decision 017). Only these texts are named, so what a connection keeps is bounded by the
 * app's own code, never by a value.
 */
const statementNames = new Map<string, string>();

/** Marks a query's SQL text as one to keep prepared on PostgreSQL (a no-op on SQLite). */
export function prepareStatement(text: string): void {
  if (!statementNames.has(text)) statementNames.set(text, `pairwell_${statementNames.size + 1}`);
}

/**
 * pg's Client, sending a marked text with its values as that text's named prepared statement (pg
 * prepares it on the connection's first use); every other form of call goes to pg as it came.
 */
function namingClient(Client: typeof pg.Client): typeof pg.Client {
  class NamingClient extends Client {
    // @ts-expect-error -- one override for all of pg's overloads, each call passed on as it came
    override query(...args: unknown[]): unknown {
      const [text, values] = args;
      const name = typeof text === 'string' ? statementNames.get(text) : undefined;
      const query = super.query as (...all: unknown[]) => unknown;
      if (name && args.length === 2 && Array.isArray(values))
        return query.call(this, { name, text, values });
      return query.apply(this, args);
    }
  }
  return NamingClient as unknown as typeof pg.Client;
}

function openPostgres(options: DbOptions): DbHandle {
  const driver = loadPg();
  const pool = new driver.Pool({
    ...pgConnection(options.databaseUrl ?? ''),
    Client: namingClient(driver.Client),
    max: 10,
    // A database that accepts connections but never answers fails the call (503) instead of
    // holding it open for as long as the TCP connection lives.
    connectionTimeoutMillis: 5000,
    ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
  });
  // An idle client that loses its connection must not take the process down: report it instead.
  pool.on('error', (error) => options.onPoolError?.(error));
  // A connection that dies while checked out (the database restarting mid-query) also emits
  // 'error' on its client, after failing the query in flight, and an 'error' nobody listens to
  // ends the process. The failed query already carries the news to its caller (503), the pool
  // drops the client on release, and idle clients are the pool's listener's: nothing more to do.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}

/** A connection kept listening on one PostgreSQL channel. */
export interface ChannelListener {
  close(): Promise<void>;
}

/**
 * Listens on a PostgreSQL channel on a connection of its own (LISTEN cannot share the pool's).
 * `onReady(true)` once it listens; `onReady(false)` when the connection is lost, since notices sent
 * meanwhile are missed: the caller must not count on them until it is ready again. It reconnects
 * after a second, and again after every failure, until closed.
 */
export function listenPostgres(
  options: DbOptions,
  channel: string,
  handlers: { onNotice: (payload: string) => void; onReady: (ready: boolean) => void },
): ChannelListener {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    const current = new (loadPg().Client)({
      ...pgConnection(options.databaseUrl ?? ''),
      connectionTimeoutMillis: 5000,
      // A connection that silently died (no FIN) is found by the operating system's probes.
      keepAlive: true,
    });
    client = current;
    const lost = () => {
      if (client !== current) return;
      client = undefined;
      handlers.onReady(false);
      current.end().catch(() => undefined);
      if (!closed) retry = setTimeout(() => void connect(), 1000).unref();
    };
    current.on('error', lost);
    current.on('end', lost);
    current.on('notification', (notice) => {
      if (notice.channel === channel && notice.payload !== undefined)
        handlers.onNotice(notice.payload);
    });
    try {
      await current.connect();
      await current.query(`LISTEN ${channel}`);
      if (client === current) handlers.onReady(true);
    } catch {
      lost();
    }
  };
  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      const current = client;
      client = undefined;
      handlers.onReady(false);
      await current?.end().catch(() => undefined);
    },
  };
}

/** True when the database answers a trivial query. */
export async function pingDatabase(db: Kysely<Database>): Promise<boolean> {
  await sql`select 1`.execute(db);
  return true;
}
