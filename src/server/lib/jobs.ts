import type { FastifyInstance } from 'fastify';
import type { ErrorReporter } from '#server/adapters/error-reporter.ts';

/**
 * A background job: a function that claims a small batch of work from the database, does it, and
 * says whether more was left. The queue is the database (outbox rows, ledger rows, due renewals);
 * exactly-once comes from its unique keys and conditional updates, so every instance may run every
 * job (decision 012).
 */
export interface Job {
  name: string;
  /** How often to look for work when the last run found none. 0 or less: the job never runs. */
  intervalMs: number;
  /** Does one small batch. Returns true when it may have left work behind (run again at once). */
  run: () => Promise<boolean>;
}

export interface JobRunner {
  /** Adds a job; its timer starts when the server is ready. */
  add(job: Job): void;
  /** Asks a job to run soon (after a change that queued work for it), without waiting for it. */
  kick(name: string): void;
  /** Runs a job's batches until it reports no more work (tests and start-up checks). */
  drain(name: string): Promise<void>;
}

/**
 * Runs each job on its own timer inside the server process: one run of a job at a time here; the
 * first run waits until the server is ready and never delays start-up; batches that leave work
 * behind are followed by another after the event loop has had its turn, so requests keep flowing
 * between them. Failures are logged and reported, and the job tries again on its next tick.
 */
export function createJobRunner(
  app: FastifyInstance,
  reporter: ErrorReporter,
  /** Told after each run of a job, and whether it failed (the metrics). */
  onRun: (job: string, failed: boolean) => void = () => undefined,
): JobRunner {
  const state = new Map<
    string,
    { job: Job; running: Promise<void> | null; again: boolean; timer: NodeJS.Timeout | null }
  >();
  let started = false;
  let closed = false;

  const runOnce = async (entry: NonNullable<ReturnType<typeof state.get>>): Promise<boolean> => {
    try {
      const more = await entry.job.run();
      onRun(entry.job.name, false);
      return more;
    } catch (error) {
      onRun(entry.job.name, true);
      app.log.error({ err: error, job: entry.job.name }, 'job failed');
      reporter.report(error, { route: `job:${entry.job.name}` });
      return false;
    }
  };

  const schedule = (name: string): void => {
    const entry = state.get(name);
    if (!entry || !started || closed || entry.job.intervalMs <= 0) return;
    if (entry.running) {
      entry.again = true;
      return;
    }
    entry.running = (async () => {
      // Yield first: a kick from a request handler never runs the job inside that request.
      await new Promise((resolve) => setImmediate(resolve));
      let more = !closed && (await runOnce(entry));
      while (more && !closed) {
        await new Promise((resolve) => setImmediate(resolve));
        more = await runOnce(entry);
      }
    })().finally(() => {
      entry.running = null;
      if (entry.again && !closed) {
        entry.again = false;
        schedule(name);
      }
    });
  };

  app.addHook('onReady', async () => {
    started = true;
    for (const [name, entry] of state) {
      if (entry.job.intervalMs <= 0) continue;
      entry.timer = setInterval(() => schedule(name), entry.job.intervalMs);
      entry.timer.unref();
      schedule(name);
    }
  });
  app.addHook('onClose', async () => {
    closed = true;
    for (const entry of state.values()) {
      if (entry.timer) clearInterval(entry.timer);
    }
    await Promise.all([...state.values()].map((entry) => entry.running));
  });

  return {
    add(job) {
      if (state.has(job.name)) throw new Error(`a job named ${job.name} exists already`);
      state.set(job.name, { job, running: null, again: false, timer: null });
    },
    kick: schedule,
    async drain(name) {
      const entry = state.get(name);
      if (!entry) throw new Error(`no job named ${name}`);
      while (entry.running) await entry.running;
      while (await runOnce(entry)) {
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}
