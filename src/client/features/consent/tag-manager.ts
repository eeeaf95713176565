import { GTM_SCRIPT_URL, tagManagerPage } from '#shared/tag-manager.ts';

/*
 * The operator's tag manager (GTM_ID), loaded once consent is given, on a public page of a
 * document whose Content-Security-Policy allows it (consent.ts, decision 020). Its own chunk: a
 * first visit without GTM_ID, or without consent, never downloads it.
 */

let loaded = false;

/** Loads Google Tag Manager's container into this document, once. */
export function loadTagManager(containerId: string): void {
  if (loaded) return;
  loaded = true;
  keepOffPrivatePages();
  window.dataLayer ??= [];
  window.dataLayer.push({ 'gtm.start': Date.now(), event: 'gtm.js' });
  const script = document.createElement('script');
  script.async = true;
  script.src = `${GTM_SCRIPT_URL}?id=${encodeURIComponent(containerId)}`;
  document.head.append(script);
}

/**
 * A loaded tag manager cannot be unloaded, and it watches the address (history changes) and the
 * page. So once it is here, moving to a member, visit or staff page is a full page load: that
 * document comes without it and with the strict Content-Security-Policy. The router's pushState
 * and replaceState to such a page become a navigation instead, and Back or Forward onto one
 * reloads before the router (or the tag manager) hears of it.
 */
function keepOffPrivatePages(): void {
  const history = window.history;
  const leavesFor = (url: string | URL | null | undefined, replace: boolean): boolean => {
    if (url === undefined || url === null) return false;
    const target = new URL(String(url), window.location.href);
    if (target.origin !== window.location.origin) return false;
    if (tagManagerPage(target.pathname, target.search)) return false;
    if (replace) window.location.replace(target.href);
    else window.location.assign(target.href);
    return true;
  };
  const pushState = history.pushState.bind(history);
  const replaceState = history.replaceState.bind(history);
  history.pushState = (data: unknown, unused: string, url?: string | URL | null) => {
    if (!leavesFor(url, false)) pushState(data, unused, url);
  };
  history.replaceState = (data: unknown, unused: string, url?: string | URL | null) => {
    if (!leavesFor(url, true)) replaceState(data, unused, url);
  };
  window.addEventListener(
    'popstate',
    (event) => {
      if (tagManagerPage(window.location.pathname, window.location.search)) return;
      event.stopImmediatePropagation();
      window.location.reload();
    },
    { capture: true },
  );
}
