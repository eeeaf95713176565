import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStaff } from '#server/db/seed-demo.ts';
import { operationsApi } from '#shared/operations.ts';
import { reviewsApi } from '#shared/reviews.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs, dataOf } from '#test/contract.ts';
import { insertCustomer, staffCookie } from '#test/factories.ts';
import { approveWithPrescription, setLicensedStates, submittedEdVisit } from '#test/visits.ts';
import { createStaff } from './staff.service.ts';

const provider = demoStaff.find((s) => s.role === 'provider')!;
const operations = demoStaff.find((s) => s.role === 'operations')!;
const DAY_MS = 86_400_000;

/** Issue 29: prescribers are credentialed; an expired licence counts for nothing. */
describe(`provider licences (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
  });
  afterAll(() => t.close());

  const day = (offset: number) =>
    new Date(t.clock.now().getTime() + offset * DAY_MS).toISOString().slice(0, 10);

  it('refuses an NPI whose check digit is wrong', async () => {
    await expect(
      createStaff(t.app.ctx, {
        email: 'bad-npi@pairwell.test',
        name: 'Dr. Wrong Digit',
        role: 'provider',
        passwordHash: 'no-log-in',
        totpSecret: 'JBSWY3DPEHPK3PXP',
        npi: '1234567890',
      }),
    ).rejects.toThrow('1234567890 is not an NPI');
    expect(
      await t.app.db
        .selectFrom('staff_users')
        .select('id')
        .where('email', '=', 'bad-npi@pairwell.test')
        .execute(),
    ).toEqual([]);
  });

  it('a licence that expired yesterday: no chart, no queue, no new visits, the approval refused with why, and the state uncovered', async () => {
    const c = await insertCustomer(t.app);
    const { visitId } = await submittedEdVisit(t.app, c, 'OR');
    const everywhere = ['CA', 'FL', 'NY', 'OR', 'TX', 'WA'];
    await setLicensedStates(t.app, provider.email, ['OR'], day(-1));
    try {
      const cookie = await staffCookie(t, provider);
      const queue = dataOf(reviewsApi.queue, await callAs(t.app, reviewsApi.queue, {}, cookie));
      expect(queue.visits.map((v) => v.visit_id)).not.toContain(visitId);
      expect(
        (await callAs(t.app, reviewsApi.chart, { visit_id: visitId }, cookie)).statusCode,
      ).toBe(404);
      const approve = await approveWithPrescription(t.app, cookie, visitId, { validDays: 90 });
      expect(approve.statusCode, approve.body).toBe(403);
      expect(approve.json()).toMatchObject({
        code: 'LICENCE_EXPIRED',
        message: expect.stringMatching(
          /^Your Oregon licence \(OR-TEST-1\) expired on \d{2}\/\d{2}\/\d{4}, so you cannot prescribe there\./,
        ),
      });
      expect(
        await t.app.db
          .selectFrom('visits')
          .select('status')
          .where('id', '=', visitId)
          .executeTakeFirstOrThrow(),
      ).toEqual({ status: 'PENDING_REVIEW' });

      // Nobody holds a valid Oregon licence now: the state is not covered.
      const ops = await staffCookie(t, operations);
      const coverage = dataOf(
        operationsApi.coverage,
        await callAs(t.app, operationsApi.coverage, {}, ops),
      );
      expect(coverage.states.find((s) => s.state === 'OR')).toEqual({ state: 'OR', providers: 0 });
    } finally {
      await setLicensedStates(t.app, provider.email, everywhere);
    }
  });

  it('a licence is valid through its last day; operations see those ending within 60 days, soonest first', async () => {
    await setLicensedStates(t.app, provider.email, ['OR'], day(0));
    await createStaff(t.app.ctx, {
      email: 'dr-ruiz@pairwell.test',
      name: 'Dr. Ana Ruiz, MD',
      role: 'provider',
      passwordHash: 'no-log-in',
      totpSecret: 'JBSWY3DPEHPK3PXP',
      npi: '1245319599',
      licences: [
        { state: 'WA', number: 'WA-MD-771', expiresOn: day(59) },
        { state: 'CA', number: 'CA-MD-112', expiresOn: day(61) },
      ],
    });
    try {
      const ops = await staffCookie(t, operations);
      const coverage = dataOf(
        operationsApi.coverage,
        await callAs(t.app, operationsApi.coverage, {}, ops),
      );
      expect(coverage.states.find((s) => s.state === 'OR')).toEqual({ state: 'OR', providers: 1 });
      expect(coverage.expiring_licences).toEqual([
        { provider: provider.name, state: 'OR', number: 'OR-TEST-1', expires_on: day(0) },
        { provider: 'Dr. Ana Ruiz, MD', state: 'WA', number: 'WA-MD-771', expires_on: day(59) },
      ]);
      const cookie = await staffCookie(t, provider);
      expect((await callAs(t.app, reviewsApi.queue, {}, cookie)).statusCode).toBe(200);
    } finally {
      await setLicensedStates(t.app, provider.email, ['CA', 'FL', 'NY', 'OR', 'TX', 'WA']);
    }
  });
});
