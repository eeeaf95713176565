// @vitest-environment jsdom
import { act } from '@testing-library/react';
import { render as renderOver, type VNode } from 'preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeConfig } from '#shared/api.ts';
import { App } from './app.tsx';
import { catalog } from './features/cart/cart.fixtures.ts';
import { resetAppStateForTests, setLoggedIn } from './lib/app-state.ts';
import { adoptPageData } from './lib/page-data.ts';
import { preloadRoute } from './router.tsx';
import { renderPage } from './server-render.tsx';
import { stubApi, testQueryClient } from './testing/render-app.tsx';

/**
 * The browser's first render over a page the server drew (decision 011), as main.tsx does it: the
 * elements the server sent stay (no flash, no second download of the lead picture), and whatever
 * differs for this visitor is corrected.
 */
const config: RuntimeConfig = {
  features: { login: true, onlineVisit: true },
  sentryDsn: null,
  environment: 'test',
  versionCheck: false,
  version: '1',
};

async function takeOver(pathname: string) {
  const { markup } = await renderPage(pathname, catalog, config);
  window.history.replaceState(null, '', pathname);
  document.body.innerHTML = `<script id="page-data" type="application/json">${JSON.stringify({ catalog })}</script><div id="root">${markup}</div>`;
  const root = document.getElementById('root') as HTMLElement;
  const drawn = {
    heading: root.querySelector('h1'),
    image: root.querySelector('main img'),
    header: root.querySelector('header'),
  };
  const removed: Element[] = [];
  new MutationObserver((records) => {
    for (const record of records)
      for (const node of record.removedNodes) if (node instanceof Element) removed.push(node);
  }).observe(root, { childList: true, subtree: true });

  const queryClient = testQueryClient();
  expect(adoptPageData(queryClient)).toBe(true);
  await preloadRoute(pathname);
  // act holds Preact's re-renders and effects back until its callback returns, then runs them all:
  // when it returns, the first render and every update it set off in the page have been drawn.
  await act(() => {
    renderOver((<App queryClient={queryClient} />) as unknown as VNode, root);
  });
  return { root, drawn, removed };
}

describe('the first render over a page the server drew', () => {
  afterEach(() => {
    const root = document.getElementById('root');
    if (root) renderOver(null, root);
    document.body.innerHTML = '';
    resetAppStateForTests();
  });

  it('keeps every element of the home page and of a product page', async () => {
    stubApi({});
    for (const [pathname, title] of [
      ['/', 'Pairwell — Health Clinic For Couples'],
      ['/shop/sleep-gummies', 'Sleep Gummies — Pairwell'],
    ] as const) {
      const { root, drawn, removed } = await takeOver(pathname);
      expect(removed, pathname).toEqual([]);
      expect(root.querySelector('h1'), pathname).toBe(drawn.heading);
      expect(root.querySelector('main img'), pathname).toBe(drawn.image);
      expect(document.title).toBe(title);
      renderOver(null, root);
    }
  });

  it('keeps the log-in form the server drew, its page code fetched first', async () => {
    stubApi({});
    const { root, drawn, removed } = await takeOver('/login');
    expect(removed).toEqual([]);
    expect(root.querySelector('h1')).toBe(drawn.heading);
    expect(root.querySelector('form')?.getAttribute('method')).toBe('post');
  });

  it("corrects what differs for a member: the header's Log in becomes My account", async () => {
    stubApi({});
    setLoggedIn(true);
    const { root, drawn } = await takeOver('/shop/sleep-gummies');
    expect(root.querySelector('header')).toBe(drawn.header);
    expect(root.querySelector('header')?.textContent).toContain('My account');
    expect(root.querySelector('header')?.textContent).not.toContain('Log in');
  });

  it('ignores page data it cannot read, and the page asks the API as usual', () => {
    document.body.innerHTML =
      '<script id="page-data" type="application/json">{"catalog":1}</script>';
    expect(adoptPageData(testQueryClient())).toBe(false);
    document.body.innerHTML = '<script id="page-data" type="application/json">{not json</script>';
    expect(adoptPageData(testQueryClient())).toBe(false);
    document.body.innerHTML = '';
    expect(adoptPageData(testQueryClient())).toBe(false);
  });
});
