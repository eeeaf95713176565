import { describe, expect, it } from 'vitest';
import type { RuntimeConfig } from '#shared/api.ts';
import { site } from '#shared/site.ts';
import { catalog } from '#client/features/cart/cart.fixtures.ts';
import { prerenderable, renderPage } from './prerender.tsx';

/**
 * The prerender of the pages a visitor lands on (decision 011), run here as the server runs it:
 * in Node, without a document, by Preact.
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

describe('the prerender of a page', () => {
  it('renders the home page with the catalogue, and names its title', async () => {
    const { markup, title } = await renderPage('/', catalog, config);
    expect(title).toBe(site.title);
    expect(markup).toContain('Better health, together.');
    for (const line of catalog.lines) expect(markup).toContain(line.name.replaceAll('&', '&amp;'));
    // The visitor's header: Log in and an empty cart.
    expect(markup).toContain('>Log in</button>');
    expect(markup).toContain('aria-label="Cart, empty"');
  });

  it('renders a product page, its purchase form sent by post', async () => {
    const { markup, title } = await renderPage('/shop/sleep-gummies', catalog, config);
    expect(title).toBe(`Sleep Gummies — ${site.name}`);
    expect(markup).toMatch(/<h1[^>]*>Sleep Gummies<\/h1>/);
    expect(markup).toContain('<form method="post"');
    expect(markup).toContain('Add to cart');
  });

  it('renders a lazy page (log in) in full, never its loading spinner', async () => {
    const { markup, title } = await renderPage('/login', catalog, config);
    expect(title).toBe(`Log in — ${site.name}`);
    expect(markup).toContain('<form method="post"');
    expect(markup).toMatch(/<input[^>]*type="email"/);
    expect(markup).not.toContain('Loading the page');
  });

  it('renders the text pages and the sign-up form', async () => {
    for (const [pathname, heading] of [
      ['/faq', 'Frequently Asked Questions'],
      ['/privacy', 'Privacy Policy'],
      ['/terms', 'Terms of Service'],
      ['/consent-to-telehealth', 'Consent to Telehealth'],
      ['/signup', 'Create your account'],
      ['/shop', 'Shop'],
    ] as const) {
      const { markup, title } = await renderPage(pathname, catalog, config);
      expect(title, pathname).toBe(`${heading} — ${site.name}`);
      expect(markup, pathname).toMatch(new RegExp(`<h1[^>]*>${heading}</h1>`));
    }
  });

  it('leaves the Log in button out when the login feature is off', async () => {
    const { markup } = await renderPage('/', catalog, {
      ...config,
      features: { login: false, onlineVisit: true },
    });
    expect(markup).not.toContain('>Log in</button>');
  });

  it('prerenders only the pages that look the same to everyone', () => {
    for (const pathname of ['/', '/shop', '/shop/sleep-gummies', '/login', '/signup', '/faq'])
      expect(prerenderable(pathname, catalog), pathname).toBe(true);
    for (const pathname of [
      '/shop/no-such-gummies',
      '/cart',
      '/checkout/shipping',
      '/dashboard',
      '/orders',
      '/visit/ed',
      '/staff',
      '/reset-password',
      '/nowhere',
    ])
      expect(prerenderable(pathname, catalog), pathname).toBe(false);
  });
});
