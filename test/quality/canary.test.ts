import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { luhnValid } from '#server/adapters/payments.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { cookieValue, placesTheAppWrites, secretsIn } from '#test/canary.ts';
import { buildPlaceOrder, buildSignup, post, sessionCookie } from '#test/factories.ts';
import { sentMessages } from '#test/outbox.ts';
import { offers } from '#shared/catalog.ts';

/**
 * DESIGN §7: card numbers, security codes, passwords, session tokens and reset tokens are never
 * stored or written in clear. Every secret here is a distinctive canary; after a whole account's
 * life (sign-up, log-in, a wrong guess, a card update, a purchase, a reset, a password change) the
 * database (every row of every table, and on SQLite its files with the WAL), the log and the
 * outbox are searched for each one.
 */
describe(`canary scan: no secret in clear anywhere the app writes (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const card = '4000773100592181';
  const cvv = '864';
  const passwords = {
    signUp: 'canary-signup-passphrase-5521',
    wrongGuess: 'canary-wrong-guess-passphrase-7730',
    afterReset: 'canary-after-reset-passphrase-3108',
    changed: 'canary-changed-passphrase-9464',
  };

  it('drives an account through its life, then finds none of its secrets in clear', async () => {
    expect(luhnValid(card)).toBe(true);
    const signup = buildSignup({ password: passwords.signUp });
    const created = await post(t.app, '/lapi/account/create/', signup);
    expect(created.statusCode, created.body).toBe(200);
    const leadsId = created.json<{ data: { leads_id: string } }>().data.leads_id;
    const sessions = [sessionCookie(created)];

    const wrong = await post(t.app, '/lapi/account/login/', {
      email: signup.email,
      password: passwords.wrongGuess,
    });
    expect(wrong.statusCode).toBe(401);
    const loggedIn = await post(t.app, '/lapi/account/login/', {
      email: signup.email,
      password: passwords.signUp,
    });
    expect(loggedIn.statusCode).toBe(200);
    sessions.push(sessionCookie(loggedIn));
    const cookie = sessions[1];

    const cardUpdate = await post(
      t.app,
      '/lapi/account/ccupdate/',
      { ccnum: card.replace(/(\d{4})(?=\d)/g, '$1 '), ccexp: '11/31', cccvv: cvv, consent: true },
      cookie,
    );
    expect(cardUpdate.statusCode, cardUpdate.body).toBe(200);
    expect(cardUpdate.json()).toMatchObject({ data: { card: { last4: card.slice(-4) } } });

    await post(
      t.app,
      '/lapi/v2/ecom/add-product',
      { product_id: offers.sleep.monthly, quantity: 1 },
      cookie,
    );
    const order = await post(
      t.app,
      '/lapi/v2/ecom/place-order',
      buildPlaceOrder({ payment: { method: 'card', ccnum: card, ccexp: '11/31', cccvv: cvv } }),
      cookie,
    );
    expect(order.statusCode, order.body).toBe(200);

    const reset = await post(t.app, '/lapi/account/reset/', { email: signup.email });
    expect(reset.statusCode).toBe(200);
    const resetMail = (await sentMessages(t)).find(
      (m) => m.to === signup.email && m.subject === 'Reset your Pairwell password',
    );
    const resetToken = /\/reset-password\?id=([\w-]+)/.exec(resetMail?.text ?? '')?.[1] ?? '';
    expect(resetToken).toMatch(/^[\w-]{43}$/);
    // The page asks about the link first; asking leaves no trace of the token either.
    const checked = await post(t.app, '/lapi/account/passwordupdate/check/', { token: resetToken });
    expect(checked.json()).toMatchObject({ data: { valid: true } });
    const used = await post(t.app, '/lapi/account/passwordupdate/', {
      token: resetToken,
      password: passwords.afterReset,
    });
    expect(used.statusCode, used.body).toBe(200);
    // The link in the email is spent: it cannot set a password again.
    const replay = await post(t.app, '/lapi/account/passwordupdate/', {
      token: resetToken,
      password: 'canary-replayed-passphrase-0000',
    });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ code: 'RESET_LINK_INVALID' });

    const afterReset = await post(t.app, '/lapi/account/login/', {
      email: signup.email,
      password: passwords.afterReset,
    });
    expect(afterReset.statusCode).toBe(200);
    sessions.push(sessionCookie(afterReset));
    const changed = await post(
      t.app,
      '/lapi/account/password/',
      { current_password: passwords.afterReset, password: passwords.changed },
      sessions[2],
    );
    expect(changed.statusCode, changed.body).toBe(200);
    const data = await post(t.app, '/lapi/account/data/', { leads_id: leadsId }, sessions[2]);
    expect(data.statusCode).toBe(200);

    const secrets: Record<string, string | RegExp> = {
      ...Object.fromEntries(Object.entries(passwords).map(([k, v]) => [`password (${k})`, v])),
      'card number': card,
      'card number, spaced': card.replace(/(\d{4})(?=\d)/g, '$1 '),
      // Anything past the first six and before the last four is never kept, in any form.
      'card number, middle digits': card.slice(6, 12),
      // Three digits on their own: not after a dot (a timestamp's milliseconds may read the same)
      // and not inside a hexadecimal run (every request id is a UUID, which may hold "…a864f…").
      CVV: new RegExp(`(?<![\\da-f.])${cvv}(?![\\da-f])`, 'i'),
      ...Object.fromEntries(sessions.map((s, i) => [`session token ${i + 1}`, cookieValue(s)])),
    };
    const places = await placesTheAppWrites(t);
    // The scan reaches real data: the account, its log lines and its email are all there.
    expect(places.find((p) => p.name === 'database')?.text).toContain(signup.email);
    expect(places.find((p) => p.name === 'logs')?.text).toContain('/lapi/account/ccupdate/');
    expect(places.filter((p) => p.name.startsWith('outbox/')).length).toBeGreaterThan(1);

    expect(secretsIn(places, secrets)).toEqual([]);
    // The reset token travels in its email (spent now, as shown above), and nowhere else.
    const outsideTheOutbox = places.filter((p) => !p.name.startsWith('outbox/'));
    expect(secretsIn(outsideTheOutbox, { 'reset token': resetToken })).toEqual([]);
    const inTheOutbox = secretsIn(
      places.filter((p) => p.name.startsWith('outbox/')),
      { 'reset token': resetToken },
    );
    expect(inTheOutbox.length).toBeGreaterThan(0);
  });
});
