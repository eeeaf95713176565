import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNREADABLE_CHARACTER } from '#server/plugins/json-body.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs, malformed, type Who } from '#test/contract.ts';
import { buildSignup, insertCustomer, randomLoopback, type TestCustomer } from '#test/factories.ts';
import { accountsApi } from '#shared/accounts.ts';
import { checkoutApi } from '#shared/checkout.ts';
import type { Endpoint } from '#shared/contract.ts';
import { messagesApi } from '#shared/messages.ts';

/**
 * Text that is not text: half of a UTF-16 surrogate pair on its own (`"\ud800"` in JSON). SQLite
 * would keep it as invalid UTF-8 and PostgreSQL as U+FFFD, so every call refuses it, naming the
 * field, and stores nothing; a real character outside the BMP (an emoji, a proper pair) is kept
 * as it was sent, on both databases.
 */
describe(`JSON bodies with a lone surrogate (${testDialect})`, () => {
  let t: TestApp;
  let me: TestCustomer;
  beforeAll(async () => {
    t = await buildTestApp();
    me = await insertCustomer(t.app);
  });
  afterAll(() => t.close());

  /** Sends `json` exactly as written: its `\ud800` escapes reach the server's parser as they are. */
  const sendJson = (endpoint: Endpoint, json: string, who?: Who) =>
    callAs(t.app, endpoint, malformed(json), who, {
      headers: { 'content-type': 'application/json' },
      remoteAddress: randomLoopback(),
    });

  /** A JSON body with `"@@"` in one string replaced by `escape` (a JSON escape, kept literal). */
  const withEscape = (body: object, escape: string) => JSON.stringify(body).replace('@@', escape);

  const refusedOn = (field: string) => ({
    status: 'FAILURE',
    code: 'INVALID_CHARACTER',
    message: UNREADABLE_CHARACTER,
    fields: { [field]: UNREADABLE_CHARACTER },
  });

  const customerWithEmail = (email: string) =>
    t.app.db.selectFrom('customers').select('id').where('email', '=', email).executeTakeFirst();

  it('a sign-up whose first name holds a lone surrogate is refused on that field and creates no customer; an emoji there is kept intact', async () => {
    for (const escape of ['\\ud800', 'Ri\\udfffley', 'Riley\\ud83d']) {
      const signup = buildSignup({ first_name: '@@' });
      const response = await sendJson(accountsApi.accountCreate, withEscape(signup, escape));
      expect(response.statusCode, escape).toBe(400);
      expect(response.json()).toMatchObject(refusedOn('first_name'));
      expect(response.cookies).toEqual([]);
      expect(await customerWithEmail(signup.email)).toBeUndefined();
    }

    // U+1F600 as its JSON escape: a high surrogate followed by its low one.
    const emoji = buildSignup({ first_name: 'Riley @@' });
    const signedUp = await sendJson(accountsApi.accountCreate, withEscape(emoji, '\\ud83d\\ude00'));
    expect(signedUp.statusCode, signedUp.body).toBe(200);
    const stored = await t.app.db
      .selectFrom('customers')
      .select('first_name')
      .where('email', '=', emoji.email)
      .executeTakeFirstOrThrow();
    expect(stored.first_name).toBe('Riley \u{1F600}');
  });

  it('an address holding one is refused on that field, and nothing is stored', async () => {
    const address = {
      leads_id: me.leadsId,
      address: '1200 Harbor @@Street',
      address2: '',
      city: 'Portland',
      state: 'OR',
      zip: '97201',
      billing_address: '1200 Harbor Street',
      billing_address2: '',
      billing_city: 'Portland',
      billing_state: 'OR',
      billing_zip: '97201',
      phoneNo: '503-555-0142',
      smsallow: 1,
    };
    const addressed = await sendJson(accountsApi.address, withEscape(address, '\\udc00'), me);
    expect(addressed.statusCode).toBe(400);
    expect(addressed.json()).toMatchObject(refusedOn('address'));
    const addresses = await t.app.db
      .selectFrom('customer_addresses')
      .select('id')
      .where('customer_id', '=', me.customerId)
      .execute();
    expect(addresses).toEqual([]);
  });

  it('a message holding one is refused on its body and starts no conversation; emoji in a message are kept intact', async () => {
    const message = { leads_id: me.leadsId, subject: 'A question', topic: 'other', body: 'Hi @@' };
    const refused = await sendJson(messagesApi.send, withEscape(message, '\\ud800'), me);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject(refusedOn('body'));
    const threadsOf = () =>
      t.app.db
        .selectFrom('messages')
        .innerJoin('message_threads', 'message_threads.id', 'messages.thread_id')
        .select(['messages.body', 'message_threads.subject'])
        .where('message_threads.customer_id', '=', me.customerId)
        .execute();
    expect(await threadsOf()).toEqual([]);

    const withEmoji = { ...message, subject: 'Thanks 🎉', body: 'Great 😀👍🏽' };
    const sent = await sendJson(messagesApi.send, JSON.stringify(withEmoji), me);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await threadsOf()).toEqual([{ body: 'Great 😀👍🏽', subject: 'Thanks 🎉' }]);
  });

  it('the field is named by its path in a nested body, and a bad key names the object holding it', async () => {
    const order = {
      idempotency_key: 'surrogate-check',
      shipping: { address: '500 Market @@', city: 'Portland', state: 'OR', zip: '97204' },
    };
    const nested = await sendJson(checkoutApi.placeOrder, withEscape(order, '\\ud800'), me);
    expect(nested.statusCode).toBe(400);
    expect(nested.json()).toMatchObject(refusedOn('shipping.address'));

    const badKey = await sendJson(
      accountsApi.accountCreate,
      JSON.stringify({ first_name: 'Riley', '@@': 1 }).replace('@@', '\\ud800'),
    );
    expect(badKey.statusCode).toBe(400);
    expect(badKey.json()).toMatchObject(refusedOn('_'));
  });

  it('a body nested far deeper than any form is checked all the way down, not called invalid JSON', async () => {
    const depth = 200_000;
    const deep = (inner: string) =>
      `{"first_name":${'['.repeat(depth)}${inner}${']'.repeat(depth)}}`;
    const plain = await sendJson(accountsApi.accountCreate, deep('"Riley"'));
    expect(plain.statusCode).toBe(400);
    expect(plain.json()).toMatchObject({ code: 'VALIDATION' });
    const lone = await sendJson(accountsApi.accountCreate, deep('"\\ud800"'));
    expect(lone.statusCode).toBe(400);
    expect(lone.json()).toMatchObject(
      refusedOn(['first_name', ...Array.from({ length: 7 }, () => '0')].join('.')),
    );
  });
});
