import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import { buildPlaceOrder, insertCustomer } from '#test/factories.ts';
import { cartApi } from '#shared/cart.ts';
import { catalogApi, offers } from '#shared/catalog.ts';
import { checkoutApi } from '#shared/checkout.ts';

const TOKEN = 'scraper-token-0123456789abcdef';

/** Issue 15: Prometheus metrics, for the configured scrapers only, with no customer in them. */
describe(`GET /metrics (${testDialect})`, () => {
  let t: TestApp;
  let off: TestApp;
  let allowList: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { METRICS_TOKEN: TOKEN } });
    off = await buildTestApp();
    allowList = await buildTestApp({ env: { METRICS_ALLOW: '10.0.0.9, 127.0.0.1' } });
  });
  afterAll(async () => {
    await Promise.all([t.close(), off.close(), allowList.close()]);
  });

  const scrape = (app: TestApp, headers: Record<string, string> = {}) =>
    app.app.inject({ method: 'GET', url: '/metrics', headers });

  it('answers the plain 404 of a path that does not exist unless the scraper is allowed', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: '/no-such-path-at-all' });
    for (const response of [
      await scrape(off, { authorization: `Bearer ${TOKEN}` }),
      await scrape(t),
      await scrape(t, { authorization: 'Bearer not-the-token-at-all-0000000' }),
      await scrape(t, { authorization: TOKEN }),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toBe(unknown.headers['content-type']);
    }
    expect((await scrape(allowList)).statusCode).toBe(200);
    expect(
      (await allowList.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.0.0.8' }))
        .statusCode,
    ).toBe(404);
  });

  it('counts latency by route template, job runs, queues and gateway calls, and names no one', async () => {
    const customer = await insertCustomer(t.app, { first_name: 'Metricsperson' });
    await callAs(
      t.app,
      cartApi.addProduct,
      { product_id: offers.sleep.monthly, quantity: 1 },
      customer,
    );
    const placed = await callAs(t.app, checkoutApi.placeOrder, buildPlaceOrder(), customer);
    expect(placed.statusCode, placed.body).toBe(200);
    await callAs(t.app, catalogApi.product, undefined, undefined, {
      params: { slug: 'sleep-gummies' },
    });
    await t.app.ctx.jobs.drain('outbox');

    const response = await scrape(t, { authorization: `Bearer ${TOKEN}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    const text = response.body;
    expect(text).toMatch(
      /pairwell_http_request_duration_seconds_count\{method="GET",route="\/lapi\/products\/:slug",status_code="200"\} 1/,
    );
    expect(text).toMatch(/route="\/lapi\/v2\/ecom\/place-order",status_code="200"/);
    expect(text).toMatch(/pairwell_job_runs_total\{job="outbox",outcome="ok"\} [1-9]/);
    expect(text).toMatch(/pairwell_queue_depth\{queue="outbox"\} \d+/);
    // The monthly plan just bought renews in a month: nothing is due yet.
    expect(text).toMatch(/pairwell_queue_depth\{queue="renewals_due"\} 0/);
    expect(text).toMatch(/pairwell_gateway_calls\{operation="charge",status="succeeded"\} 1/);
    expect(text).toContain('pairwell_process_resident_memory_bytes');
    for (const secret of [customer.email, customer.leadsId, 'Metricsperson', TOKEN])
      expect(text).not.toContain(secret);
  });
});
