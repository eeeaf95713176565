import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partnersApi } from '#shared/partners.ts';
import { togetherApi } from '#shared/partners-together.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import {
  acceptGift,
  couple,
  expectNotFound,
  giveGift,
  link,
  subscriptionsOf,
  togetherOf,
} from './partners.test-helpers.ts';

/**
 * An unlink ends every gift and plan between the two at once (decision 018): a running one stops
 * billing, a waiting one closes, neither answers any call again, and a new link starts from none.
 */
describe(`partners: gifts and plans end with the link (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
  });
  afterAll(() => t.close());

  it('after an unlink nothing answers: running gifts end, waiting ones close, both read it in their history', async () => {
    const { alex, sam } = await couple(t);
    const running = await giveGift(t, alex);
    await acceptGift(t, running, sam, 'shipping');
    const waiting = await giveGift(t, alex);
    expect((await callAs(t.app, partnersApi.unlink, { notify: false }, alex)).statusCode).toBe(200);
    for (const who of [alex, sam]) {
      expect((await togetherOf(t, who)).items).toEqual([]);
      for (const together_id of [running.together_id, waiting.together_id]) {
        await expectNotFound(callAs(t.app, togetherApi.cancel, { together_id }, who));
        await expectNotFound(
          callAs(t.app, togetherApi.change, { together_id, change: { action: 'skip' } }, who),
        );
        await expectNotFound(
          callAs(t.app, togetherApi.accept, { together_id, ship_to: 'shipping' }, who),
        );
      }
      const history = await callAs(t.app, partnersApi.overview, {}, who);
      expect(
        history.json<{ data: { history: { kind: string }[] } }>().data.history.map((e) => e.kind),
      ).toContain('gift_ended');
    }
    const statuses = await t.app.db
      .selectFrom('together_items')
      .select(['status', 'subscription_id'])
      .where('id', 'in', [running.together_id, waiting.together_id])
      .orderBy('id')
      .execute();
    expect(statuses).toEqual([
      { status: 'accepted', subscription_id: expect.any(Number) },
      { status: 'closed', subscription_id: null },
    ]);
    // The running gift's subscription ended with the link: on neither person's Subscriptions page.
    for (const who of [alex, sam])
      expect((await subscriptionsOf(t, who)).filter((s) => s.together !== null)).toEqual([]);
    // Linked again later: the old gift does not come back.
    await link(t, sam, alex);
    expect((await togetherOf(t, alex)).items).toEqual([]);
  });
});
