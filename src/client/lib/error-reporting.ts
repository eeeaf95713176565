import type * as Sentry from '@sentry/react';
import { limits } from '#shared/constants.ts';
import { pushEvent } from './analytics.ts';
import { runtimeConfig } from './runtime-config.ts';

type Level = 'fatal' | 'error' | 'warning';

type SentryModule = typeof Sentry;
let sentry: Promise<SentryModule | null> | undefined;

/** Sentry is loaded only when a DSN is configured, so visitors download nothing otherwise. */
function loadSentry() {
  const { sentryDsn, environment, version } = runtimeConfig();
  if (!sentryDsn) return Promise.resolve(null);
  sentry ??= import('@sentry/react').then((loaded) => {
    loaded.init({
      dsn: sentryDsn,
      environment,
      release: version,
      maxBreadcrumbs: limits.errorReportingHistory,
      sendDefaultPii: false,
      // Breadcrumbs of clicks and inputs could carry health answers or card digits: keep only
      // navigation and API call outlines.
      beforeBreadcrumb: (crumb) =>
        crumb.category === 'ui.click' || crumb.category === 'ui.input' ? null : crumb,
    });
    return loaded;
  });
  return sentry;
}

/**
 * Reports a failure to Sentry (when configured) and to the tag-manager data layer (spec §7 Other).
 * Only the error's name and message travel; our messages never carry health data or secrets.
 */
export function reportError(error: unknown, level: Level = 'error', context?: string): void {
  const err = error instanceof Error ? error : new Error(String(error));
  pushEvent({
    event: 'exception',
    description: `${context ? `${context}: ` : ''}${err.name}`,
    fatal: level === 'fatal',
  });
  void loadSentry().then((loaded) => {
    loaded?.captureException(err, { level, ...(context ? { tags: { context } } : {}) });
  });
}
