import { setImmediate } from 'node:timers/promises';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalog } from '#server/db/seed.ts';
import { buildSecondInstance, buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import { statementsDuring } from '#test/sql-statements.ts';
import { catalogApi, offers, type Catalog, type ProductLine } from '#shared/catalog.ts';
import { CATALOG_CHECK_MS } from './catalog.version.ts';

describe(`catalogue API (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  async function catalog(): Promise<Catalog> {
    const response = await callAs(t.app, catalogApi.products, undefined);
    expect(response.statusCode).toBe(200);
    const body = response.json<{ status: string; data: Catalog }>();
    expect(body.status).toBe('SUCCESS');
    return body.data;
  }

  it('lists the seeded catalogue exactly: ids, names, prices in cents, frequencies, doses, images', async () => {
    const { lines } = await catalog();
    const summary = lines.map((line) => ({
      name: line.name,
      img: line.img,
      offers: line.offers.map((o) => [
        o.product_id,
        o.frequency,
        o.price_cents,
        o.price,
        o.dose,
        o.quantity_supported,
      ]),
    }));
    expect(summary).toEqual([
      {
        name: 'Sleep Gummies',
        img: '/images/supp-sleep.webp',
        offers: [
          [40, 'ONE_TIME', 2499, 24.99, 'One bottle', true],
          [41, 'MONTHLY', 1750, 17.5, 'One bottle a month subscription', true],
          [42, 'QUARTERLY', 4500, 45, 'Three bottles every quarter subscription', true],
        ],
      },
      {
        name: 'Biotin Gummies',
        img: '/images/supp-biotin.webp',
        offers: [
          [30, 'ONE_TIME', 2499, 24.99, 'One bottle', true],
          [31, 'MONTHLY', 1750, 17.5, 'One bottle a month subscription', true],
          [32, 'QUARTERLY', 4500, 45, 'Three bottles every quarter subscription', true],
        ],
      },
      {
        name: 'Immunity Gummies',
        img: '/images/supp-immunity.webp',
        offers: [
          [35, 'ONE_TIME', 2499, 24.99, 'One bottle', true],
          [36, 'MONTHLY', 1750, 17.5, 'One bottle a month subscription', true],
          [37, 'QUARTERLY', 4500, 45, 'Three bottles every quarter subscription', true],
        ],
      },
      {
        name: 'Holiday Bundle Special (Sleep, Hair, and Immunity Gummies)',
        img: '/images/supp-bundle.webp',
        offers: [[160, 'ONE_TIME', 2499, 24.99, 'One bottle each', false]],
      },
    ]);
    for (const line of lines) {
      for (const offer of line.offers) {
        expect(offer.product_name).toBe(line.name);
        expect(offer.img).toBe(line.img);
      }
    }
  });

  it('seeding again, as every restart does, duplicates nothing', async () => {
    await seedCatalog(t.app.db);
    await seedCatalog(t.app.db);
    const { lines } = await catalog();
    expect(lines).toHaveLength(4);
    expect(lines.flatMap((l) => l.offers)).toHaveLength(10);
  });

  it('answers one product by its slug', async () => {
    const response = await callAs(t.app, catalogApi.product, undefined, undefined, {
      params: { slug: 'sleep-gummies' },
    });
    expect(response.statusCode).toBe(200);
    const line = response.json<{ data: ProductLine }>().data;
    expect(line.name).toBe('Sleep Gummies');
    expect(line.offers.map((o) => o.product_id)).toEqual([
      offers.sleep.oneTime,
      offers.sleep.monthly,
      offers.sleep.quarterly,
    ]);
  });

  it('an unknown product answers 404 with the error body', async () => {
    for (const slug of ['no-such-thing', 'DROP%20TABLE', '%F0%9F%92%8A']) {
      const response = await t.app.inject({ method: 'GET', url: `/lapi/products/${slug}` });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({
        status: 'FAILURE',
        code: 'NOT_FOUND',
        message: 'We could not find that product.',
      });
    }
  });

  it('a warm catalogue runs no SQL, and its kept bytes are the same in every encoding', async () => {
    const cold = await callAs(t.app, catalogApi.products, undefined);
    expect(cold.statusCode).toBe(200);
    const plain = cold.rawPayload;
    // Still the shared schema's answer, as every call's is.
    expect(
      catalogApi.products.response.safeParse(cold.json<{ data: unknown }>().data).success,
    ).toBe(true);

    let br = cold;
    let gzip = cold;
    let identity = cold;
    const statements = await statementsDuring(async () => {
      br = await callAs(t.app, catalogApi.products, undefined, undefined, {
        headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
      });
      gzip = await callAs(t.app, catalogApi.products, undefined, undefined, {
        headers: { 'accept-encoding': 'gzip;q=1, br;q=0' },
      });
      identity = await callAs(t.app, catalogApi.products, undefined);
    });
    expect(statements).toBe(0);

    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).equals(plain)).toBe(true);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).equals(plain)).toBe(true);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.rawPayload.equals(plain)).toBe(true);
    for (const response of [br, gzip, identity]) {
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['cache-control']).toBe('public, max-age=60');
      expect(response.headers.vary).toContain('Accept-Encoding');
    }
  });

  it('each product line is kept by its slug; an unknown slug is never kept', async () => {
    const first = await callAs(t.app, catalogApi.product, undefined, undefined, {
      params: { slug: 'biotin-gummies' },
    });
    const other = await callAs(t.app, catalogApi.product, undefined, undefined, {
      params: { slug: 'sleep-gummies' },
    });
    expect(first.json<{ data: ProductLine }>().data.name).toContain('Biotin');
    expect(other.json<{ data: ProductLine }>().data.name).toBe('Sleep Gummies');
    const statements = await statementsDuring(async () => {
      const again = await callAs(t.app, catalogApi.product, undefined, undefined, {
        params: { slug: 'biotin-gummies' },
      });
      expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    });
    expect(statements).toBe(0);
    const unknown = () =>
      callAs(t.app, catalogApi.product, undefined, undefined, {
        params: { slug: 'not-a-product' },
      });
    expect((await unknown()).statusCode).toBe(404);
    expect(await statementsDuring(unknown)).toBeGreaterThan(0);
  });

  it('a change to the catalogue shows on every instance within a second, and not a kept byte before', async () => {
    const other = await buildSecondInstance(t);
    const sleep41 = async (app: typeof other) => {
      const response = await callAs(app, catalogApi.product, undefined, undefined, {
        params: { slug: 'sleep-gummies' },
      });
      const line = response.json<{ data: ProductLine }>().data;
      return line.offers.find((offer) => offer.product_id === offers.sleep.monthly)?.price_cents;
    };
    const listed41 = async (app: typeof other) => {
      const response = await callAs(app, catalogApi.products, undefined);
      const { lines } = response.json<{ data: Catalog }>().data;
      return lines
        .flatMap((line) => line.offers)
        .find((offer) => offer.product_id === offers.sleep.monthly)?.price_cents;
    };
    /**
     * Asks again until `read` answers `want`: the first ask after a second starts the version's
     * read, and each ask lets the event loop take in the database's answer (PostgreSQL's arrives as
     * I/O, which a kept answer never waits for).
     */
    const eventually = async (read: () => Promise<number | undefined>, want: number) => {
      for (let tries = 0; tries < 100; tries++) {
        if ((await read()) === want) return true;
        await setImmediate();
      }
      return false;
    };
    const before = await sleep41(t.app);
    expect(before).toBeGreaterThan(0);
    expect(await listed41(t.app)).toBe(before);
    expect(await sleep41(other)).toBe(before);
    expect(await listed41(other)).toBe(before);
    const after = (before ?? 0) + 100;

    try {
      // Written by hand, as an operator would, behind both instances' backs.
      await t.app.db
        .updateTable('products')
        .set({ price_cents: after })
        .where('id', '=', 41)
        .execute();
      // Within the second, what is kept goes out as it is, with no statement.
      const statements = await statementsDuring(async () => {
        expect(await sleep41(t.app)).toBe(before);
        expect(await listed41(t.app)).toBe(before);
      });
      expect(statements).toBe(0);

      t.clock.advance(CATALOG_CHECK_MS);
      expect(await eventually(() => sleep41(t.app), after)).toBe(true);
      expect(await eventually(() => listed41(t.app), after)).toBe(true);
      expect(await eventually(() => sleep41(other), after)).toBe(true);
      expect(await eventually(() => listed41(other), after)).toBe(true);
      // And kept again at the new version.
      expect(await statementsDuring(() => sleep41(t.app))).toBe(0);
    } finally {
      await t.app.db
        .updateTable('products')
        .set({ price_cents: before })
        .where('id', '=', 41)
        .execute();
      await other.close();
    }
  });
});
