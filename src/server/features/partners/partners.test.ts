import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStaff } from '#server/db/seed-demo.ts';
import { startSession } from '#server/features/auth/auth.service.ts';
import { accountsApi, type AccountData } from '#shared/accounts.ts';
import { ordersApi, type Lander } from '#shared/orders.ts';
import {
  partnersApi,
  PARTNER_INVITE_TTL_MS,
  type PartnerOverview,
  type PartnerShared,
  type SharingItem,
} from '#shared/partners.ts';
import { subscriptionsApi, type Subscription } from '#shared/subscriptions.ts';
import { buildSecondInstance, buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import {
  buildPlaceOrder,
  buildSignup,
  insertCustomer,
  randomLoopback,
  sessionCookie,
  staffCookie,
  type TestCustomer,
} from '#test/factories.ts';
import { sentMessages } from '#test/outbox.ts';
import { submittedEdVisit } from '#test/visits.ts';
import { cartApi } from '#shared/cart.ts';
import { checkoutApi } from '#shared/checkout.ts';
import { reviewsApi } from '#shared/reviews.ts';
import { messagesApi } from '#shared/messages.ts';
import { operationsApi } from '#shared/operations.ts';
import { callAs } from '#test/contract.ts';
import { offers } from '#shared/catalog.ts';

const provider = demoStaff.find((s) => s.role === 'provider')!;

describe(`partners: linking and sharing (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
  });
  afterAll(() => t.close());

  async function overview(c: TestCustomer, inviteToken?: string): Promise<PartnerOverview> {
    const response = await callAs(
      t.app,
      partnersApi.overview,
      inviteToken ? { invite_token: inviteToken } : {},
      c,
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: PartnerOverview }>().data;
  }

  async function shared(c: TestCustomer, app: FastifyInstance = t.app): Promise<PartnerShared> {
    const response = await callAs(app, partnersApi.shared, {}, c);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: PartnerShared }>().data;
  }

  async function invite(from: TestCustomer, email: string): Promise<number> {
    const response = await callAs(t.app, partnersApi.invite, { email }, from);
    expect(response.statusCode, response.body).toBe(200);
    const sent = (await overview(from)).sent;
    expect(sent).toMatchObject({ email: email.toLowerCase(), status: 'pending' });
    return sent!.invitation_id;
  }

  async function link(a: TestCustomer, b: TestCustomer): Promise<void> {
    const id = await invite(a, b.email);
    const accepted = await callAs(t.app, partnersApi.accept, { invitation_id: id }, b);
    expect(accepted.statusCode, accepted.body).toBe(200);
  }

  const share = (c: TestCustomer, item: SharingItem, on: boolean) =>
    callAs(t.app, partnersApi.sharing, { item, shared: on }, c);

  const nothing: PartnerShared = {
    partner: null,
    address: null,
    orders: null,
    subscriptions: null,
  };

  /** The last email to `to` about partners, once the outbox has sent what was due. */
  async function mailTo(to: string) {
    return (await sentMessages(t)).filter((m) => m.to === to && /partner|link/i.test(m.subject));
  }

  it('invites an existing customer by email: they see it, accept, and both are linked sharing nothing', async () => {
    const sam = await insertCustomer(t.app, { first_name: 'Sam', last_name: 'Rivera' });
    const alex = await insertCustomer(t.app, { first_name: 'Alex', last_name: 'Quinn' });
    await invite(sam, alex.email.toUpperCase());

    const [email] = await mailTo(alex.email);
    expect(email?.subject).toBe('Sam invited you to link accounts on Pairwell');
    // First name only, an absolute link to the partner page with the token, nothing clinical.
    expect(email?.text).not.toContain('Rivera');
    expect(email?.text).toMatch(/http:\/\/[^\s]+\/accounts\/partner\?invite=[\w-]{43}/);
    expect(await t.app.db.selectFrom('partner_invitations').select('token_hash').execute()).toEqual(
      expect.arrayContaining([{ token_hash: expect.stringMatching(/^[0-9a-f]{64}$/) }]),
    );

    const waiting = await overview(alex);
    expect(waiting.received).toEqual([
      expect.objectContaining({ from_first_name: 'Sam', invitation_id: expect.any(Number) }),
    ]);
    const accepted = await callAs(
      t.app,
      partnersApi.accept,
      { invitation_id: waiting.received[0]!.invitation_id },
      alex,
    );
    expect(accepted.statusCode, accepted.body).toBe(200);

    const samView = await overview(sam);
    expect(samView.partner).toMatchObject({
      first_name: 'Alex',
      shares_with_you: { address: false, orders: false, subscriptions: false },
    });
    expect(samView.sent).toBeNull();
    expect(samView.history.map((e) => e.kind)).toEqual(['linked', 'invited']);
    expect((await overview(alex)).partner?.first_name).toBe('Sam');
    expect(await shared(alex)).toEqual({
      partner: { first_name: 'Sam' },
      address: null,
      orders: null,
      subscriptions: null,
    });
  });

  it('lets a new person sign up from the invitation link with another email and accept with its token', async () => {
    const jo = await insertCustomer(t.app, { first_name: 'Jo' });
    const invited = `new-${Date.now()}@example.test`;
    await invite(jo, invited);
    const [email] = await mailTo(invited);
    const token = /\/signup\?partnerInvite=([\w-]{43})/.exec(email?.text ?? '')?.[1];
    expect(token).toBeDefined();

    // They sign up under another address: the invitation is theirs by the link they hold.
    const signup = await callAs(
      t.app,
      accountsApi.accountCreate,
      buildSignup({ first_name: 'Kit' }),
      undefined,
      { remoteAddress: randomLoopback() },
    );
    const kit: TestCustomer = {
      cookie: sessionCookie(signup),
      leadsId: '',
      customerId: 0,
      email: '',
      password: '',
    };
    expect((await overview(kit)).received).toEqual([]);
    const seen = await overview(kit, token);
    expect(seen.received).toHaveLength(1);
    const id = seen.received[0]!.invitation_id;

    const withoutToken = await callAs(t.app, partnersApi.accept, { invitation_id: id }, kit);
    expect(withoutToken.statusCode).toBe(404);
    const accepted = await callAs(
      t.app,
      partnersApi.accept,
      { invitation_id: id, invite_token: token },
      kit,
    );
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect((await overview(jo)).partner?.first_name).toBe('Kit');
  });

  it('declines: the inviter sees "declined", and the invitation cannot be answered again', async () => {
    const a = await insertCustomer(t.app, { first_name: 'Ana' });
    const b = await insertCustomer(t.app, { first_name: 'Ben' });
    const id = await invite(a, b.email);
    const declined = await callAs(t.app, partnersApi.decline, { invitation_id: id }, b);
    expect(declined.statusCode, declined.body).toBe(200);
    expect((await overview(a)).sent).toMatchObject({ status: 'declined', email: b.email });
    expect((await overview(a)).history[0]).toMatchObject({
      kind: 'invitation_declined',
      counterpart: b.email,
    });
    expect((await overview(b)).received).toEqual([]);
    const again = await callAs(t.app, partnersApi.accept, { invitation_id: id }, b);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'INVITATION_CLOSED' });
  });

  it(`expires after ${PARTNER_INVITE_TTL_MS / 86_400_000} days: the inviter sees "expired" and it cannot be accepted`, async () => {
    const a = await insertCustomer(t.app, { first_name: 'Cleo' });
    const b = await insertCustomer(t.app, { first_name: 'Dev' });
    const id = await invite(a, b.email);
    t.clock.advance(PARTNER_INVITE_TTL_MS - 1000);
    // Two weeks on, both log in again (sessions do not last that long).
    for (const c of [a, b]) c.cookie = await freshSession(c);
    expect((await overview(b)).received).toHaveLength(1);
    t.clock.advance(1000);
    expect((await overview(a)).sent).toMatchObject({ status: 'expired' });
    expect((await overview(b)).received).toEqual([]);
    const late = await callAs(t.app, partnersApi.accept, { invitation_id: id }, b);
    expect(late.statusCode).toBe(409);
    expect(late.json<{ message: string }>().message).toMatch(/expired/);
    expect((await overview(b)).partner).toBeNull();
  });

  it('withdraws a pending invitation: it is gone for the invitee; only the inviter can withdraw it', async () => {
    const a = await insertCustomer(t.app, { first_name: 'Eli' });
    const b = await insertCustomer(t.app, { first_name: 'Fay' });
    const stranger = await insertCustomer(t.app);
    const id = await invite(a, b.email);

    // Someone else's invitation answers exactly as one that does not exist.
    for (const endpoint of [partnersApi.withdraw, partnersApi.accept, partnersApi.decline]) {
      const theirs = await callAs(t.app, endpoint, { invitation_id: id }, stranger);
      const ghost = await callAs(t.app, endpoint, { invitation_id: 987_654_321 }, stranger);
      expect(theirs.statusCode).toBe(404);
      const { requestId: _a, ...body } = theirs.json<Record<string, unknown>>();
      const { requestId: _b, ...ghostBody } = ghost.json<Record<string, unknown>>();
      expect(body).toEqual(ghostBody);
    }

    const withdrawn = await callAs(t.app, partnersApi.withdraw, { invitation_id: id }, a);
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect((await overview(a)).sent).toBeNull();
    expect((await overview(b)).received).toEqual([]);
    const accept = await callAs(t.app, partnersApi.accept, { invitation_id: id }, b);
    expect(accept.statusCode).toBe(409);
    expect((await overview(b)).partner).toBeNull();
  });

  it('refuses to invite or accept while linked, and refuses inviting oneself', async () => {
    const a = await insertCustomer(t.app, { first_name: 'Gus' });
    const b = await insertCustomer(t.app, { first_name: 'Hana' });
    const c = await insertCustomer(t.app, { first_name: 'Ivo' });
    const self = await callAs(t.app, partnersApi.invite, { email: a.email }, a);
    expect(self.statusCode).toBe(400);
    expect(self.json()).toMatchObject({
      code: 'VALIDATION',
      fields: { email: expect.any(String) },
    });

    await invite(c, a.email);
    await link(a, b);
    const more = await callAs(t.app, partnersApi.invite, { email: c.email }, a);
    expect(more.statusCode).toBe(409);
    expect(more.json()).toMatchObject({ code: 'PARTNER_LINKED' });
    // One sent after the link (the earlier one closed with it) cannot link a second partner.
    const late = await invite(c, a.email);
    const second = await callAs(t.app, partnersApi.accept, { invitation_id: late }, a);
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ code: 'PARTNER_LINKED' });
  });

  it('a link closes every other invitation either partner sent or received, and tells their inviters nothing', async () => {
    const a = await insertCustomer(t.app, { first_name: 'Abe' });
    const b = await insertCustomer(t.app, { first_name: 'Bea' });
    const c = await insertCustomer(t.app, { first_name: 'Cal' });
    const d = await insertCustomer(t.app, { first_name: 'Dot' });
    const e = await insertCustomer(t.app, { first_name: 'Eve' });
    const aToC = await invite(a, c.email);
    const bToC = await invite(b, c.email);
    const cToD = await invite(c, d.email);
    const eToA = await invite(e, a.email);
    expect((await overview(c)).received.map((r) => r.invitation_id).sort()).toEqual(
      [aToC, bToC].sort(),
    );
    const bBefore = await overview(b);

    const accepted = await callAs(t.app, partnersApi.accept, { invitation_id: aToC }, c);
    expect(accepted.statusCode, accepted.body).toBe(200);

    // B's invitation to C, and E's to A, can no longer be accepted; C's to D neither.
    expect((await overview(c)).received).toEqual([]);
    expect((await overview(a)).received).toEqual([]);
    expect((await overview(d)).received).toEqual([]);
    for (const [id, who] of [
      [bToC, c],
      [eToA, a],
      [cToD, d],
    ] as const) {
      const late = await callAs(t.app, partnersApi.accept, { invitation_id: id }, who);
      expect(late.statusCode, late.body).toBe(409);
      expect(late.json()).toMatchObject({
        code: 'INVITATION_CLOSED',
        message: 'This invitation is no longer open.',
      });
    }
    const rows = await t.app.db
      .selectFrom('partner_invitations')
      .select(['id', 'status'])
      .where('id', 'in', [bToC, cToD, eToA])
      .orderBy('id')
      .execute();
    expect(rows.every((r) => r.status !== 'pending')).toBe(true);

    // B is not told C linked with someone: their page reads as before, and they withdraw as ever.
    expect(await overview(b)).toEqual(bBefore);
    const withdrawn = await callAs(t.app, partnersApi.withdraw, { invitation_id: bToC }, b);
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect((await overview(b)).sent).toBeNull();
    expect((await overview(b)).history[0]).toMatchObject({
      kind: 'invitation_withdrawn',
      counterpart: c.email,
    });
  });

  it('links at most one partner when two invitations to the same person are accepted at once', async () => {
    const target = await insertCustomer(t.app, { first_name: 'Jas' });
    const b = await insertCustomer(t.app, { first_name: 'Kai' });
    const c = await insertCustomer(t.app, { first_name: 'Lux' });
    const fromB = await invite(b, target.email);
    const fromC = await invite(c, target.email);

    const answers = await Promise.all([
      callAs(t.app, partnersApi.accept, { invitation_id: fromB }, target),
      callAs(t.app, partnersApi.accept, { invitation_id: fromC }, target),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const links = await t.app.db
      .selectFrom('partner_links')
      .select(['customer_id', 'partner_id'])
      .where((eb) =>
        eb.or([
          eb('customer_id', 'in', [target.customerId, b.customerId, c.customerId]),
          eb('partner_id', 'in', [target.customerId, b.customerId, c.customerId]),
        ]),
      )
      .execute();
    expect(links).toHaveLength(2);
  });

  it('links at most one partner when two people accept invitations that share a third at once', async () => {
    for (let round = 0; round < 3; round++) {
      const hub = await insertCustomer(t.app, { first_name: 'Mo' });
      const r = await insertCustomer(t.app, { first_name: 'Nia' });
      const s = await insertCustomer(t.app, { first_name: 'Oz' });
      const hubToR = await invite(hub, r.email);
      const sToHub = await invite(s, hub.email);
      const answers = await Promise.all([
        callAs(t.app, partnersApi.accept, { invitation_id: hubToR }, r),
        callAs(t.app, partnersApi.accept, { invitation_id: sToHub }, hub),
      ]);
      expect(answers.map((x) => x.statusCode).sort(), answers.map((x) => x.body).join()).toEqual([
        200, 409,
      ]);
      const hubLinks = await t.app.db
        .selectFrom('partner_links')
        .select('customer_id')
        .where((eb) =>
          eb.or([eb('customer_id', '=', hub.customerId), eb('partner_id', '=', hub.customerId)]),
        )
        .execute();
      expect(hubLinks).toHaveLength(2);
    }
  });

  describe('sharing, item by item', () => {
    let owner: TestCustomer;
    let partner: TestCustomer;
    let storeOrders: string[];
    let storeOrderId: number;
    let visitOrder: string;
    let visitId: number;
    let uploadKey: string;

    beforeAll(async () => {
      owner = await insertCustomer(t.app, {
        first_name: 'Pat',
        last_name: 'Sharer',
        phoneNo: '(503) 555-0188',
        dob: '07/21/1988',
      });
      partner = await insertCustomer(t.app, { first_name: 'Quin' });

      // A supplement bought quarterly (a store order and a supplement subscription)…
      await callAs(
        t.app,
        cartApi.addProduct,
        { product_id: offers.sleep.quarterly, quantity: 1 },
        owner.cookie,
      );
      const placed = await callAs(t.app, checkoutApi.placeOrder, buildPlaceOrder(), owner.cookie);
      expect(placed.statusCode, placed.body).toBe(200);
      // …an online visit, approved (a prescription and its refill plan), with its photo ID…
      const visit = await submittedEdVisit(t.app, owner);
      visitOrder = visit.orderNumber;
      visitId = visit.visitId;
      const approved = await callAs(
        t.app,
        reviewsApi.approve,
        {
          visit_id: visit.visitId,
          prescription: {
            drug: 'sildenafil',
            dosage: '50mg',
            quantity: 6,
            refills: 2,
            valid_until: new Date(t.clock.now().getTime() + 180 * 86_400_000)
              .toISOString()
              .slice(0, 10),
            directions: 'Take one tablet about an hour before, no more than once a day.',
          },
        },
        await staffCookie(t, provider),
      );
      expect(approved.statusCode, approved.body).toBe(200);
      // …and a question for the care team.
      const asked = await callAs(
        t.app,
        messagesApi.send,
        {
          leads_id: owner.leadsId,
          subject: 'Side effects',
          topic: 'treatment',
          body: 'A private question about my treatment.',
        },
        owner.cookie,
      );
      expect(asked.statusCode, asked.body).toBe(200);

      // What the owner has, as the orders and subscriptions features answer the owner.
      const history = await callAs(
        t.app,
        ordersApi.ordersDetails,
        { leads_id: owner.leadsId, limit: 50 },
        owner.cookie,
      );
      expect(history.statusCode, history.body).toBe(200);
      const orders = Object.values(history.json<{ message: Lander }>().message.order_history);
      const store = orders.filter((o) => o.order_kind === 'store');
      storeOrders = store.map((o) => o.order_number);
      storeOrderId = store[0]?.orders_id ?? 0;
      expect(orders.some((o) => o.order_kind === 'visit')).toBe(true);
      const upload = await t.app.db
        .selectFrom('uploads')
        .select('public_id')
        .where('customer_id', '=', owner.customerId)
        .executeTakeFirstOrThrow();
      uploadKey = upload.public_id ?? '';
      const listed = await callAs(
        t.app,
        subscriptionsApi.subscriptions,
        { leads_id: owner.leadsId },
        owner.cookie,
      );
      expect(listed.statusCode, listed.body).toBe(200);
      const plans = listed.json<{ data: { subscriptions: Subscription[] } }>().data.subscriptions;
      expect(plans.some((p) => p.refill !== null)).toBe(true);
      expect(plans.some((p) => p.product_id !== null)).toBe(true);

      await link(owner, partner);
    });

    it('operations see the link by first name and customer id on an order; providers see nothing of the partner', async () => {
      const ops = demoStaff.find((s) => s.role === 'operations')!;
      const detail = await callAs(
        t.app,
        operationsApi.order,
        { order_id: storeOrderId },
        await staffCookie(t, ops),
      );
      expect(detail.statusCode, detail.body).toBe(200);
      expect(detail.json<{ data: { order: { partner: unknown } } }>().data.order.partner).toEqual({
        first_name: 'Quin',
        customer_id: partner.customerId,
      });
      expect(detail.body).not.toContain(partner.email);

      const chart = await callAs(
        t.app,
        reviewsApi.chart,
        { visit_id: visitId },
        await staffCookie(t, provider),
      );
      expect(chart.statusCode, chart.body).toBe(200);
      expect(chart.body).not.toContain('Quin');
      expect(chart.body).not.toContain(partner.email);
    });

    it('shares nothing by default', async () => {
      expect(await shared(partner)).toEqual({ ...nothing, partner: { first_name: 'Pat' } });
    });

    it('the address switch shows the shipping address and nothing else', async () => {
      expect((await share(owner, 'address', true)).statusCode).toBe(200);
      const account = await callAs(
        t.app,
        accountsApi.accountData,
        { leads_id: owner.leadsId },
        owner.cookie,
      );
      const { country, ...onFile } = account.json<{ data: AccountData }>().data.shipping ?? {};
      // The partner sees the street, city, state and ZIP on file; not even the country.
      expect(country).toBe('US');
      expect(await shared(partner)).toEqual({
        partner: { first_name: 'Pat' },
        address: onFile,
        orders: null,
        subscriptions: null,
      });
      expect((await share(owner, 'address', false)).statusCode).toBe(200);
      expect((await shared(partner)).address).toBeNull();
    });

    it('the orders switch shows store orders with status and tracking, never a visit order', async () => {
      await share(owner, 'orders', true);
      const view = await shared(partner);
      expect(view.address).toBeNull();
      expect(view.subscriptions).toBeNull();
      expect(view.orders?.map((o) => o.order_number).sort()).toEqual([...storeOrders].sort());
      expect(view.orders?.map((o) => o.order_number)).not.toContain(visitOrder);
      expect(view.orders?.[0]).toMatchObject({
        status: 'PROCESSING',
        tracking_number: null,
        items: [{ product_name: 'Sleep Gummies', quantity: 1 }],
      });
      await share(owner, 'orders', false);
      expect((await shared(partner)).orders).toBeNull();
    });

    it('the subscriptions switch shows supplement subscriptions, never a refill plan', async () => {
      await share(owner, 'subscriptions', true);
      const view = await shared(partner);
      expect(view.address).toBeNull();
      expect(view.orders).toBeNull();
      expect(view.subscriptions).toEqual([
        {
          product_name: 'Sleep Gummies',
          frequency: 'QUARTERLY',
          // What arrives: three bottles every quarter (spec §3), not the one unit bought.
          bottles: 3,
          status: 'ACTIVE',
          next_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        },
      ]);
      await share(owner, 'subscriptions', false);
    });

    it('never returns a visit, answer, prescription, provider message, photo ID or contact detail, all switches on', async () => {
      for (const item of ['address', 'orders', 'subscriptions'] as const)
        expect((await share(owner, item, true)).statusCode).toBe(200);
      const body = (await callAs(t.app, partnersApi.shared, {}, partner)).body;
      for (const secret of [
        visitOrder,
        uploadKey,
        'sildenafil',
        'Take one tablet',
        'A private question',
        'Side effects',
        owner.email,
        owner.leadsId,
        '5035550188',
        '1988',
        'Sharer',
        '4242',
        'visit',
        'prescription',
      ])
        expect(body).not.toContain(secret);
      // The owner's own view of the partner says what they chose, in their history.
      const history = (await overview(owner)).history.filter((e) => e.kind.startsWith('sharing'));
      expect(history.length).toBeGreaterThanOrEqual(3);
      for (const item of ['address', 'orders', 'subscriptions'] as const)
        expect((await share(owner, item, false)).statusCode).toBe(200);
    });
  });

  it('a quiet unlink sends no email, and the next call from either partner, on any instance, sees nothing', async () => {
    const a = await insertCustomer(t.app, { first_name: 'Rae' });
    const b = await insertCustomer(t.app, { first_name: 'Sol' });
    await insertAddress(a);
    await link(a, b);
    await share(a, 'address', true);
    await share(b, 'address', true);
    expect((await shared(b)).address).not.toBeNull();
    const second = await buildSecondInstance(t);
    try {
      expect((await shared(b, second)).address).not.toBeNull();
      const before = (await sentMessages(t)).length;
      const unlinked = await callAs(t.app, partnersApi.unlink, { notify: false }, a);
      expect(unlinked.statusCode, unlinked.body).toBe(200);
      expect(await shared(b, second)).toEqual(nothing);
      expect(await shared(a)).toEqual(nothing);
      expect((await sentMessages(t)).length).toBe(before);
      expect((await overview(b)).partner).toBeNull();
      expect((await overview(b)).history[0]).toMatchObject({ kind: 'link_ended' });
      expect((await overview(a)).history[0]).toMatchObject({ kind: 'unlinked', quiet: true });
    } finally {
      await second.close();
    }

    // A new link starts from nothing.
    await link(b, a);
    expect((await overview(a)).you_share).toEqual({
      address: false,
      orders: false,
      subscriptions: false,
    });
    expect((await shared(b)).address).toBeNull();
  });

  it('an unlink with notice sends the other a short email that the link ended', async () => {
    const a = await insertCustomer(t.app, { first_name: 'Tam' });
    const b = await insertCustomer(t.app, { first_name: 'Uma' });
    await link(a, b);
    const unlinked = await callAs(t.app, partnersApi.unlink, { notify: true }, b);
    expect(unlinked.statusCode, unlinked.body).toBe(200);
    const ended = (await mailTo(a.email)).filter((m) => /ended/.test(m.subject));
    expect(ended).toHaveLength(1);
    expect(ended[0]?.text).toMatch(/http:\/\/[^\s]+\/accounts\/partner/);
    const again = await callAs(t.app, partnersApi.unlink, { notify: true }, b);
    expect(again.statusCode).toBe(404);
    const sharing = await share(a, 'address', true);
    expect(sharing.statusCode).toBe(404);
  });

  async function freshSession(c: TestCustomer): Promise<string> {
    const { token } = await startSession(t.app.ctx, c.customerId, {
      userAgent: 'partners test',
      ip: '127.0.0.1',
    });
    return `pw_session=${token}`;
  }

  async function insertAddress(c: TestCustomer): Promise<void> {
    const saved = await callAs(
      t.app,
      accountsApi.address,
      {
        leads_id: c.leadsId,
        address: '12 Elm St',
        address2: '',
        city: 'Portland',
        state: 'OR',
        zip: '97204',
        billing_address: '12 Elm St',
        billing_address2: '',
        billing_city: 'Portland',
        billing_state: 'OR',
        billing_zip: '97204',
        phoneNo: '5035550177',
        smsallow: 0,
      },
      c.cookie,
    );
    expect(saved.statusCode, saved.body).toBe(200);
  }
});
