import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partnersApi } from '#shared/partners.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { insertCustomer, type TestCustomer } from '#test/factories.ts';
import { sentMessages } from '#test/outbox.ts';
import { accountsApi } from '#shared/accounts.ts';
import { callAs } from '#test/contract.ts';
import { acceptInvitation, invite, partnerPage } from './partners.test-helpers.ts';

/**
 * Issue 26: identity rests on proof. An invitation is seen and accepted only with its own emailed
 * link, or from an account whose address matches it and was proved by a link mailed to it —
 * never by whoever typed the address first.
 */
describe(`partners: an invitation belongs to whoever reads its mail (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const address = (who: string) => `${who}-${Math.random().toString(36).slice(2, 10)}@example.test`;

  const overview = (c: TestCustomer, inviteToken?: string) => partnerPage(t, c, inviteToken);

  const mailTo = async (to: string, subject: RegExp) =>
    (await sentMessages(t)).filter((m) => m.to === to && subject.test(m.subject));
  const inviteToken = async (to: string) =>
    (await mailTo(to, /invited you to link/)).map(
      (m) => /(?:\?invite=|\?partnerInvite=)([\w-]{43})/.exec(m.text)?.[1],
    )[0];
  const verifyToken = async (to: string, subject: RegExp) =>
    (await mailTo(to, subject)).map((m) => /\/verify-email\?id=([\w-]{43})/.exec(m.text)?.[1])[0];

  it('someone who signs up with the invited address but has not confirmed it neither sees nor answers it', async () => {
    const jo = await insertCustomer(t.app, { first_name: 'Jo' });
    const invited = address('invited');
    const id = await invite(t, jo, invited);
    const squatter = await insertCustomer(t.app, { email: invited, verified: false });

    const seen = await overview(squatter);
    expect(seen.received).toEqual([]);
    expect(seen.email_verified).toBe(false);
    const accepted = await callAs(t.app, partnersApi.accept, { invitation_id: id }, squatter);
    expect(accepted.statusCode).toBe(404);
    expect(accepted.json()).toMatchObject({
      code: 'NOT_FOUND',
      message: 'We could not find that invitation.',
    });
    expect(
      (await callAs(t.app, partnersApi.decline, { invitation_id: id }, squatter)).statusCode,
    ).toBe(404);
    expect((await overview(jo)).partner).toBeNull();
    expect((await overview(jo)).sent).toMatchObject({ status: 'pending' });
  });

  it('someone who changes their email to the invited address neither sees nor answers it', async () => {
    const jo = await insertCustomer(t.app, { first_name: 'Jo' });
    const invited = address('invited');
    const id = await invite(t, jo, invited);
    const mover = await insertCustomer(t.app, { first_name: 'Mo' });
    const changed = await callAs(
      t.app,
      accountsApi.accountUpdate,
      {
        leads_id: mover.leadsId,
        prospect: {
          first_name: 'Mo',
          last_name: 'Morgan',
          email: invited,
          phoneNo: '(503) 555-0142',
          dob: '04/12/1990',
        },
        current_password: mover.password,
      },
      mover.cookie,
    );
    expect(changed.statusCode).toBe(200);

    expect((await overview(mover)).received).toEqual([]);
    expect((await callAs(t.app, partnersApi.accept, { invitation_id: id }, mover)).statusCode).toBe(
      404,
    );
    expect((await overview(jo)).partner).toBeNull();
  });

  it('the invitation link shows it, and lets it be accepted, before any address is confirmed', async () => {
    const jo = await insertCustomer(t.app, { first_name: 'Jo' });
    const invited = address('invited');
    const id = await invite(t, jo, invited);
    const token = await inviteToken(invited);
    expect(token).toMatch(/^[\w-]{43}$/);
    const kit = await insertCustomer(t.app, { first_name: 'Kit', email: invited, verified: false });

    const seen = await overview(kit, token);
    expect(seen.received.map((r) => r.invitation_id)).toEqual([id]);
    await acceptInvitation(t, kit, id, token);
    expect((await overview(jo)).partner?.first_name).toBe('Kit');
  });

  it('once the address is confirmed from the sign-up email, the invitation to it shows and can be accepted', async () => {
    const jo = await insertCustomer(t.app, { first_name: 'Jo' });
    const invited = address('invited');
    const id = await invite(t, jo, invited);
    const kit = await insertCustomer(t.app, { first_name: 'Kit', email: invited, verified: false });
    expect((await overview(kit)).received).toEqual([]);

    const token = await verifyToken(invited, /^Confirm your email address$/);
    const opened = await callAs(t.app, accountsApi.emailVerify, { token: token! });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toMatchObject({
      message: 'Your email address is confirmed.',
      data: { email: invited, changed: false },
    });

    const seen = await overview(kit);
    expect(seen.email_verified).toBe(true);
    expect(seen.received.map((r) => r.invitation_id)).toEqual([id]);
    await acceptInvitation(t, kit, id);
    expect((await overview(jo)).partner?.first_name).toBe('Kit');
  });
});
