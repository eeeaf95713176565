import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSession } from '#server/features/auth/auth.service.ts';
import { accountsApi } from '#shared/accounts.ts';
import { partnersApi, PARTNER_INVITE_TTL_MS } from '#shared/partners.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs, dataAs } from '#test/contract.ts';
import {
  buildSignup,
  insertCustomer,
  randomLoopback,
  sessionCookie,
  type TestCustomer,
} from '#test/factories.ts';
import {
  acceptInvitation,
  invite,
  link,
  partnerMailTo,
  partnerPage,
} from './partners.test-helpers.ts';

/**
 * Issue 16 (decision 016): one partner at a time, by invitation. An invitation is emailed, seen,
 * accepted, declined, withdrawn or left to expire; a link closes every other invitation either
 * person has, and however many accepts race, nobody ends up with two partners.
 */
describe(`partners: invitations and the link (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  /** A new session for the customer, as logging in again gives them. */
  async function freshSession(c: TestCustomer): Promise<string> {
    const { token } = await startSession(t.app.ctx, c.customerId, {
      userAgent: 'partners test',
      ip: '127.0.0.1',
    });
    return `pw_session=${token}`;
  }

  it('invites an existing customer by email: they see it, accept, and both are linked sharing nothing', async () => {
    const sam = await insertCustomer(t.app, { first_name: 'Sam', last_name: 'Rivera' });
    const alex = await insertCustomer(t.app, { first_name: 'Alex', last_name: 'Quinn' });
    await invite(t, sam, alex.email.toUpperCase());

    const [email] = await partnerMailTo(t, alex.email);
    expect(email?.subject).toBe('Sam invited you to link accounts on Pairwell');
    // First name only, an absolute link to the partner page with the token, nothing clinical.
    expect(email?.text).not.toContain('Rivera');
    expect(email?.text).toMatch(/http:\/\/[^\s]+\/accounts\/partner\?invite=[\w-]{43}/);
    expect(await t.app.db.selectFrom('partner_invitations').select('token_hash').execute()).toEqual(
      expect.arrayContaining([{ token_hash: expect.stringMatching(/^[0-9a-f]{64}$/) }]),
    );

    const waiting = await partnerPage(t, alex);
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

    const samView = await partnerPage(t, sam);
    expect(samView.partner).toMatchObject({
      first_name: 'Alex',
      shares_with_you: { address: false, orders: false, subscriptions: false },
    });
    expect(samView.sent).toBeNull();
    expect(samView.history.map((e) => e.kind)).toEqual(['linked', 'invited']);
    expect((await partnerPage(t, alex)).partner?.first_name).toBe('Sam');
    expect(await dataAs(t.app, partnersApi.shared, {}, alex)).toEqual({
      partner: { first_name: 'Sam' },
      address: null,
      orders: null,
      subscriptions: null,
    });
  });

  it('lets a new person sign up from the invitation link with another email and accept with its token', async () => {
    const jo = await insertCustomer(t.app, { first_name: 'Jo' });
    const invited = `new-${Date.now()}@example.test`;
    await invite(t, jo, invited);
    const [email] = await partnerMailTo(t, invited);
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
    expect((await partnerPage(t, kit)).received).toEqual([]);
    const seen = await partnerPage(t, kit, token);
    expect(seen.received).toHaveLength(1);
    const id = seen.received[0]!.invitation_id;

    const withoutToken = await callAs(t.app, partnersApi.accept, { invitation_id: id }, kit);
    expect(withoutToken.statusCode).toBe(404);
    await acceptInvitation(t, kit, id, token);
    expect((await partnerPage(t, jo)).partner?.first_name).toBe('Kit');
  });

  it('declines: the inviter sees "declined", and the invitation cannot be answered again', async () => {
    const a = await insertCustomer(t.app, { first_name: 'Ana' });
    const b = await insertCustomer(t.app, { first_name: 'Ben' });
    const id = await invite(t, a, b.email);
    const declined = await callAs(t.app, partnersApi.decline, { invitation_id: id }, b);
    expect(declined.statusCode, declined.body).toBe(200);
    expect((await partnerPage(t, a)).sent).toMatchObject({ status: 'declined', email: b.email });
    expect((await partnerPage(t, a)).history[0]).toMatchObject({
      kind: 'invitation_declined',
      counterpart: b.email,
    });
    expect((await partnerPage(t, b)).received).toEqual([]);
    const again = await callAs(t.app, partnersApi.accept, { invitation_id: id }, b);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'INVITATION_CLOSED' });
  });

  it(`expires after ${PARTNER_INVITE_TTL_MS / 86_400_000} days: the inviter sees "expired" and it cannot be accepted`, async () => {
    const a = await insertCustomer(t.app, { first_name: 'Cleo' });
    const b = await insertCustomer(t.app, { first_name: 'Dev' });
    const id = await invite(t, a, b.email);
    t.clock.advance(PARTNER_INVITE_TTL_MS - 1000);
    // Two weeks on, both log in again (sessions do not last that long).
    for (const c of [a, b]) c.cookie = await freshSession(c);
    expect((await partnerPage(t, b)).received).toHaveLength(1);
    t.clock.advance(1000);
    expect((await partnerPage(t, a)).sent).toMatchObject({ status: 'expired' });
    expect((await partnerPage(t, b)).received).toEqual([]);
    const late = await callAs(t.app, partnersApi.accept, { invitation_id: id }, b);
    expect(late.statusCode).toBe(409);
    expect(late.json<{ message: string }>().message).toMatch(/expired/);
    expect((await partnerPage(t, b)).partner).toBeNull();
  });

  it('withdraws a pending invitation: it is gone for the invitee; only the inviter can withdraw it', async () => {
    const a = await insertCustomer(t.app, { first_name: 'Eli' });
    const b = await insertCustomer(t.app, { first_name: 'Fay' });
    const stranger = await insertCustomer(t.app);
    const id = await invite(t, a, b.email);

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
    expect((await partnerPage(t, a)).sent).toBeNull();
    expect((await partnerPage(t, b)).received).toEqual([]);
    const accept = await callAs(t.app, partnersApi.accept, { invitation_id: id }, b);
    expect(accept.statusCode).toBe(409);
    expect((await partnerPage(t, b)).partner).toBeNull();
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

    await invite(t, c, a.email);
    await link(t, a, b);
    const more = await callAs(t.app, partnersApi.invite, { email: c.email }, a);
    expect(more.statusCode).toBe(409);
    expect(more.json()).toMatchObject({ code: 'PARTNER_LINKED' });
    // One sent after the link (the earlier one closed with it) cannot link a second partner.
    const late = await invite(t, c, a.email);
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
    const aToC = await invite(t, a, c.email);
    const bToC = await invite(t, b, c.email);
    const cToD = await invite(t, c, d.email);
    const eToA = await invite(t, e, a.email);
    expect((await partnerPage(t, c)).received.map((r) => r.invitation_id).sort()).toEqual(
      [aToC, bToC].sort(),
    );
    const bBefore = await partnerPage(t, b);

    const accepted = await callAs(t.app, partnersApi.accept, { invitation_id: aToC }, c);
    expect(accepted.statusCode, accepted.body).toBe(200);

    // B's invitation to C, and E's to A, can no longer be accepted; C's to D neither.
    expect((await partnerPage(t, c)).received).toEqual([]);
    expect((await partnerPage(t, a)).received).toEqual([]);
    expect((await partnerPage(t, d)).received).toEqual([]);
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
    expect(await partnerPage(t, b)).toEqual(bBefore);
    const withdrawn = await callAs(t.app, partnersApi.withdraw, { invitation_id: bToC }, b);
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect((await partnerPage(t, b)).sent).toBeNull();
    expect((await partnerPage(t, b)).history[0]).toMatchObject({
      kind: 'invitation_withdrawn',
      counterpart: c.email,
    });
  });

  it('links at most one partner when two invitations to the same person are accepted at once', async () => {
    const target = await insertCustomer(t.app, { first_name: 'Jas' });
    const b = await insertCustomer(t.app, { first_name: 'Kai' });
    const c = await insertCustomer(t.app, { first_name: 'Lux' });
    const fromB = await invite(t, b, target.email);
    const fromC = await invite(t, c, target.email);

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
      const hubToR = await invite(t, hub, r.email);
      const sToHub = await invite(t, s, hub.email);
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
});
