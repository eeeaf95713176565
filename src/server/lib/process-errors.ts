import type { ErrorReporter } from '#server/adapters/error-reporter.ts';

/** How long an uncaught exception waits for its report to be sent before the process exits. */
export const UNCAUGHT_FLUSH_MS = 2000;

interface ProcessErrorDeps {
  reporter: ErrorReporter;
  log: {
    fatal: (fields: object, message: string) => void;
    error: (fields: object, message: string) => void;
  };
  exit: (code: number) => void;
}

/**
 * Errors no request or job caught still reach the error reporter (and the log). After an uncaught
 * exception the process's state is unknown: it reports, waits a bounded time for the report to
 * leave, and exits 1 so the supervisor starts a fresh one (work in flight is recovered from the
 * database by the jobs). A promise nobody waited for is reported and the server carries on: one
 * forgotten rejection in a request must not take every other request down with it.
 */
export function reportProcessErrors(
  target: {
    on(
      event: 'uncaughtException' | 'unhandledRejection',
      listener: (error: unknown) => void,
    ): unknown;
  },
  { reporter, log, exit }: ProcessErrorDeps,
): void {
  let exiting = false;
  target.on('uncaughtException', (error: unknown) => {
    log.fatal({ err: error }, 'uncaught exception');
    reporter.report(error, { route: 'process:uncaughtException', level: 'fatal' });
    if (exiting) return;
    exiting = true;
    const flushed = reporter.flush?.(UNCAUGHT_FLUSH_MS) ?? Promise.resolve(true);
    void flushed.catch(() => false).then(() => exit(1));
  });
  target.on('unhandledRejection', (reason: unknown) => {
    log.error({ err: reason }, 'unhandled promise rejection');
    reporter.report(reason, { route: 'process:unhandledRejection' });
  });
}
