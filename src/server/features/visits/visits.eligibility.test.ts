import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BodyOf } from '#shared/contract.ts';
import { visitsApi } from '#shared/visits.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs, malformed, type Malformed } from '#test/contract.ts';
import { insertCustomer, randomLoopback } from '#test/factories.ts';
import { insertProvider } from '#test/visits.ts';

/**
 * Issue 13, finding 1: a visitor starts a visit with its eligibility (state and date of birth)
 * before any account. The check answers by the same rules as a visit's eligibility and stores
 * nothing; bad input is a clear 400, never a 500.
 */
describe(`a visitor's eligibility check (${testDialect})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    // Arizona is offered, but nobody is licensed there; Ohio is not offered at all.
    t = await buildTestApp({ env: { STATES_ALLOWED: 'CA,FL,NY,OR,TX,WA,AZ' } });
    await insertProvider(t.app, ['CA', 'FL', 'NY', 'OR', 'TX', 'WA']);
  });
  afterAll(() => t.close());

  /** The date of birth of someone who turns `years` old `days` from today, as MM/DD/YYYY. */
  function bornYearsAgo(years: number, days = 0): string {
    const now = t.clock.now();
    const birth = new Date(
      Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate() + days),
    );
    const two = (n: number) => String(n).padStart(2, '0');
    return `${two(birth.getUTCMonth() + 1)}/${two(birth.getUTCDate())}/${birth.getUTCFullYear()}`;
  }

  const check = (
    body: BodyOf<typeof visitsApi.checkEligibility> | Malformed,
    remoteAddress = randomLoopback(),
  ) => callAs(t.app, visitsApi.checkEligibility, body, undefined, { remoteAddress });

  const visitCount = async () =>
    Number(
      (
        await t.app.db
          .selectFrom('visits')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('says yes to an adult in a covered state, without an account, and stores nothing', async () => {
    const before = await visitCount();
    const response = await check({ category: 'ed', state: 'or', dob: '04/02/1985' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      status: 'SUCCESS',
      message: expect.any(String),
      data: { eligible: true, reason: null, supplement_slug: null, state_closed: false },
    });
    expect(await visitCount()).toBe(before);
  });

  it('gives the same answer to a logged-in customer, and opens no visit for them', async () => {
    const c = await insertCustomer(t.app);
    const response = await callAs(
      t.app,
      visitsApi.checkEligibility,
      { category: 'hair', state: 'CA', dob: '04/02/1985' },
      c.cookie,
    );
    expect(response.json()).toMatchObject({ data: { eligible: true } });
    const pending = await callAs(t.app, visitsApi.pendingOrders, { leads_id: c.leadsId }, c.cookie);
    expect(pending.json()).toMatchObject({ data: [] });
  });

  it('explains a state the service does not offer, and offers the supplement where one fits', async () => {
    const response = await check({ category: 'sleep', state: 'OH', dob: '04/02/1985' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      data: {
        eligible: false,
        reason: expect.stringContaining(
          "We're not yet able to offer online visits to people living in Ohio.",
        ),
        supplement_slug: 'sleep-gummies',
        // The state is the reason: its waitlist is offered to the visitor (issue 29).
        state_closed: true,
      },
    });
  });

  it('explains an offered state nobody is licensed in, without promising a provider', async () => {
    const response = await check({ category: 'ed', state: 'AZ', dob: '04/02/1985' });
    expect(response.json()).toMatchObject({
      data: {
        eligible: false,
        reason: expect.stringContaining('none is available there at the moment'),
        supplement_slug: null,
        state_closed: true,
      },
    });
  });

  it('turns away the too young and the too old with the reason, the day they turn 19 included', async () => {
    const young = await check({ category: 'ed', state: 'OR', dob: bornYearsAgo(19, 1) });
    expect(young.statusCode).toBe(200);
    expect(young.json()).toMatchObject({
      data: {
        eligible: false,
        reason: 'Minimum age is 19. Online visits are for adults aged 19 to 99.',
      },
    });
    const nineteen = await check({ category: 'ed', state: 'OR', dob: bornYearsAgo(19) });
    expect(nineteen.json()).toMatchObject({ data: { eligible: true } });
    const old = await check({ category: 'ed', state: 'OR', dob: bornYearsAgo(101) });
    expect(old.json()).toMatchObject({
      data: {
        eligible: false,
        reason: 'Maximum age is 99. Online visits are for adults aged 19 to 99.',
      },
    });
  });

  it('answers bad input with a clear 400 on the field, never a 500', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ category: 'ed', state: 'OR' }, 'dob', 'You must enter a date of birth.'],
      [{ category: 'ed', state: 'OR', dob: '4/2/1985' }, 'dob', 'Date format must be MM/DD/YYYY.'],
      [{ category: 'ed', state: 'OR', dob: '02/30/1985' }, 'dob', 'Invalid date'],
      [
        { category: 'ed', state: 'OR', dob: 'x'.repeat(5000) },
        'dob',
        'Date format must be MM/DD/YYYY.',
      ],
      [{ category: 'ed', state: 'ZZ', dob: '04/02/1985' }, 'state', 'Choose the state you live in'],
      [{ category: 'ed', dob: '04/02/1985' }, 'state', 'Choose the state you live in'],
      [{ category: 'ed', state: 7, dob: '04/02/1985' }, 'state', 'Choose the state you live in'],
      [{ category: 'weight', state: 'OR', dob: '04/02/1985' }, 'category', 'Choose a program'],
    ];
    for (const [payload, field, message] of cases) {
      const response = await check(malformed(payload));
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({
        status: 'FAILURE',
        code: 'VALIDATION',
        fields: { [field]: message },
      });
    }
    const extra = await check(
      malformed({ category: 'ed', state: 'OR', dob: '04/02/1985', visit_id: 1 }),
    );
    expect(extra.statusCode).toBe(400);
  });

  it('is limited per client address', async () => {
    const address = randomLoopback();
    const statuses: number[] = [];
    for (let i = 0; i < 62; i++)
      statuses.push(
        (await check({ category: 'ed', state: 'OR', dob: '04/02/1985' }, address)).statusCode,
      );
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(60)).toEqual([429, 429]);
    const other = await check({ category: 'ed', state: 'OR', dob: '04/02/1985' });
    expect(other.statusCode).toBe(200);
  });
});
