import type * as Sentry from '@sentry/react';
import type * as ErrorReports from '#shared/error-reports.ts';
import { limits } from '#shared/constants.ts';
import { pushEvent } from './analytics.ts';
import { runtimeConfig } from './runtime-config.ts';

type Level = 'fatal' | 'error' | 'warning';

type SentryModule = typeof Sentry;
let sentry: Promise<SentryModule | null> | undefined;

/** The scrubber is downloaded with the first report, so a visit without errors never pays for it. */
let scrubber: Promise<typeof ErrorReports> | undefined;
const loadScrubber = () => (scrubber ??= import('#shared/error-reports.ts'));

/**
 * Sentry is loaded only when a DSN is configured, so visitors download nothing otherwise. The
 * prerender on the server (`vite build --ssr`) never loads the browser's SDK: `import.meta.env.SSR`
 * is true there, so the build drops the import and does not emit the SDK's megabyte beside it.
 */
function loadSentry() {
  const { sentryDsn, environment } = runtimeConfig();
  if (import.meta.env.SSR || !sentryDsn) return Promise.resolve(null);
  sentry ??= Promise.all([import('@sentry/react'), loadScrubber()]).then(([loaded, scrub]) => {
    const { releaseName, scrubBreadcrumb, scrubEvent } = scrub;
    loaded.init({
      dsn: sentryDsn,
      environment,
      // The build this code is (the server reports the same one: src/server/lib/release.ts).
      release: releaseName(__APP_BUILD__),
      maxBreadcrumbs: limits.errorReportingHistory,
      sendDefaultPii: false,
      // Uncaught errors and rejections are reported by main.tsx's own handlers, which are there
      // before Sentry loads; Sentry's would report them a second time.
      integrations: (defaults) =>
        defaults.filter((integration) => integration.name !== 'GlobalHandlers'),
      // Nothing leaves unscrubbed (src/shared/error-reports.ts): the page's URL and the links
      // followed lose their query strings (reset tokens), program pages read /visit/[program],
      // messages lose email addresses, card numbers and tokens; click and input breadcrumbs,
      // which could carry what was typed or chosen, are dropped.
      beforeBreadcrumb: (crumb) => scrubBreadcrumb(crumb),
      beforeSend: (event) => scrubEvent(event),
      beforeSendTransaction: (event) => scrubEvent(event),
    });
    return loaded;
  });
  return sentry;
}

/**
 * Reports a failure to Sentry (when configured) and to the tag-manager data layer (spec §7 Other).
 * Both are scrubbed: the data layer gets the error's name and the context, Sentry the error.
 */
export function reportError(error: unknown, level: Level = 'error', context?: string): void {
  const err = error instanceof Error ? error : new Error(String(error));
  void loadScrubber().then(({ scrubText }) =>
    pushEvent({
      event: 'exception',
      description: `${context ? `${scrubText(context)}: ` : ''}${err.name}`,
      fatal: level === 'fatal',
    }),
  );
  void loadSentry().then((loaded) => {
    loaded?.captureException(err, { level, ...(context ? { tags: { context } } : {}) });
  });
}
