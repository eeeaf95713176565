import type { Env } from '#server/env.ts';

/**
 * A named point in a payment flow (before and after each gateway call and each commit). The
 * fault-injection tests start the server with FAULT_KILL_AT=<point> and NODE_ENV=test, and the
 * process kills itself there with SIGKILL: no clean-up, no pending writes, as a power cut would.
 * In any other environment this does nothing.
 */
export function faultPoint(env: Env, point: string): void {
  if (env.NODE_ENV !== 'test' || env.FAULT_KILL_AT !== point) return;
  process.kill(process.pid, 'SIGKILL');
  // The signal is delivered asynchronously: hold this thread so not one more statement runs.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10_000);
}
