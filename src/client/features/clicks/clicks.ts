import { clicksApi, type ClickCreate } from '#shared/clicks.ts';
import { limits, storageKeys } from '#shared/constants.ts';
import { messages } from '#shared/wording.ts';
import { call } from '#client/lib/api.ts';
import { reportError } from '#client/lib/error-reporting.ts';
import { sessionStore } from '#client/lib/safe-storage.ts';

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

/**
 * The click id this tab registered, if any. A browser that refuses storage keeps none, and its
 * visit goes on without one, as after a registration that failed.
 */
export function storedClickId(): string | null {
  return sessionStore.get(storageKeys.clickId);
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

/**
 * Spec §4 "Click id": registered once per browser session and kept in session storage; a failed
 * attempt is retried up to 3 times, and a final failure is reported (spec §8) — the visit goes on
 * without a click id.
 */
export async function registerClick(
  options: { retryDelayMs?: number } = {},
): Promise<string | null> {
  const existing = storedClickId();
  if (existing) return existing;
  const payload = clickPayload(window.location, document, navigator);
  const delay = options.retryDelayMs ?? 1000;
  for (let attempt = 0; attempt <= limits.clickRetries; attempt++) {
    if (attempt > 0) await wait(delay * 2 ** (attempt - 1));
    try {
      const { click_id } = await call(clicksApi.clickCreate, {
        body: payload,
        fallbackMessage: messages.clickFailed,
      });
      sessionStore.set(storageKeys.clickId, click_id);
      return click_id;
    } catch {
      // Try again, up to limits.clickRetries times.
    }
  }
  reportError(new Error(messages.clickFailed), 'error', 'click');
  return null;
}
