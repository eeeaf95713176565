// Starting and stopping the processes the bench and the size check measure: the built Pairwell
// server and the bare Fastify app. Each runs in a process of its own, on a free loopback port.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const rootDir = path.resolve(import.meta.dirname, '..');

export interface RunningServer {
  url: string;
  pid: number;
  /** Peak resident memory of the process so far (VmHWM), in KiB; undefined off Linux. */
  peakRssKiB: () => number | undefined;
  /** Resident memory now (VmRSS), in KiB; undefined off Linux. */
  rssKiB: () => number | undefined;
  /**
   * Starts the peak (VmHWM) over from the memory resident now (`5` into /proc/<pid>/clear_refs),
   * so a phase's own peak can be read; false when the kernel does not allow it.
   */
  resetPeakRss: () => boolean;
  /**
   * CPU time the process has used so far (user + system, all its threads), in seconds, from
   * /proc/<pid>/stat; undefined off Linux.
   */
  cpuSeconds: () => number | undefined;
  /** What the process wrote to stderr (for a failure message). */
  stderr: () => string;
  stop: () => Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('no free port'));
      });
    });
  });
}

function readStatus(pid: number, field: 'VmHWM' | 'VmRSS'): number | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

let clockTicks: number | undefined;
/** Clock ticks per second, the unit of /proc/<pid>/stat's CPU times (100 on every usual Linux). */
function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    const answer = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
    const parsed = Number(answer.stdout?.trim());
    clockTicks = Number.isFinite(parsed) && parsed > 0 ? parsed : 100;
  }
  return clockTicks;
}

/** utime + stime of the process (fields 14 and 15 of /proc/<pid>/stat), in seconds. */
export function readCpuSeconds(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    if (!Number.isFinite(utime) || !Number.isFinite(stime)) return undefined;
    return (utime + stime) / ticksPerSecond();
  } catch {
    return undefined;
  }
}

/**
 * Starts `node <args>` with `env` and waits until `readyPath` answers 200, asking every `pollMs`
 * (the billing scenario asks often: its start-up time is a figure).
 */
export async function startNode(
  args: string[],
  env: Record<string, string>,
  readyPath: string,
  { pollMs = 100 }: { pollMs?: number } = {},
): Promise<RunningServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: rootDir,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const pid = child.pid ?? 0;
  // Peak memory is read once more just before the process stops, while /proc still has it.
  let lastPeak: number | undefined;
  const server: RunningServer = {
    url,
    pid,
    peakRssKiB: () => {
      lastPeak = readStatus(pid, 'VmHWM') ?? lastPeak;
      return lastPeak;
    },
    rssKiB: () => readStatus(pid, 'VmRSS'),
    resetPeakRss: () => {
      try {
        fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
        lastPeak = undefined;
        return true;
      } catch {
        return false;
      }
    },
    cpuSeconds: () => readCpuSeconds(pid),
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode !== null) return;
      server.peakRssKiB();
      child.kill('SIGTERM');
      const stopped = await Promise.race([exited.then(() => true), sleep(6000).then(() => false)]);
      if (!stopped) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };

  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`node ${args.join(' ')} exited with ${child.exitCode}:\n${stderr}`);
    try {
      const response = await fetch(`${url}${readyPath}`);
      if (response.ok) return server;
    } catch {
      // not listening yet
    }
    await sleep(pollMs);
  }
  await server.stop();
  throw new Error(`node ${args.join(' ')} did not answer ${readyPath} within 60 s:\n${stderr}`);
}

export interface PairwellOptions {
  /** postgres://… to run on PostgreSQL (in a schema of its own); SQLite otherwise. */
  databaseUrl?: string | undefined;
  /** More environment for the server (the error-report journey's SENTRY_DSN). */
  env?: Record<string, string>;
}

export interface PairwellServer extends RunningServer {
  /** The server's DATA_DIR (its SQLite file is pairwell.db in it). */
  dataDir: string;
  /** On PostgreSQL: the URL given and the schema of this server (dropped when it stops). */
  postgres?: { databaseUrl: string; schema: string };
}

/**
 * The built server (`dist/server/main.js`) on a fresh database: a new DATA_DIR in a temporary
 * folder and, on PostgreSQL, a new schema that is dropped when the server stops.
 */
/**
 * The node flags the server runs with in production: those of package.json's `start:built` (the
 * systemd unit has the same; a test checks), so the bench measures memory as it will be.
 */
const startBuilt = (() => {
  const pkg = JSON.parse(fs.readFileSync(path.join(rootDir, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  return (pkg.scripts['start:built'] ?? '').split(/\s+/);
})();
export const serverNodeFlags: readonly string[] = startBuilt.filter((word) =>
  word.startsWith('--'),
);

/** The environment `start:built` sets before `node` (`MALLOC_ARENA_MAX`; the unit has the same). */
export const serverEnvironment: Readonly<Record<string, string>> = Object.fromEntries(
  startBuilt
    .slice(0, startBuilt.indexOf('node'))
    .map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]),
);

export async function startPairwell(options: PairwellOptions = {}): Promise<PairwellServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pairwell-bench-'));
  let databaseUrl: string | undefined;
  let schema: string | undefined;
  if (options.databaseUrl) {
    schema = `bench_${Date.now().toString(36)}_${process.pid}`;
    await psql(options.databaseUrl, `create schema ${schema}`);
    databaseUrl = withSearchPath(options.databaseUrl, schema);
  }
  const cleanUp = async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (schema && options.databaseUrl)
      await psql(options.databaseUrl, `drop schema if exists ${schema} cascade`);
  };
  try {
    const server = await startNode(
      [...serverNodeFlags, 'dist/server/main.js'],
      {
        ...serverEnvironment,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        BILLING_INTERVAL_SECONDS: '0',
        // All of the bench's traffic comes from 127.0.0.1: per-address limits must not throttle it.
        ADDRESS_LIMIT_FACTOR: '1000',
        SEED_DEMO: 'true',
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATABASE_URL: '' }),
        ...options.env,
      },
      '/healthz',
    );
    const stop = server.stop;
    server.stop = async () => {
      await stop();
      await cleanUp();
    };
    return {
      ...server,
      dataDir,
      ...(schema && options.databaseUrl
        ? { postgres: { databaseUrl: options.databaseUrl, schema } }
        : {}),
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

/** The URL with `options=-c search_path=<schema>`, as the test app isolates its schemas. */
export function withSearchPath(databaseUrl: string, schema: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

export async function psql(databaseUrl: string, statement: string): Promise<void> {
  // pg is a dependency of the server; the bench uses it only to make and drop its schema.
  const { default: pg } = await import('pg');
  const parsed = new URL(databaseUrl);
  if (parsed.username === '') parsed.username = os.userInfo().username;
  const client = new pg.Client({ connectionString: parsed.toString() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs;
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

/**
 * Runs `npm run build` when dist/ is missing or older than anything in src/ (or vite.config.ts),
 * so a build left by CI's browser journeys is reused as it is.
 */
export function ensureBuild(log: (line: string) => void): void {
  const built = ['dist/server/main.js', 'dist/client/index.html', 'dist/ssr/prerender.js']
    .map((file) => path.join(rootDir, file))
    .map((file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0));
  const builtAt = Math.min(...built);
  const sourcesAt = Math.max(
    newestMtime(path.join(rootDir, 'src')),
    fs.statSync(path.join(rootDir, 'vite.config.ts')).mtimeMs,
  );
  if (builtAt > sourcesAt) return;
  log('Building (npm run build)…');
  const result = spawnSync('npm', ['run', 'build'], { cwd: rootDir, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm run build failed');
}
