import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offers } from '#shared/catalog.ts';
import { togetherApi, type TogetherItem } from '#shared/partners-together.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import type { TestCustomer } from '#test/factories.ts';
import { couple, expectNotFound, proposePlan, togetherOf } from './partners.test-helpers.ts';

/**
 * Couples' plans (decision 018): two proved people only, one plan at a time, one frequency for
 * both lines; the partner accepts or leaves, and only its owner moves its dates.
 */
describe(`partners: couples' plans, who proposes, accepts and changes them (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
  });
  afterAll(() => t.close());

  it("a couples' plan needs both addresses confirmed: proposing and accepting are refused until they are", async () => {
    const { alex, sam } = await couple(t);
    const setVerified = (c: TestCustomer, at: string | null) =>
      t.app.db
        .updateTable('customers')
        .set({ email_verified_at: at })
        .where('id', '=', c.customerId)
        .execute();
    await setVerified(sam, null);
    const theirs = await proposePlan(t, alex);
    expect(theirs.statusCode).toBe(400);
    expect(theirs.json()).toMatchObject({
      code: 'SUBSCRIPTION_REFUSED',
      message:
        "Sam has not confirmed their email address yet: a couples' plan needs both of you to confirm yours.",
    });
    await setVerified(sam, '2026-11-01T00:00:00.000Z');
    await setVerified(alex, null);
    expect((await proposePlan(t, alex)).json()).toMatchObject({
      code: 'SUBSCRIPTION_REFUSED',
      message:
        "Confirm your email address first: a couples' plan needs both of you to confirm yours. Send the link again from the Partner page.",
    });

    await setVerified(alex, '2026-11-01T00:00:00.000Z');
    const started = await proposePlan(t, alex);
    expect(started.statusCode, started.body).toBe(200);
    const togetherId = started.json<{ data: { item: TogetherItem } }>().data.item.together_id;
    await setVerified(alex, null);
    const accept = await callAs(t.app, togetherApi.accept, { together_id: togetherId }, sam);
    expect(accept.json()).toMatchObject({ code: 'SUBSCRIPTION_REFUSED' });
    expect((await togetherOf(t, sam)).items[0]).toMatchObject({ status: 'pending' });
  });

  it("a couples' plan: the partner accepts or leaves; its owner keeps the dates", async () => {
    const { alex, sam, casey } = await couple(t);
    const mixed = await proposePlan(t, alex, { partner_product_id: offers.biotin.quarterly });
    expect(mixed.json()).toMatchObject({ code: 'SUBSCRIPTION_REFUSED' });
    const started = await proposePlan(t, alex);
    expect(started.statusCode, started.body).toBe(200);
    const plan = started.json<{ data: { item: TogetherItem } }>().data.item;
    expect(plan).toMatchObject({ kind: 'plan', status: 'pending', total_cents: 3150 });
    const again = await proposePlan(t, alex);
    expect(again.json()).toMatchObject({ code: 'SUBSCRIPTION_REFUSED' });
    const { together_id } = plan;
    await expectNotFound(callAs(t.app, togetherApi.accept, { together_id }, casey));
    expect((await callAs(t.app, togetherApi.accept, { together_id }, sam)).statusCode).toBe(200);

    const samView = (await togetherOf(t, sam)).items[0]!;
    expect(samView).toMatchObject({
      role: 'partner',
      status: 'active',
      ships_to_name: 'Alex',
      ships_to: null,
      lines: [
        { for: 'partner', product_name: 'Sleep Gummies', unit_price_cents: 1575 },
        { for: 'you', product_name: 'Immunity Gummies', unit_price_cents: 1575 },
      ],
    });
    expect(samView.actions).toEqual(['cancel']);
    expect(samView.next_date).not.toBeNull();
    const pause = { together_id, change: { action: 'pause', until: '2027-01-10' } } as const;
    const move = await callAs(t.app, togetherApi.change, pause, sam);
    expect(move.json()).toMatchObject({ code: 'SUBSCRIPTION_REFUSED' });
    const paused = await callAs(t.app, togetherApi.change, pause, alex);
    expect(paused.statusCode, paused.body).toBe(200);
    expect((await togetherOf(t, sam)).items[0]).toMatchObject({ status: 'paused' });
    // Sam leaves: the plan ends for both.
    expect((await callAs(t.app, togetherApi.cancel, { together_id }, sam)).statusCode).toBe(200);
    expect((await togetherOf(t, alex)).items).toEqual([]);
  });
});
