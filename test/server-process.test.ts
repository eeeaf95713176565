import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';

import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { pgConnection } from '#server/db/client.ts';
import { testDatabaseUrl, testDialect } from './app.ts';
import { freePort } from './ports.ts';

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
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (schema) await onPg(`drop schema ${schema} cascade`);
  });
  beforeEach(() => {
    // This test talks to the server it started, over loopback.
    vi.unstubAllGlobals();
  });

  it('honours PORT and DATA_DIR, serves the catalogue, exits 0 on SIGTERM, and restarts without duplicating the seed', async () => {
    for (let run = 1; run <= 2; run++) {
      const port = await freePort();
      const child = start({
        PORT: String(port),
        DATA_DIR: dataDir,
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      });
      try {
        await waitForHealth(port, child);
        const catalog = (await (await fetch(`http://127.0.0.1:${port}/lapi/products/`)).json()) as {
          data: { lines: { offers: unknown[] }[] };
        };
        expect(catalog.data.lines).toHaveLength(4);
        expect(catalog.data.lines.flatMap((l) => l.offers)).toHaveLength(10);
        if (!databaseUrl) expect(fs.existsSync(path.join(dataDir, 'pairwell.db'))).toBe(true);
      } finally {
        child.kill('SIGTERM');
      }
      const code = await exited(child);
      expect(code, `exit code of run ${run}`).toBe(0);
    }
  });

  it('the request log reaches standard output within a second, and all of it by exit', async () => {
    const port = await freePort();
    const child = start(
      {
        PORT: String(port),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      },
      { stdout: true },
    );
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const completed = () =>
      stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { msg?: string; req?: { id?: string } })
        .filter((entry) => entry.msg === 'request completed')
        .map((entry) => entry.req?.id);
    const call = async () =>
      (await fetch(`http://127.0.0.1:${port}/lapi/products/`)).headers.get('x-request-id');
    let code: number | null;
    try {
      await waitForHealth(port, child);
      // Alone, far short of a batch: it goes out when the second is up.
      const first = await call();
      await vi.waitFor(() => expect(completed()).toContain(first), { timeout: 5000 });
      // Answered just before the process is told to stop: written as it exits.
      const last = [await call(), await call(), await call()];
      child.kill('SIGTERM');
      code = await exited(child);
      expect(completed()).toEqual(expect.arrayContaining(last));
    } finally {
      child.kill('SIGKILL');
    }
    expect(code).toBe(0);
    expect(stdout).toContain('"msg":"shutting down"');
  });

  it('a bad environment value stops start-up with one line naming the variable', async () => {
    const child = start({ PORT: 'not-a-port', DATA_DIR: dataDir });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await exited(child);
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      'Invalid environment variable PORT: must be a port number (got "not-a-port")',
    );
  });
});

/** `stdout`: read what the process writes there (otherwise it goes nowhere). */
function start(env: Record<string, string>, { stdout = false } = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      ...env,
    },
    stdio: ['ignore', stdout ? 'pipe' : 'ignore', 'pipe'],
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

async function waitForHealth(port: number, child: ChildProcess): Promise<void> {
  const listening = await vi.waitFor(
    async () => {
      // A server that has exited will never answer: stop waiting and say so below.
      if (child.exitCode !== null) return false;
      // Refused (not listening yet) or not 200: waitFor asks again.
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(response.status, 'the health check').toBe(200);
      return true;
    },
    { timeout: 25_000, interval: 100 },
  );
  if (!listening) throw new Error(`server exited with ${child.exitCode}`);
}

async function onPg(statement: string): Promise<void> {
  const client = new pg.Client(pgConnection(testDatabaseUrl ?? ''));
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
