import { describe, expect, it } from 'vitest';
import { authApi } from '#shared/auth.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import { insertCustomer } from '#test/factories.ts';
import { notWelcome, sentMessages } from '#test/outbox.ts';

/**
 * Finding 1 of issue 11: a reset request with `Host: evil.example` emailed a valid token to
 * `http://evil.example/…`. Links now come from configuration only (src/server/lib/links.ts).
 */
describe(`reset links come only from configuration (${testDialect})`, () => {
  async function resetLinkFor(t: TestApp, headers: Record<string, string>): Promise<string> {
    const customer = await insertCustomer(t.app);
    const response = await callAs(t.app, authApi.reset, { email: customer.email }, undefined, {
      headers,
    });
    expect(response.statusCode).toBe(200);
    const mail = (await sentMessages(t)).filter((m) => m.to === customer.email && notWelcome(m));
    expect(mail).toHaveLength(1);
    expect(mail[0]?.text).not.toContain('evil.example');
    const link = /https?:\/\/\S+\/reset-password\?id=[\w-]{43}/.exec(mail[0]?.text ?? '')?.[0];
    expect(link).toBeDefined();
    return link ?? '';
  }

  const poisoned = {
    host: 'evil.example',
    'x-forwarded-host': 'evil.example',
    'x-forwarded-proto': 'https',
    forwarded: 'host=evil.example;proto=https',
  };

  it('in development, the link is on the configured HOST and PORT whatever the request names', async () => {
    const t = await buildTestApp({ env: { NODE_ENV: 'development', TRUST_PROXY: 'true' } });
    try {
      expect(await resetLinkFor(t, poisoned)).toMatch(
        /^http:\/\/localhost:3000\/reset-password\?id=/,
      );
      expect(await resetLinkFor(t, {})).toMatch(/^http:\/\/localhost:3000\/reset-password\?id=/);
    } finally {
      await t.close();
    }
  });

  it('in production, the link is on PUBLIC_URL, even behind a trusted proxy', async () => {
    const t = await buildTestApp({
      env: {
        NODE_ENV: 'production',
        PUBLIC_URL: 'https://shop.pairwell.example',
        TRUST_PROXY: 'true',
      },
    });
    try {
      expect(await resetLinkFor(t, poisoned)).toMatch(
        /^https:\/\/shop\.pairwell\.example\/reset-password\?id=/,
      );
    } finally {
      await t.close();
    }
  });

  it('production does not start without PUBLIC_URL', async () => {
    await expect(buildTestApp({ env: { NODE_ENV: 'production' } })).rejects.toThrow(
      /^Invalid environment variable PUBLIC_URL: is required when NODE_ENV=production/,
    );
  });
});
