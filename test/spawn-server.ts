import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';
import { freePort } from './ports.ts';

/**
 * The real server as a child process, for the tests that need one (test/server-process.test.ts,
 * the fault suite): its standard output read line by line as the JSON log pino writes, its standard
 * error kept to say why it failed.
 *
 * A test waits for what the server says, never for a fixed time: a 30 s deadline for start-up failed
 * one fault case in each of two runs on a busy two-core machine (issue 26). A wait here ends when the
 * line is written or when the process ends (or cannot be started), and then it fails with the
 * server's standard error; the only other bound is the test's own timeout.
 */

/** One line of the server's log (pino writes JSON; a line that is not JSON is kept as `raw`). */
export interface LogLine {
  msg?: string;
  raw?: string;
  [key: string]: unknown;
}

export interface ServerProcess {
  readonly child: ChildProcess;
  /** Everything the process has written to standard error so far. */
  stderr(): string;
  /** Every log line the process has written to standard output so far. */
  log(): LogLine[];
  /**
   * The first log line `match` accepts, as soon as it is read (pino writes within about a second);
   * rejects, with the server's standard error, if the process ends without writing one.
   */
  logLine(match: (line: LogLine) => boolean, what: string): Promise<LogLine>;
  /** Settles once the process has exited and all it wrote has been read. */
  readonly ended: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Whether the process has exited (or could not be started). */
  hasEnded(): boolean;
}

export interface StartedServer extends ServerProcess {
  readonly port: number;
  /** Where it answers, over loopback. */
  readonly url: string;
  /** False only with `mayDie`, for a server killed with SIGKILL before it said it was listening. */
  readonly listening: boolean;
}

/** Every process started here that has not ended yet, for `killServers`. */
const live = new Set<ServerProcess>();

/**
 * Kills (SIGKILL) every server still running and waits until they are gone: for a test file's
 * `afterAll`, so a failed or timed-out test leaves nothing behind, a server still starting included.
 */
export async function killServers(): Promise<void> {
  const left = [...live];
  for (const server of left) server.child.kill('SIGKILL');
  await Promise.all(left.map((server) => server.ended));
}

/**
 * The timeout for a test that starts server processes: generous, since it is the only bound on
 * their start-up and a busy two-core machine takes many times as long as an idle one.
 */
export const serverTestTimeout = 600_000;

export interface SpawnOptions {
  /** The test's signal (`it(..., ({ signal }) => …)`): if the test times out, the process is killed. */
  signal?: AbortSignal;
}

/**
 * Starts `node <args>` with a bare environment (PATH, HOME, no demo seed, the log at `info`) plus
 * `env`, and does not wait for anything: for a test of how start-up fails.
 */
export function spawnServer(
  args: readonly string[],
  env: Record<string, string>,
  { signal }: SpawnOptions = {},
): ServerProcess {
  const child = spawn(process.execPath, args, {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let spawnError: Error | undefined;
  child.on('error', (error) => (spawnError ??= error));

  const lines: LogLine[] = [];
  const waiters = new Set<{
    match: (line: LogLine) => boolean;
    resolve: (line: LogLine) => void;
    reject: (error: Error) => void;
    what: string;
  }>();
  // Read line by line, so a batch of lines or a line split across two reads is taken whole.
  readline.createInterface({ input: child.stdout! }).on('line', (text) => {
    let line: LogLine;
    try {
      line = JSON.parse(text) as LogLine;
    } catch {
      // A line cut short by SIGKILL, or something other than pino writing.
      line = { raw: text };
    }
    lines.push(line);
    for (const waiter of waiters)
      if (waiter.match(line)) {
        waiters.delete(waiter);
        waiter.resolve(line);
      }
  });

  let ended = false;
  const describeEnd = (code: number | null, killedBy: NodeJS.Signals | null) =>
    spawnError
      ? `could not be started (${spawnError.message})`
      : killedBy
        ? `was killed with ${killedBy}`
        : `exited with code ${code}`;
  // 'close' comes after the process has exited and its output has been read to the end, so a line
  // written just before it exits is seen first; it also follows a failure to start.
  const endedPromise = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
    (resolve) =>
      child.once('close', (code, killedBy) => {
        ended = true;
        for (const waiter of waiters)
          waiter.reject(
            new Error(
              `the server ${describeEnd(code, killedBy)} before it wrote ${waiter.what}; ` +
                `its standard error:\n${stderr}`,
            ),
          );
        waiters.clear();
        resolve({ code, signal: killedBy });
      }),
  );

  if (signal) {
    const onAbort = () => {
      if (ended) return;
      child.kill('SIGKILL');
      // The test has already failed with its timeout, which says nothing of the server: say it here.
      if (waiters.size > 0)
        process.stderr.write(
          `The test ended while waiting for the server (${[...waiters].map((w) => w.what).join(', ')}); ` +
            `its standard error:\n${stderr}\n`,
        );
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    void endedPromise.then(() => signal.removeEventListener('abort', onAbort));
  }

  const server: ServerProcess = {
    child,
    stderr: () => stderr,
    log: () => lines,
    logLine(match, what) {
      const found = lines.find(match);
      if (found) return Promise.resolve(found);
      if (ended)
        return Promise.reject(
          new Error(
            `the server ${describeEnd(child.exitCode, child.signalCode)} before it wrote ${what}; ` +
              `its standard error:\n${stderr}`,
          ),
        );
      return new Promise((resolve, reject) => waiters.add({ match, resolve, reject, what }));
    },
    ended: endedPromise,
    hasEnded: () => ended,
  };
  live.add(server);
  void endedPromise.then(() => live.delete(server));
  return server;
}

/** Fastify's line once the socket is bound (lib/server.js, at `info`): one per address it listens on. */
export function isListeningLine(line: LogLine, port: number): boolean {
  return (
    typeof line.msg === 'string' &&
    line.msg.startsWith('Server listening at ') &&
    line.msg.endsWith(`:${port}`)
  );
}

/**
 * Starts the server on a free port and resolves once it has logged that it is listening. Rejects,
 * with the server's standard error, if it ends first, except that with `mayDie` a server killed with
 * SIGKILL (by a fault the test injected) resolves with `listening: false`.
 */
export async function startServer(
  args: readonly string[],
  env: Record<string, string>,
  { mayDie = false, signal }: SpawnOptions & { mayDie?: boolean } = {},
): Promise<StartedServer> {
  if (env.LOG_LEVEL && !['info', 'debug', 'trace'].includes(env.LOG_LEVEL))
    throw new Error(`LOG_LEVEL=${env.LOG_LEVEL} hides the line that says the server is listening`);
  const port = await freePort();
  const server = spawnServer(args, { ...env, PORT: String(port) }, { signal });
  let listening = true;
  try {
    await server.logLine((line) => isListeningLine(line, port), 'that it is listening');
  } catch (error) {
    if (!(mayDie && server.child.signalCode === 'SIGKILL')) throw error;
    listening = false;
  }
  return { ...server, port, url: `http://127.0.0.1:${port}`, listening };
}
