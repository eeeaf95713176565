import { storageKeys } from '#shared/constants.ts';
import { runtimeConfig } from './runtime-config.ts';
import { localStore } from './safe-storage.ts';

/*
 * Consent Mode v2 for the operator's tag manager (GTM_ID, DESIGN §8, decision 020): the part every
 * page needs from its first moment, kept small because it is in every first download. The banner,
 * the choice's store and the tag manager's loader are in features/consent/, in chunks of their
 * own that only a page with GTM_ID set asks for.
 */

export type ConsentChoice = 'granted' | 'denied';

/** The tag manager's container id, or null when the operator has none. */
export const tagManagerId = (): string | null => runtimeConfig().gtmId;

/** The visitor's answer kept in this browser, or null: not asked yet, or forgotten at log-out. */
export function storedChoice(): ConsentChoice | null {
  const value = localStore.get(storageKeys.analyticsConsent);
  return value === 'granted' || value === 'denied' ? value : null;
}

/**
 * Google's gtag(): Consent Mode reads its commands from the data layer as the `arguments` object
 * gtag pushes, not as an array, so this is a function with `arguments`, as Google writes it.
 */
function gtag(..._args: unknown[]): void {
  window.dataLayer ??= [];
  // eslint-disable-next-line prefer-rest-params -- Consent Mode needs the Arguments object itself
  window.dataLayer.push(arguments as unknown as Record<string, unknown>);
}

/** What "Accept" grants: analytics storage only; advertising stays denied (decision 020). */
const granted = { analytics_storage: 'granted' } as const;
const denied = {
  ad_storage: 'denied',
  ad_user_data: 'denied',
  ad_personalization: 'denied',
  analytics_storage: 'denied',
} as const;

/** The address this document was first loaded at (its Content-Security-Policy is that page's). */
export const firstAddress =
  typeof window === 'undefined'
    ? { pathname: '/', search: '?' }
    : { pathname: window.location.pathname, search: window.location.search };

/**
 * At start, before anything could load the tag manager: Consent Mode v2's defaults, all denied,
 * then the choice this browser made earlier. Nothing at all without GTM_ID.
 */
export function initConsent(): void {
  if (typeof window === 'undefined' || !tagManagerId()) return;
  gtag('consent', 'default', denied);
  if (storedChoice() === 'granted') gtag('consent', 'update', granted);
}

/** The visitor answered: remembered in this browser, and told to Consent Mode at once. */
export function keepChoice(choice: ConsentChoice): void {
  localStore.set(storageKeys.analyticsConsent, choice);
  gtag('consent', 'update', choice === 'granted' ? granted : denied);
}
