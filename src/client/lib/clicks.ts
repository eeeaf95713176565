import { apiPaths } from '#shared/api.ts';
import { ClickCreateResultSchema, type ClickCreate } from '#shared/clicks.ts';
import { limits, storageKeys } from '#shared/constants.ts';
import { messages } from '#shared/messages.ts';
import { apiPost } from './api.ts';
import { reportError } from './error-reporting.ts';

/** The landing page's attribution parameters (spec §3 "Click / lead payload"). */
const attributionParams = [
  'a',
  'c1',
  's1',
  's2',
  's3',
  's4',
  's5',
  'campaigns_id',
  'token',
] as const;

/** Kept in memory too, for a browser whose storage is switched off. */
let registered: string | null = null;

/** The click id this tab registered, if any. */
export function storedClickId(): string | null {
  try {
    return window.sessionStorage.getItem(storageKeys.clickId);
  } catch {
    return registered;
  }
}

export function deviceType(userAgent: string, width: number): ClickCreate['device_type'] {
  if (/iPad|Tablet|PlayBook|Silk|Android(?!.*Mobile)/i.test(userAgent)) return 'tablet';
  if (/Mobi|iPhone|iPod|Android.*Mobile|Windows Phone/i.test(userAgent)) return 'mobile';
  if (width > 0 && width < 768) return 'mobile';
  return 'desktop';
}

/**
 * What this visit tells the click registration. The page address keeps only the attribution
 * parameters: anything else in it (a password-reset token in `?id=`, say) stays in the browser.
 */
export function clickPayload(location: Location, doc: Document, nav: Navigator): ClickCreate {
  const query = new URLSearchParams(location.search);
  const kept = new URLSearchParams();
  const payload: ClickCreate = {
    url: '',
    referrer: doc.referrer ? doc.referrer.slice(0, 2000) : null,
    user_agent: nav.userAgent.slice(0, 1000),
    device_type: deviceType(nav.userAgent, window.innerWidth),
  };
  for (const name of attributionParams) {
    const value = query.get(name);
    if (value === null) continue;
    payload[name] = value.slice(0, 500);
    kept.set(name, value);
  }
  const search = kept.toString();
  payload.url = `${location.origin}${location.pathname}${search ? `?${search}` : ''}`.slice(
    0,
    2000,
  );
  return payload;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let inFlight: Promise<string | null> | null = null;

/** For tests: forget the id kept in memory. */
export function resetClickForTests(): void {
  registered = null;
  inFlight = null;
}

/**
 * Spec §4 "Click id": registered once per browser session and kept in session storage; a failed
 * attempt is retried up to 3 times, and a final failure is reported (spec §8) — the visit goes on
 * without a click id.
 */
export function registerClick(options: { retryDelayMs?: number } = {}): Promise<string | null> {
  const existing = storedClickId();
  if (existing) return Promise.resolve(existing);
  inFlight ??= (async () => {
    const payload = clickPayload(window.location, document, navigator);
    const delay = options.retryDelayMs ?? 1000;
    for (let attempt = 0; attempt <= limits.clickRetries; attempt++) {
      if (attempt > 0) await wait(delay * 2 ** (attempt - 1));
      try {
        const result = await apiPost(apiPaths.clickCreate, ClickCreateResultSchema, {
          body: payload,
          fallbackMessage: messages.clickFailed,
        });
        registered = result.click_id;
        try {
          window.sessionStorage.setItem(storageKeys.clickId, result.click_id);
        } catch {
          // Storage switched off: this page still has the id in memory.
        }
        return result.click_id;
      } catch {
        // Try again, up to limits.clickRetries times.
      }
    }
    reportError(new Error(messages.clickFailed), 'error', 'click');
    return null;
  })().finally(() => {
    inFlight = null;
  });
  return inFlight;
}
