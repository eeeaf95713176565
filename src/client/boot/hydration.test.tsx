// @vitest-environment jsdom
import { act } from '@testing-library/react';
import { renderToString } from 'preact-render-to-string';
import type { VNode } from 'preact';
import { hydrateRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeConfig } from '#shared/api.ts';
import { offers } from '#shared/catalog.ts';
import { storageKeys } from '#shared/constants.ts';
import { App } from '../app.tsx';
import { catalog } from '../features/cart/cart.fixtures.ts';
import { resetAppStateForTests, setLoggedIn } from '../lib/app-state.ts';
import { preloadRoute } from '../router.tsx';
import { stubApi, testQueryClient } from '../testing/render-app.tsx';
import { readPageData } from './page-data.ts';
import { renderPage } from './prerender.tsx';

/**
 * Hydration of a prerendered page, as main.tsx does it (decision 011): the browser's first render
 * is the server's markup exactly, whoever this browser is, so the elements the server sent stay
 * (no flash, no second download of the lead picture); what this browser's storage says — a
 * member's header, a filled cart — applies right after.
 */
const config: RuntimeConfig = {
  features: { login: true, onlineVisit: true },
  sentryDsn: null,
  payments: { processor: 'simulator' },
  gtmId: null,
  environment: 'test',
  versionCheck: false,
  version: '1',
};

const filledCart = [
  {
    name: 'Sleep Gummies',
    product_id: offers.sleep.oneTime,
    price: 24.99,
    frequency: 'ONE_TIME',
    description: 'x',
    dose: 'One bottle',
    quantity: 2,
    img: '/images/supp-sleep.webp',
  },
];

let app: Root | undefined;

/** Where two renders first differ, with some markup around it; null when they are the same. */
function firstDifference(actual: string, expected: string): string | null {
  if (actual === expected) return null;
  let at = 0;
  while (actual[at] === expected[at]) at += 1;
  return `at ${at}: …${actual.slice(at - 80, at + 80)}… where the server rendered …${expected.slice(at - 80, at + 80)}…`;
}

/**
 * Prerenders the page at `pathname` (as the server does, before `thisBrowser` sets what this
 * browser keeps), then hydrates it.
 */
async function hydrate(pathname: string, thisBrowser: () => void = () => undefined) {
  const { markup } = await renderPage(pathname, catalog, config);
  thisBrowser();
  window.history.replaceState(null, '', pathname);
  document.body.innerHTML = `<script id="page-data" type="application/json">${JSON.stringify({ catalog })}</script><div id="root">${markup}</div>`;
  const root = document.getElementById('root') as HTMLElement;
  /** The server's markup as the browser parsed it. */
  const parsed = root.innerHTML;
  const prerendered = {
    heading: root.querySelector('h1'),
    image: root.querySelector('main img'),
    header: root.querySelector('header'),
  };
  const observer = new MutationObserver(() => undefined);
  observer.observe(root, { childList: true, subtree: true });

  const queryClient = testQueryClient();
  expect(readPageData(queryClient)).toBe(true);
  await preloadRoute(pathname);
  // The first render as hydration runs it, with the snapshots a server renders with: attribute
  // for attribute, the server's markup (hydration itself compares only elements and text).
  const probe = testQueryClient();
  readPageData(probe);
  const firstRender = renderToString((<App queryClient={probe} />) as unknown as VNode);
  let hydrated = '';
  // act holds re-renders and effects back until its callback returns, then runs them all: what
  // the callback sees is hydration alone; when act returns, every update after it has been drawn.
  await act(() => {
    app = hydrateRoot(root, <App queryClient={queryClient} />);
    // Hydration only splits the text the server merged: the markup reads the same.
    hydrated = root.innerHTML;
  });
  const removed = observer
    .takeRecords()
    .flatMap((record) => [...record.removedNodes])
    .filter((node) => node instanceof Element);
  observer.disconnect();
  return { root, markup, parsed, firstRender, prerendered, hydrated, removed };
}

describe('hydration of a prerendered page', () => {
  afterEach(() => {
    app?.unmount();
    app = undefined;
    document.body.innerHTML = '';
    localStorage.clear();
    resetAppStateForTests();
  });

  it('keeps every element of the home page and of a product page', async () => {
    stubApi([]);
    for (const [pathname, title] of [
      ['/', 'Pairwell — Health Clinic For Couples'],
      ['/shop/sleep-gummies', 'Sleep Gummies — Pairwell'],
    ] as const) {
      const { root, markup, parsed, firstRender, prerendered, hydrated, removed } =
        await hydrate(pathname);
      expect(firstDifference(firstRender, markup), pathname).toBeNull();
      expect(firstDifference(hydrated, parsed), pathname).toBeNull();
      expect(removed, pathname).toEqual([]);
      expect(root.querySelector('h1'), pathname).toBe(prerendered.heading);
      expect(root.querySelector('main img'), pathname).toBe(prerendered.image);
      expect(document.title).toBe(title);
      app?.unmount();
    }
  });

  it('keeps the log-in form the server rendered, its page code fetched first', async () => {
    stubApi([]);
    const { root, markup, firstRender, prerendered, removed } = await hydrate('/login');
    expect(firstDifference(firstRender, markup)).toBeNull();
    expect(removed).toEqual([]);
    expect(root.querySelector('h1')).toBe(prerendered.heading);
    expect(root.querySelector('form')?.getAttribute('method')).toBe('post');
  });

  it("renders a visitor's view first for a member, then the member's header", async () => {
    stubApi([]);
    const { root, markup, parsed, firstRender, prerendered, hydrated } = await hydrate(
      '/shop/sleep-gummies',
      () => setLoggedIn(true),
    );
    expect(firstDifference(firstRender, markup)).toBeNull();
    expect(firstDifference(hydrated, parsed)).toBeNull();
    expect(root.querySelector('header')).toBe(prerendered.header);
    expect(root.querySelector('header')?.textContent).toContain('My account');
    expect(root.querySelector('header')?.textContent).not.toContain('Log in');
  });

  it('renders an empty cart first, then the count of the cart this browser keeps', async () => {
    stubApi([]);
    const { root, markup, parsed, firstRender, hydrated } = await hydrate('/', () =>
      localStorage.setItem(storageKeys.cart, JSON.stringify(filledCart)),
    );
    expect(markup).toContain('aria-label="Cart, empty"');
    expect(firstDifference(firstRender, markup)).toBeNull();
    expect(firstDifference(hydrated, parsed)).toBeNull();
    expect(
      root
        .querySelector('header [aria-haspopup="dialog"][aria-label^="Cart"]')
        ?.getAttribute('aria-label'),
    ).toBe('Cart, 2 items');
  });

  it('ignores page data it cannot read, and the page is rendered afresh', () => {
    document.body.innerHTML =
      '<script id="page-data" type="application/json">{"catalog":1}</script>';
    expect(readPageData(testQueryClient())).toBe(false);
    document.body.innerHTML = '<script id="page-data" type="application/json">{not json</script>';
    expect(readPageData(testQueryClient())).toBe(false);
    document.body.innerHTML = '';
    expect(readPageData(testQueryClient())).toBe(false);
  });
});
