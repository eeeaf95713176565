import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { insertCustomer, type TestCustomer } from '#test/factories.ts';
import { reusable } from './reusable.ts';

describe(`a reusable query (${testDialect})`, () => {
  let t: TestApp;
  let ann: TestCustomer;
  let bob: TestCustomer;
  beforeAll(async () => {
    t = await buildTestApp();
    ann = await insertCustomer(t.app, { first_name: 'Ann' });
    bob = await insertCustomer(t.app, { first_name: 'Bob' });
  });
  afterAll(() => t.close());

  it('is built once and answers each call with its own values', async () => {
    const build = vi.fn((db: typeof t.app.db, email: string, limit: number) =>
      db
        .selectFrom('customers')
        .select(['first_name', 'email'])
        .where('email', '=', email)
        .where('first_name', '!=', 'Nobody')
        .limit(limit),
    );
    const byEmail = reusable(build);
    expect(await byEmail(t.app.db, ann.email, 1)).toEqual([
      { first_name: 'Ann', email: ann.email },
    ]);
    expect(await byEmail(t.app.db, bob.email, 1)).toEqual([
      { first_name: 'Bob', email: bob.email },
    ]);
    expect(await byEmail(t.app.db, 'nobody@example.com', 1)).toEqual([]);
    expect(await byEmail(t.app.db, ann.email, 0)).toEqual([]);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('refuses a builder that reads an argument instead of passing it as a value', async () => {
    const shaped = reusable((db: typeof t.app.db, email: string) => {
      const query = db.selectFrom('customers').select('first_name');
      return email ? query.where('email', '=', 'fixed@example.com') : query;
    });
    await expect(shaped(t.app.db, ann.email)).rejects.toThrow(
      'reusable query: argument 0 is not a value of the query',
    );
  });

  it.runIf(testDialect === 'postgres')(
    'is kept prepared on the connection it ran on, and an ad-hoc query is not',
    async () => {
      const byEmail = reusable((db: typeof t.app.db, email: string) =>
        db.selectFrom('customers').select('first_name as reused_name').where('email', '=', email),
      );
      const kept = await t.app.db.transaction().execute(async (trx) => {
        expect(await byEmail(trx, ann.email)).toEqual([{ reused_name: 'Ann' }]);
        expect(await byEmail(trx, bob.email)).toEqual([{ reused_name: 'Bob' }]);
        await trx
          .selectFrom('customers')
          .select('id as ad_hoc_id')
          .where('email', '=', ann.email)
          .execute();
        const { rows } = await sql<{ name: string; statement: string }>`
          select name, statement from pg_prepared_statements`.execute(trx);
        return rows;
      });
      const texts = kept.map((row) => row.statement);
      expect(texts.filter((text) => text.includes('"reused_name"'))).toHaveLength(1);
      expect(kept.find((row) => row.statement.includes('"reused_name"'))?.name).toMatch(
        /^pairwell_\d+$/,
      );
      expect(texts.filter((text) => text.includes('"ad_hoc_id"'))).toEqual([]);
    },
  );
});
