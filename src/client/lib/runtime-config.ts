import { RuntimeConfigSchema, type RuntimeConfig } from '#shared/api.ts';

const defaults: RuntimeConfig = {
  features: { login: true, onlineVisit: true },
  sentryDsn: null,
  payments: { processor: 'simulator' },
  gtmId: null,
  environment: 'development',
  versionCheck: false,
  version: '0.0.0',
};

let cached: RuntimeConfig | undefined;

/**
 * What the server put into index.html at page load: feature flags, error reporting, version check.
 * Under the Vite dev server there is none, and the defaults apply.
 */
export function runtimeConfig(): RuntimeConfig {
  if (cached) return cached;
  const element =
    typeof document === 'undefined' ? null : document.getElementById('runtime-config');
  const parsed = element?.textContent
    ? RuntimeConfigSchema.safeParse(JSON.parse(element.textContent))
    : undefined;
  cached = parsed?.success ? parsed.data : defaults;
  return cached;
}

/** For tests: pretend the server sent this configuration. */
export function setRuntimeConfig(config: Partial<RuntimeConfig>): void {
  cached = { ...defaults, ...config, features: { ...defaults.features, ...config.features } };
}
