import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp, type BuildAppOptions } from '#server/app.ts';
import { pgConnection } from '#server/db/client.ts';
import { parseEnv, type Env } from '#server/env.ts';
import { ManualClock } from '#server/lib/clock.ts';
import { checkAnswersAgainstOpenApi, type Conformance } from '#test/openapi-conformance.ts';

/** Which database the suite runs on: SQLite by default, PostgreSQL when TEST_DATABASE_URL is set. */
export const testDatabaseUrl = process.env.TEST_DATABASE_URL || undefined;
export const testDialect = testDatabaseUrl ? 'postgres' : 'sqlite';

export interface TestApp {
  app: FastifyInstance;
  /** The PostgreSQL schema this app works in (undefined on SQLite). */
  pgSchema: string | undefined;
  clock: ManualClock;
  env: Env;
  dataDir: string;
  /** Every log line the app wrote, raw. */
  logs: () => string;
  /** Every API answer this app gave, checked against its OpenAPI document (issue 15). */
  conformance: Conformance;
  close: () => Promise<void>;
}

export function testEnv(overrides: Record<string, string> = {}): Env {
  return parseEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    // Tests run billing themselves, on their own clock.
    BILLING_INTERVAL_SECONDS: '0',
    // and reconcile payments themselves (ctx.jobs.drain), after moving the clock past the grace.
    RECONCILE_INTERVAL_SECONDS: '0',
    // …and send queued email when they read it (`sentMessages` in test/outbox.ts), so what they
    // read never depends on a timer.
    OUTBOX_INTERVAL_SECONDS: '0',
    // …and send to the pharmacy and follow it themselves (ctx.jobs.drain), on their own clock.
    PHARMACY_INTERVAL_SECONDS: '0',
    // …and tell waiting patients their state opened themselves (ctx.jobs.drain).
    WAITLIST_INTERVAL_SECONDS: '0',
    ...overrides,
  });
}

/**
 * A fresh app on a fresh database: a temporary SQLite file, or a PostgreSQL schema of its own that
 * is dropped on close, so test files run in parallel without seeing each other's rows.
 */
export async function buildTestApp(
  options: { env?: Record<string, string> } & Partial<Omit<BuildAppOptions, 'env'>> = {},
): Promise<TestApp> {
  const { env: envOverrides, ...appOptions } = options;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pairwell-test-'));
  const env = testEnv({ DATA_DIR: dataDir, ...envOverrides });
  const clock = new ManualClock();
  const chunks: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString('utf8'));
      callback();
    },
  });

  let schema: string | undefined;
  if (testDatabaseUrl) {
    schema = `t_${crypto.randomBytes(6).toString('hex')}`;
    await withPg((client) => client.query(`create schema ${schema}`));
  }

  const app = await buildApp({
    env,
    clock,
    logStream,
    clientDir: path.join(dataDir, 'no-client'),
    ...appOptions,
    database: {
      ...(testDatabaseUrl ? { databaseUrl: testDatabaseUrl, pgSchema: schema } : {}),
      ...appOptions.database,
    },
  });

  const conformance = checkAnswersAgainstOpenApi(app);

  return {
    app,
    pgSchema: schema,
    clock,
    env,
    dataDir,
    logs: () => chunks.join(''),
    conformance,
    close: async () => {
      await app.close();
      if (schema) await withPg((client) => client.query(`drop schema ${schema} cascade`));
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (conformance.problems.length > 0)
        throw new Error(
          `answers that do not match the OpenAPI document:\n${[...new Set(conformance.problems)].join('\n')}`,
        );
    },
  };
}

async function withPg<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(pgConnection(testDatabaseUrl ?? ''));
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/**
 * A second app instance on the same database as `first` (the same SQLite file or PostgreSQL
 * schema), as two servers behind a load balancer would be. It shares the first one's clock.
 */
export async function buildSecondInstance(
  first: TestApp,
  options: Partial<Omit<BuildAppOptions, 'env'>> = {},
): Promise<FastifyInstance> {
  return buildApp({
    env: first.env,
    clock: first.clock,
    clientDir: path.join(first.dataDir, 'no-client'),
    skipMigrations: true,
    ...options,
    database: testDatabaseUrl
      ? { databaseUrl: testDatabaseUrl, ...(first.pgSchema ? { pgSchema: first.pgSchema } : {}) }
      : {},
  });
}
