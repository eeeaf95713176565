// @vitest-environment jsdom
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet, type RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storageKeys } from '#shared/constants.ts';
import { SiteFooter } from '#client/layout/site-footer.tsx';
import { initConsent } from '#client/lib/consent.ts';
import { setRuntimeConfig } from '#client/lib/runtime-config.ts';
import { renderRoutes } from '#client/testing/render-app.tsx';
import { resetConsentForTests } from './consent-store.ts';
import { CookieSettingsItem } from './cookie-settings.tsx';
import { TagManagerConsent } from './tag-manager-consent.tsx';

/** The footer's item and the banner as the site's layout loads them (their own chunks). */
const routes: RouteObject[] = [
  {
    element: (
      <>
        <Outlet />
        <ul>
          <CookieSettingsItem className="link" />
        </ul>
        <TagManagerConsent />
      </>
    ),
    children: [
      { path: '/shop', element: <h1>Shop</h1> },
      { path: '/dashboard', element: <h1>Dashboard</h1> },
      { path: '/visit/:category', element: <h1>Visit</h1> },
      { path: '/staff', element: <h1>Staff</h1> },
      { path: '/signup', element: <h1>Sign up</h1> },
    ],
  },
];

const tagManagerScripts = () =>
  [...document.querySelectorAll('script')].filter((script) =>
    script.src.startsWith('https://www.googletagmanager.com/gtm.js'),
  );

/** The Consent Mode commands in the data layer, as [command, type, parameters]. */
const consentCommands = () =>
  (window.dataLayer ?? [])
    .filter(
      (entry) =>
        !Array.isArray(entry) && Object.prototype.toString.call(entry) === '[object Arguments]',
    )
    .map((entry) => Array.from(entry as unknown as ArrayLike<unknown>));

const banner = () => screen.queryByRole('region', { name: 'May we measure how our shop is used?' });

beforeEach(() => {
  localStorage.clear();
  window.dataLayer = [];
  setRuntimeConfig({ gtmId: 'GTM-TEST123' });
  resetConsentForTests();
});
afterEach(cleanup);

describe('Consent Mode v2', () => {
  it('starts with every kind of storage denied, as gtag() commands, before anything loads', () => {
    initConsent();
    expect(consentCommands()).toEqual([
      [
        'consent',
        'default',
        {
          ad_storage: 'denied',
          ad_user_data: 'denied',
          ad_personalization: 'denied',
          analytics_storage: 'denied',
        },
      ],
    ]);
  });

  it('adds the choice kept from an earlier visit', () => {
    localStorage.setItem(storageKeys.analyticsConsent, 'granted');
    initConsent();
    expect(consentCommands()[1]).toEqual(['consent', 'update', { analytics_storage: 'granted' }]);
  });

  it('says nothing at all without a tag manager', () => {
    setRuntimeConfig({ gtmId: null });
    initConsent();
    expect(window.dataLayer).toEqual([]);
  });
});

describe('the consent banner', () => {
  it('declining keeps the tag manager out, and is remembered', async () => {
    const u = userEvent.setup();
    renderRoutes(routes, { path: '/shop' });
    expect(
      await screen.findByRole('region', { name: 'May we measure how our shop is used?' }),
    ).toBeTruthy();
    await u.click(screen.getByRole('button', { name: 'Decline' }));
    expect(banner()).toBeNull();
    expect(localStorage.getItem(storageKeys.analyticsConsent)).toBe('denied');
    expect(consentCommands()).toEqual([
      [
        'consent',
        'update',
        {
          ad_storage: 'denied',
          ad_user_data: 'denied',
          ad_personalization: 'denied',
          analytics_storage: 'denied',
        },
      ],
    ]);
    expect(tagManagerScripts()).toHaveLength(0);

    // The next page load asks nothing again.
    cleanup();
    resetConsentForTests();
    renderRoutes(routes, { path: '/shop' });
    expect(await screen.findByRole('heading', { name: 'Shop' })).toBeTruthy();
    expect(banner()).toBeNull();
  });

  it('accepting grants analytics storage only and loads the tag manager; Cookie settings reopens it', async () => {
    const u = userEvent.setup();
    renderRoutes(routes, { path: '/shop' });
    await u.click(await screen.findByRole('button', { name: 'Accept' }));
    expect(localStorage.getItem(storageKeys.analyticsConsent)).toBe('granted');
    expect(consentCommands()).toEqual([['consent', 'update', { analytics_storage: 'granted' }]]);
    await waitFor(() => expect(tagManagerScripts()).toHaveLength(1));
    expect(tagManagerScripts()[0]?.src).toBe(
      'https://www.googletagmanager.com/gtm.js?id=GTM-TEST123',
    );
    expect(window.dataLayer).toContainEqual({ 'gtm.start': expect.any(Number), event: 'gtm.js' });

    // The footer's Cookie settings bring the banner back, with the focus, and give it back after.
    const settings = screen.getByRole('button', { name: 'Cookie settings' });
    await u.click(settings);
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole('heading', { name: 'May we measure how our shop is used?' }),
      ),
    );
    await u.click(screen.getByRole('button', { name: 'Decline' }));
    expect(banner()).toBeNull();
    expect(localStorage.getItem(storageKeys.analyticsConsent)).toBe('denied');
    expect(document.activeElement).toBe(settings);
  });

  it('never shows on member, visit or staff pages, nor on a sign-up carrying a token', async () => {
    for (const path of ['/dashboard', '/visit/hair', '/staff', '/signup?partnerInvite=abc']) {
      const view = renderRoutes(routes, { path });
      expect(await screen.findByRole('heading', { level: 1 }), path).toBeTruthy();
      // Its effects have run: the banner would be here by now.
      await act(async () => undefined);
      expect(banner(), path).toBeNull();
      expect(screen.queryByRole('button', { name: 'Cookie settings' }), path).toBeNull();
      view.unmount();
    }
  });

  it("the site's footer offers Cookie settings with a tag manager, and nothing without one", async () => {
    const footer: RouteObject[] = [{ path: '/shop', element: <SiteFooter /> }];
    renderRoutes(footer, { path: '/shop' });
    expect(await screen.findByRole('button', { name: 'Cookie settings' })).toBeTruthy();
    cleanup();

    setRuntimeConfig({ gtmId: null });
    renderRoutes(footer, { path: '/shop' });
    expect(await screen.findByRole('link', { name: 'FAQ' })).toBeTruthy();
    await act(async () => undefined);
    expect(screen.queryByRole('button', { name: 'Cookie settings' })).toBeNull();
  });
});
