import { scrubBreadcrumb, scrubEvent } from '#shared/error-reports.ts';
import type { Env } from '#server/env.ts';

export interface ReportContext {
  requestId?: string;
  /** The route pattern (`/lapi/orders/:id`), or `job:<name>`, or `process:<event>`. */
  route?: string;
  /** `fatal` for what ends the process; `error` otherwise. */
  level?: 'fatal' | 'error';
}

/**
 * Reports unexpected server errors to Sentry when SENTRY_DSN is set; does nothing otherwise. Only the
 * error itself travels, scrubbed (src/shared/error-reports.ts): no request bodies, cookies, headers
 * or user data (DESIGN §7).
 */
export interface ErrorReporter {
  report(error: unknown, context: ReportContext): void;
  /** Waits, at most `timeoutMs`, for the reports made so far to be sent; false if time ran out. */
  flush?(timeoutMs: number): Promise<boolean>;
  /** Sends what is left (waiting at most `timeoutMs`) and lets the client go. */
  close?(timeoutMs: number): Promise<boolean>;
}

const noReporter: ErrorReporter = {
  report: () => undefined,
  flush: () => Promise.resolve(true),
  close: () => Promise.resolve(true),
};

/**
 * A Sentry client of our own rather than `Sentry.init`: no global hooks, no automatic
 * instrumentation (which would read requests), and two apps in one process (tests, a second
 * instance) each report with their own settings. Uncaught errors reach it through main.ts.
 */
export async function createErrorReporter(
  env: Env,
  options: { release: string },
): Promise<ErrorReporter> {
  if (!env.SENTRY_DSN) return noReporter;
  const Sentry = await import('@sentry/node');
  const client = new Sentry.NodeClient({
    dsn: env.SENTRY_DSN,
    environment: env.NODE_ENV,
    release: options.release,
    sendDefaultPii: false,
    maxBreadcrumbs: 20,
    integrations: [Sentry.linkedErrorsIntegration(), Sentry.dedupeIntegration()],
    transport: Sentry.makeNodeTransport,
    stackParser: Sentry.defaultStackParser,
    beforeSend: (event) => scrubEvent(event),
    beforeSendTransaction: (event) => scrubEvent(event),
    beforeBreadcrumb: (breadcrumb) => scrubBreadcrumb(breadcrumb),
  });
  const scope = new Sentry.Scope();
  scope.setClient(client);
  client.init();
  return {
    report(error, context) {
      const reportScope = scope.clone();
      reportScope.setLevel(context.level ?? 'error');
      if (context.route) reportScope.setTag('route', context.route);
      if (context.requestId) reportScope.setExtra('requestId', context.requestId);
      reportScope.captureException(error);
    },
    flush: async (timeoutMs) => client.flush(timeoutMs),
    close: async (timeoutMs) => client.close(timeoutMs),
  };
}
