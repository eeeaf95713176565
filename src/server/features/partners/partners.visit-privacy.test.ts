import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partnersApi, type PartnerOverview, type PartnerShared } from '#shared/partners.ts';
import { latestQuestionnaire } from '#shared/questionnaires/registry.ts';
import { visitsApi, type ProgramCategory } from '#shared/visits.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { buildPlaceOrder, insertCustomer, type TestCustomer } from '#test/factories.ts';
import { submittedEdVisit, visitCheckoutBody } from '#test/visits.ts';
import { cartApi } from '#shared/cart.ts';
import { offers } from '#shared/catalog.ts';
import { checkoutApi } from '#shared/checkout.ts';
import { togetherApi } from '#shared/partners-together.ts';
import { callAs } from '#test/contract.ts';

/**
 * Issue 26 (decision 016): a partner who controls the other must not be able to watch them open a
 * visit. Everything the inviter of a visit invitation can read stays the same, field for field,
 * while the invitee starts, resumes, submits and abandons visits of the programs they were invited
 * to; only the invitee's own act on the invitation (dismissing it) changes what the inviter sees.
 */

/** The address the invitee's visit ships to, on file already (a visit's checkout keeps it). */
const { phoneNo: samPhone, ...samAddress } = visitCheckoutBody(0).shipping;

describe(`partners: a visit invitation tells its inviter nothing of the partner's visits (${testDialect})`, () => {
  let t: TestApp;
  let alex: TestCustomer;
  let sam: TestCustomer;
  const invitationFor: Partial<Record<ProgramCategory, number>> = {};

  async function overview(c: TestCustomer): Promise<PartnerOverview> {
    const response = await callAs(t.app, partnersApi.overview, {}, c);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: PartnerOverview }>().data;
  }

  /**
   * Every partner call the inviter can make that reads, answered in full: the partner page (the
   * link, invitations sent and received, visit invitations, history), what the partner shares, and
   * gifts and plans (Home's Together card reads the first and the last).
   */
  async function whatAlexSees(): Promise<Record<string, unknown>> {
    const seen: Record<string, unknown> = {};
    for (const endpoint of [partnersApi.overview, partnersApi.shared, togetherApi.overview]) {
      const response = await callAs(t.app, endpoint, {}, alex);
      expect(response.statusCode, response.body).toBe(200);
      seen[endpoint.path] = response.json<{ data: unknown }>().data;
    }
    return seen;
  }

  const startProgram = async (category: ProgramCategory) => {
    const response = await callAs(
      t.app,
      visitsApi.startProgram,
      { leads_id: sam.leadsId, new_category: category },
      sam.cookie,
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: { visit_id: number } }>().data.visit_id;
  };

  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
    alex = await insertCustomer(t.app, { first_name: 'Alex', last_name: 'Quinn' });
    sam = await insertCustomer(t.app, { first_name: 'Sam', last_name: 'Rivera' });
    for (const [c, shipping] of [
      [alex, undefined],
      [sam, { ...samAddress, phoneNo: samPhone }],
    ] as const) {
      await callAs(
        t.app,
        cartApi.addProduct,
        { product_id: offers.sleep.quarterly, quantity: 1 },
        c.cookie,
      );
      const placed = await callAs(
        t.app,
        checkoutApi.placeOrder,
        shipping ? buildPlaceOrder({ shipping }) : buildPlaceOrder(),
        c.cookie,
      );
      expect(placed.statusCode, placed.body).toBe(200);
    }
    expect((await callAs(t.app, partnersApi.invite, { email: sam.email }, alex)).statusCode).toBe(
      200,
    );
    const id = (await overview(sam)).received[0]?.invitation_id;
    expect((await callAs(t.app, partnersApi.accept, { invitation_id: id! }, sam)).statusCode).toBe(
      200,
    );
    // Sam shares everything there is to share: the most the inviter could ever read.
    for (const item of ['address', 'orders', 'subscriptions'] as const)
      expect(
        (await callAs(t.app, partnersApi.sharing, { item, shared: true }, sam)).statusCode,
      ).toBe(200);

    // Alex finished an ED and a Sleep visit (a provider decided each) and invites Sam to both.
    for (const [category, status] of [
      ['ed', 'DECLINED'],
      ['sleep', 'APPROVED'],
    ] as const) {
      const questionnaire = latestQuestionnaire(category);
      const at = '2026-11-01T09:30:00.000Z';
      await t.app.db
        .insertInto('visits')
        .values({
          customer_id: alex.customerId,
          category,
          status,
          step: 'checkout',
          questionnaire_id: questionnaire.id,
          questionnaire_version: questionnaire.version,
          current_link_id: null,
          state: 'OR',
          dob: '1990-04-12',
          submitted_at: at,
          created_at: at,
          updated_at: at,
        })
        .execute();
      const sent = await callAs(
        t.app,
        partnersApi.visitInvite,
        { program: category, reveal_started: category === 'sleep' },
        alex,
      );
      expect(sent.statusCode, sent.body).toBe(200);
    }
    for (const r of (await overview(sam)).visit_invitations.received)
      invitationFor[r.program] = r.invitation_id;
    expect(Object.keys(invitationFor).sort()).toEqual(['ed', 'sleep']);
  });
  afterAll(() => t.close());

  it('nothing the inviter reads changes when the partner starts, resumes, submits or abandons a visit', async () => {
    const before = await whatAlexSees();
    expect(
      (before[partnersApi.overview.path] as PartnerOverview).visit_invitations.can_send,
    ).toEqual([
      { program: 'ed', pending: true },
      { program: 'sleep', pending: true },
    ]);
    const shared = before[partnersApi.shared.path] as PartnerShared;
    expect(shared.address).toEqual(samAddress);
    expect(shared.orders).toHaveLength(1);

    const acts: [string, () => Promise<unknown>][] = [
      ['starts an ED visit', () => startProgram('ed')],
      ['resumes it', () => startProgram('ed')],
      // Through eligibility, the questions, photo ID and consent to its checkout: submitted.
      ['submits it', () => submittedEdVisit(t.app, sam)],
      [
        'starts a Sleep visit and abandons it (closed before the questions, under age)',
        async () => {
          const visitId = await startProgram('sleep');
          const closed = await callAs(
            t.app,
            visitsApi.eligibility,
            { visit_id: visitId, state: 'OR', dob: '01/01/2015' },
            sam.cookie,
          );
          expect(closed.json()).toMatchObject({ data: { eligible: false } });
        },
      ],
    ];
    for (const [act, run] of acts) {
      t.clock.advance(60_000);
      await run();
      expect(await whatAlexSees(), `after Sam ${act}`).toEqual(before);
    }

    // The partner's own pages may use their own visits: both invitations did their work for Sam.
    expect((await overview(sam)).visit_invitations.received).toEqual([]);
  });

  it("only the invitee's own act on the invitation changes what the inviter sees", async () => {
    const dismissed = await callAs(
      t.app,
      partnersApi.visitInviteDismiss,
      { invitation_id: invitationFor.ed! },
      sam,
    );
    expect(dismissed.statusCode, dismissed.body).toBe(200);
    expect((await overview(alex)).visit_invitations.can_send).toEqual([
      { program: 'ed', pending: false },
      { program: 'sleep', pending: true },
    ]);
  });
});
