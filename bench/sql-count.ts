// SQL statements per request, counted in-process and without touching src/: the bench builds the
// app as the tests do (buildApp, on a fresh SQLite file or PostgreSQL schema, the demo data and
// the bench's own rows), wraps the database drivers' execute calls (better-sqlite3's Statement
// run/get/all/iterate and Database exec; pg's Client query), and calls each target with inject().
// Every statement the driver runs counts, BEGIN and COMMIT included; a statement the app prepares
// once and runs many times counts each time it runs.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { buildApp } from '#server/app.ts';
import { parseEnv } from '#server/env.ts';
import { seedBenchData } from './seed.ts';
import { psql, rootDir } from './server.ts';

let statements = 0;
let installed = false;

function wrap(target: object, method: string): void {
  const holder = target as Record<string, unknown>;
  const original = holder[method];
  if (typeof original !== 'function') throw new Error(`cannot count SQL: no ${method} to wrap`);
  holder[method] = function counted(this: unknown, ...args: unknown[]) {
    statements += 1;
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  };
}

function installCounter(): void {
  if (installed) return;
  installed = true;
  const probe = new SQLite(':memory:');
  const statementPrototype = Object.getPrototypeOf(probe.prepare('select 1')) as object;
  probe.close();
  for (const method of ['run', 'get', 'all', 'iterate']) wrap(statementPrototype, method);
  wrap(SQLite.prototype, 'exec');
  wrap(pg.Client.prototype, 'query');
}

export interface CountedRequest {
  id: string;
  method: 'GET' | 'POST';
  path: string;
  /** The JSON body, given the demo customer's leads_id. */
  body?: (leadsId: string) => unknown;
  /** Sends the demo customer's session cookie. */
  session?: boolean;
  headers: Record<string, string>;
}

const DEMO = { email: 'demo@pairwell.test', password: 'pairwell-demo' };
const WARM_CALLS = 3;
const COUNTED_CALLS = 10;

/**
 * For each request, the statements per call over COUNTED_CALLS calls after WARM_CALLS warm ones
 * (so a cache the app fills on its first call shows as 0 when warm).
 */
export async function countStatements(
  requests: CountedRequest[],
  options: { databaseUrl?: string | undefined; passwordHash: string },
): Promise<Record<string, number>> {
  installCounter();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pairwell-bench-sql-'));
  let schema: string | undefined;
  if (options.databaseUrl) {
    schema = `bench_sql_${crypto.randomBytes(5).toString('hex')}`;
    await psql(options.databaseUrl, `create schema ${schema}`);
  }
  try {
    const env = parseEnv({
      DATA_DIR: dataDir,
      DATABASE_URL: options.databaseUrl ?? '',
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'true',
      ADDRESS_LIMIT_FACTOR: '1000',
      // No job may run a statement while a request is being counted.
      BILLING_INTERVAL_SECONDS: '0',
      OUTBOX_INTERVAL_SECONDS: '0',
      WAITLIST_INTERVAL_SECONDS: '0',
      RECONCILE_INTERVAL_SECONDS: '0',
    });
    const app = await buildApp({
      env,
      clientDir: path.join(rootDir, 'dist/client'),
      database: schema ? { pgSchema: schema } : {},
    });
    try {
      await seedBenchData(app.db, options.passwordHash, new Date());
      const login = await app.inject({
        method: 'POST',
        url: '/lapi/account/login/',
        payload: DEMO,
      });
      if (login.statusCode !== 200)
        throw new Error(`SQL count: log-in answered ${login.statusCode}: ${login.body}`);
      const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
      const leadsId = login.json<{ data: { leads_id: string } }>().data.leads_id;
      const counts: Record<string, number> = {};
      for (const request of requests) {
        const call = async () => {
          const response = await app.inject({
            method: request.method,
            url: request.path,
            headers: {
              ...request.headers,
              ...(request.session ? { cookie } : {}),
              ...(request.body ? { 'content-type': 'application/json' } : {}),
            },
            ...(request.body ? { payload: JSON.stringify(request.body(leadsId)) } : {}),
          });
          if (response.statusCode !== 200)
            throw new Error(
              `SQL count: ${request.method} ${request.path} answered ${response.statusCode}`,
            );
        };
        for (let i = 0; i < WARM_CALLS; i++) await call();
        statements = 0;
        for (let i = 0; i < COUNTED_CALLS; i++) await call();
        counts[request.id] = Math.round((statements / COUNTED_CALLS) * 10) / 10;
      }
      return counts;
    } finally {
      await app.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (schema && options.databaseUrl)
      await psql(options.databaseUrl, `drop schema if exists ${schema} cascade`);
  }
}
