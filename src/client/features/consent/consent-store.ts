import { useSyncExternalStore } from 'react';
import { tagManagerPage } from '#shared/tag-manager.ts';
import { firstAddress, keepChoice, storedChoice, type ConsentChoice } from '#client/lib/consent.ts';

/*
 * The consent banner's state (decision 020): the choice kept, and whether "Cookie settings"
 * opened the banner again. Loaded only on a page with GTM_ID set.
 */

let settingsOpen = false;
const listeners = new Set<() => void>();
let snapshot = { choice: storedChoice(), settingsOpen };
const notify = () => {
  snapshot = { choice: storedChoice(), settingsOpen };
  for (const listener of listeners) listener();
};
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The choice made (null: not yet asked, or forgotten at log-out) and whether settings are open. */
export function useConsent() {
  return useSyncExternalStore(
    subscribe,
    () => snapshot,
    () => snapshot,
  );
}

/** The visitor answers the banner. */
export function chooseConsent(choice: ConsentChoice): void {
  keepChoice(choice);
  settingsOpen = false;
  notify();
}

/** The footer's "Cookie settings": the banner again, to change the answer. */
export function openConsentSettings(): void {
  settingsOpen = true;
  notify();
}

/**
 * Whether this document may ever hold the tag manager: only a document first loaded on a public
 * page has the Content-Security-Policy that lets it load (the server sends the strict one
 * elsewhere).
 */
export function documentAllowsTagManager(): boolean {
  return tagManagerPage(firstAddress.pathname, firstAddress.search);
}

/** For tests: read the kept choice again, with the settings closed. */
export function resetConsentForTests(): void {
  settingsOpen = false;
  notify();
}
