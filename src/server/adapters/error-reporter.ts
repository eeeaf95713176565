import type { Env } from '#server/env.ts';

/**
 * Reports unexpected server errors to Sentry when SENTRY_DSN is set; does nothing otherwise. Only the
 * error itself travels: no request bodies, cookies, headers or user data (DESIGN §7).
 */
export interface ErrorReporter {
  report(error: unknown, context: { requestId?: string; route?: string }): void;
}

const noReporter: ErrorReporter = { report: () => undefined };

export async function createErrorReporter(env: Env): Promise<ErrorReporter> {
  if (!env.SENTRY_DSN) return noReporter;
  const Sentry = await import('@sentry/node');
  Sentry.init({
    dsn: env.SENTRY_DSN,
    environment: env.NODE_ENV,
    sendDefaultPii: false,
    maxBreadcrumbs: 20,
    defaultIntegrations: false,
    beforeSend(event) {
      delete event.request;
      delete event.user;
      return event;
    },
  });
  return {
    report(error, context) {
      Sentry.captureException(error, {
        level: 'error',
        tags: { ...(context.route ? { route: context.route } : {}) },
        extra: { requestId: context.requestId },
      });
    },
  };
}
