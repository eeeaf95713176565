import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { pgConnection } from '#server/db/client.ts';
import { testDatabaseUrl, testDialect } from './app.ts';
import { killServers, serverTestTimeout, spawnServer, startServer } from './spawn-server.ts';

/** The server from its source, under tsx: no build needed. */
const mainScript = ['--import', 'tsx', 'src/server/main.ts'];

/** The real process, as `npm start` runs it: environment, port, data folder, shutdown. */
describe(`the server process (${testDialect})`, () => {
  let dataDir: string;
  let databaseUrl: string | undefined;
  let schema: string | undefined;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pairwell-proc-'));
    if (testDatabaseUrl) {
      schema = `p_${crypto.randomBytes(6).toString('hex')}`;
      await onPg(`create schema ${schema}`);
      const url = new URL(testDatabaseUrl);
      url.searchParams.set('options', `-c search_path=${schema}`);
      databaseUrl = url.toString();
    }
  });
  afterAll(async () => {
    await killServers();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (schema) await onPg(`drop schema ${schema} cascade`);
  });
  beforeEach(() => {
    // This test talks to the server it started, over loopback.
    vi.unstubAllGlobals();
  });

  it(
    'honours PORT and DATA_DIR, serves the catalogue, exits 0 on SIGTERM, and restarts without duplicating the seed',
    { timeout: serverTestTimeout },
    async ({ signal }) => {
      for (let run = 1; run <= 2; run++) {
        const server = await startServer(
          mainScript,
          { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
          { signal },
        );
        try {
          const catalog = (await (await fetch(`${server.url}/lapi/products/`)).json()) as {
            data: { lines: { offers: unknown[] }[] };
          };
          expect(catalog.data.lines).toHaveLength(4);
          expect(catalog.data.lines.flatMap((l) => l.offers)).toHaveLength(10);
          if (!databaseUrl) expect(fs.existsSync(path.join(dataDir, 'pairwell.db'))).toBe(true);
        } finally {
          server.child.kill('SIGTERM');
        }
        const { code } = await server.ended;
        expect(code, `exit code of run ${run}`).toBe(0);
      }
    },
  );

  it(
    'a request log line reaches standard output while the server runs, short of a batch, and every line by exit',
    { timeout: serverTestTimeout },
    async ({ signal }) => {
      const server = await startServer(
        mainScript,
        {
          DATA_DIR: dataDir,
          LOG_LEVEL: 'info',
          ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        },
        { signal },
      );
      const isCompleted = (line: { msg?: string; req?: unknown }, id: string | null) =>
        line.msg === 'request completed' && (line.req as { id?: string } | undefined)?.id === id;
      const completed = () =>
        server
          .log()
          .filter((line) => line.msg === 'request completed')
          .map((line) => (line.req as { id?: string } | undefined)?.id);
      const call = async () =>
        (await fetch(`${server.url}/lapi/products/`)).headers.get('x-request-id');
      try {
        // Alone, far short of a batch: it goes out when the second is up, long before the exit.
        const first = await call();
        await server.logLine((line) => isCompleted(line, first), "the first request's line");
        // Answered just before the process is told to stop: written as it exits.
        const last = [await call(), await call(), await call()];
        server.child.kill('SIGTERM');
        const { code } = await server.ended;
        expect(completed()).toEqual(expect.arrayContaining(last));
        expect(code).toBe(0);
      } finally {
        server.child.kill('SIGKILL');
      }
      expect(server.log().map((line) => line.msg)).toContain('shutting down');
    },
  );

  it(
    'a bad environment value stops start-up with one line naming the variable',
    { timeout: serverTestTimeout },
    async ({ signal }) => {
      const server = spawnServer(mainScript, { PORT: 'not-a-port', DATA_DIR: dataDir }, { signal });
      const { code } = await server.ended;
      expect(code).toBe(1);
      expect(server.stderr().trim()).toBe(
        'Invalid environment variable PORT: must be a port number (got "not-a-port")',
      );
    },
  );
});

async function onPg(statement: string): Promise<void> {
  const client = new pg.Client(pgConnection(testDatabaseUrl ?? ''));
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
