import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCustomer } from '#server/db/seed-demo.ts';
import { accountsApi } from '#shared/accounts.ts';
import { authApi } from '#shared/auth.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs, malformed, urlOf } from '#test/contract.ts';
import { everythingStored } from '#test/database.ts';
import { insertCustomer, sessionCookie, type TestCustomer } from '#test/factories.ts';
import { sentMessages } from '#test/outbox.ts';

const address = {
  address: '1200 Harbor Street',
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
} as const;

const card = { ccnum: '4242 4242 4242 4242', ccexp: '12/30', cccvv: '123', consent: true } as const;

describe(`the account (${testDialect})`, () => {
  let t: TestApp;
  let me: TestCustomer;
  let someoneElse: TestCustomer;

  beforeAll(async () => {
    t = await buildTestApp();
    me = await insertCustomer(t.app);
    someoneElse = await insertCustomer(t.app);
  });
  afterAll(() => t.close());

  it("basics, account data and patient data answer with the session's own customer", async () => {
    const basics = await callAs(t.app, accountsApi.basics, {}, me);
    expect(basics.json()).toMatchObject({
      status: 'SUCCESS',
      data: {
        customer_id: me.customerId,
        leads_id: me.leadsId,
        first_name: 'Riley',
        last_name: 'Morgan',
        cart_count: 0,
        flags: [],
      },
    });
    const data = await callAs(t.app, accountsApi.accountData, { leads_id: me.leadsId }, me);
    expect(data.json()).toMatchObject({
      data: {
        email: me.email,
        dob: '04/12/1990',
        phoneNo: '(503) 555-0142',
        phone_verified: false,
        shipping: null,
        card: null,
      },
    });
    const patient = await callAs(t.app, accountsApi.patientData, { leads_id: me.leadsId }, me);
    expect(patient.json()).toMatchObject({
      status: 'SUCCESS',
      message: {
        leadsId: me.leadsId,
        billingFlag: null,
        expiredFlag: false,
        lander: { prospects_id: me.customerId, email: me.email, order_history: {} },
      },
    });
  });

  // Each call as `me`, naming someone else's leads_id.
  it.each([
    [
      urlOf(accountsApi.accountData),
      (leads_id: string) => callAs(t.app, accountsApi.accountData, { leads_id }, me),
    ],
    [
      urlOf(accountsApi.patientData),
      (leads_id: string) => callAs(t.app, accountsApi.patientData, { leads_id }, me),
    ],
    [
      urlOf(accountsApi.accountUpdate),
      (leads_id: string) =>
        callAs(
          t.app,
          accountsApi.accountUpdate,
          {
            prospect: {
              first_name: 'Mal',
              last_name: 'Lory',
              email: 'mal@example.test',
              phoneNo: '5035550100',
              dob: '01/01/1980',
            },
            leads_id,
          },
          me,
        ),
    ],
    [
      urlOf(accountsApi.address),
      (leads_id: string) => callAs(t.app, accountsApi.address, { ...address, leads_id }, me),
    ],
  ])("%s with another customer's leads_id answers 403 and reveals nothing", async (_url, call) => {
    const response = await call(someoneElse.leadsId);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ status: 'FAILURE', code: 'FORBIDDEN' });
    expect(response.body).not.toContain(someoneElse.email);
    const after = await callAs(
      t.app,
      accountsApi.accountData,
      { leads_id: someoneElse.leadsId },
      someoneElse,
    );
    expect(after.json()).toMatchObject({ data: { first_name: 'Riley', shipping: null } });
  });

  it.each([
    [urlOf(accountsApi.basics), () => callAs(t.app, accountsApi.basics, {})],
    [
      urlOf(accountsApi.accountData),
      () => callAs(t.app, accountsApi.accountData, { leads_id: 'L123' }),
    ],
    [urlOf(accountsApi.ccUpdate), () => callAs(t.app, accountsApi.ccUpdate, card)],
    [urlOf(accountsApi.smsAuth), () => callAs(t.app, accountsApi.smsAuth, { action: 'send' })],
    [urlOf(authApi.sessions), () => callAs(t.app, authApi.sessions, {})],
  ])('%s answers 401 to a visitor', async (_url, call) => {
    const response = await call();
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({
      code: 'UNAUTHENTICATED',
      message: 'Please log in to continue.',
    });
  });

  it('updates the account and says so in the words of the success toast', async () => {
    const customer = await insertCustomer(t.app);
    const response = await callAs(
      t.app,
      accountsApi.accountUpdate,
      {
        leads_id: customer.leadsId,
        prospect: {
          first_name: 'Sam',
          last_name: 'Rivera',
          email: customer.email,
          phoneNo: '(971) 555-0188',
          dob: '07/04/1985',
        },
      },
      customer,
    );
    expect(response.json()).toEqual({ status: 'SUCCESS', message: 'Account updated successfully' });
    const data = await callAs(
      t.app,
      accountsApi.accountData,
      { leads_id: customer.leadsId },
      customer,
    );
    expect(data.json()).toMatchObject({
      data: {
        first_name: 'Sam',
        last_name: 'Rivera',
        phoneNo: '(971) 555-0188',
        dob: '07/04/1985',
      },
    });
  });

  it("refuses to take another customer's email, with a FAILURE and its message", async () => {
    const customer = await insertCustomer(t.app);
    const response = await callAs(
      t.app,
      accountsApi.accountUpdate,
      {
        leads_id: customer.leadsId,
        prospect: {
          first_name: 'Sam',
          last_name: 'Rivera',
          email: someoneElse.email,
          phoneNo: '9715550188',
          dob: '07/04/1985',
        },
        // A new email needs the current password (email-change.test.ts); this one is taken.
        current_password: customer.password,
      },
      customer,
    );
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      status: 'FAILURE',
      message: 'An account with this email already exists.',
    });
  });

  it('saves the shipping and billing addresses, the phone and the SMS choice as 0/1', async () => {
    const customer = await insertCustomer(t.app);
    const response = await callAs(
      t.app,
      accountsApi.address,
      {
        ...address,
        leads_id: customer.leadsId,
        billing_city: 'Salem',
        billing_zip: '97301',
      },
      customer,
    );
    expect(response.json()).toMatchObject({ status: 'SUCCESS' });
    const data = await callAs(
      t.app,
      accountsApi.accountData,
      { leads_id: customer.leadsId },
      customer,
    );
    expect(data.json()).toMatchObject({
      data: {
        smsallow: 1,
        shipping: {
          address: '1200 Harbor Street',
          city: 'Portland',
          state: 'OR',
          zip: '97201',
          country: 'US',
        },
        billing: { city: 'Salem', zip: '97301' },
      },
    });
  });

  it.each([
    ['zip', '1234', 'Invalid ZIP code format'],
    ['zip', '123456', 'Invalid ZIP code format'],
    ['zip', 'ABCDE', 'Invalid ZIP code format'],
    ['billing_zip', '', 'Field required'],
    ['address', '', 'Field required'],
    ['city', '  ', 'Field required'],
    ['state', '', 'Field required'],
    ['state', 'XX', 'Choose a US state'],
    ['zip', '10001', "This ZIP code isn't in Oregon."],
    ['billing_zip', '90012', "This ZIP code isn't in Oregon."],
    ['phoneNo', '', 'Field required'],
    ['smsallow', true, 'Choose whether we may text you'],
  ] as const)(
    'the address refuses %s = %j with %j and saves nothing',
    async (field, value, message) => {
      const customer = await insertCustomer(t.app);
      const response = await callAs(
        t.app,
        accountsApi.address,
        malformed({ ...address, leads_id: customer.leadsId, [field]: value }),
        customer,
      );
      expect(response.statusCode).toBe(400);
      expect(response.json<{ fields: Record<string, string> }>().fields[field]).toBe(message);
      const data = await callAs(
        t.app,
        accountsApi.accountData,
        { leads_id: customer.leadsId },
        customer,
      );
      expect(data.json()).toMatchObject({ data: { shipping: null, billing: null } });
    },
  );

  it('address2 is optional', async () => {
    const customer = await insertCustomer(t.app);
    const { address2: _a, billing_address2: _b, ...rest } = address;
    const response = await callAs(
      t.app,
      accountsApi.address,
      {
        ...rest,
        leads_id: customer.leadsId,
      },
      customer,
    );
    expect(response.statusCode).toBe(200);
  });

  it('saves a card as brand, last 4 and expiry; neither the number nor the CVV is stored or logged', async () => {
    const customer = await insertCustomer(t.app);
    const response = await callAs(t.app, accountsApi.ccUpdate, { ...card, cccvv: '987' }, customer);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      data: {
        card: { brand: 'Visa', last4: '4242', exp_month: 12, exp_year: 2030, expired: false },
        // No payment had failed: nothing was charged again.
        retries: [],
      },
    });
    const data = await callAs(
      t.app,
      accountsApi.accountData,
      { leads_id: customer.leadsId },
      customer,
    );
    expect(data.json()).toMatchObject({ data: { card: { brand: 'Visa', last4: '4242' } } });

    const needles = ['4242424242424242', '4242 4242 4242 4242', '"987"', 'cccvv":"987'];
    for (const needle of needles) expect(t.logs()).not.toContain(needle);
    const stored = await everythingStored(t);
    expect(stored).not.toContain('4242424242424242');
    expect(stored).not.toMatch(/\b987\b/);
  });

  it.each([
    [{ ccnum: '' }, 'ccnum', 'Card number is required'],
    [{ ccnum: '42424242424242424' }, 'ccnum', 'Max 16 digits allowed'],
    [{ ccexp: '' }, 'ccexp', 'Not a valid expiration date'],
    [{ ccexp: '13/30' }, 'ccexp', 'Not a valid expiration date'],
    [{ ccexp: '12/2030' }, 'ccexp', 'Not a valid expiration date'],
    [{ ccexp: '1230' }, 'ccexp', 'Not a valid expiration date'],
    [{ cccvv: '' }, 'cccvv', 'Card security code is Required'],
    [{ consent: false }, 'consent', 'Continue your payment by checking the box above'],
  ])('the card form refuses %j on %s with %j', async (change, field, message) => {
    const response = await callAs(
      t.app,
      accountsApi.ccUpdate,
      malformed({ ...card, ...change }),
      me,
    );
    expect(response.statusCode).toBe(400);
    expect(response.json<{ fields: Record<string, string> }>().fields[field]).toBe(message);
  });

  it.each([
    ['4000 0000 0000 0002', '12/30', 'ccnum', 'Your card was declined.'],
    ['4242 4242 4242 4241', '12/30', 'ccnum', 'Your card number is incorrect.'],
    ['4242 4242 4242 4242', '01/20', 'ccexp', 'Your card has expired.'],
  ])(
    "the gateway's refusal of %s says why and keeps the old card",
    async (number, expiry, field, message) => {
      const customer = await insertCustomer(t.app);
      await callAs(t.app, accountsApi.ccUpdate, card, customer);
      const response = await callAs(
        t.app,
        accountsApi.ccUpdate,
        {
          ...card,
          ccnum: number,
          ccexp: expiry,
        },
        customer,
      );
      expect(response.statusCode).toBe(402);
      expect(response.json()).toMatchObject({
        code: 'CARD_DECLINED',
        message,
        fields: { [field]: message },
      });
      const data = await callAs(
        t.app,
        accountsApi.accountData,
        { leads_id: customer.leadsId },
        customer,
      );
      expect(data.json()).toMatchObject({ data: { card: { last4: '4242', exp_year: 2030 } } });
    },
  );

  it('flags a card that has expired or expires within 30 days, and links to where it is fixed', async () => {
    const customer = await insertCustomer(t.app);
    await callAs(t.app, accountsApi.ccUpdate, { ...card, ccexp: '11/26' }, customer);
    const expiring = await callAs(t.app, accountsApi.basics, {}, customer);
    expect(expiring.json()).toMatchObject({
      data: { flags: [{ type: 'card_expiring', href: '/accounts/editPaymentMethod' }] },
    });
    t.clock.set('2026-12-01T00:00:00.000Z');
    try {
      const login = await callAs(t.app, authApi.login, {
        email: customer.email,
        password: customer.password,
      });
      const cookie = sessionCookie(login);
      const basics = await callAs(t.app, accountsApi.basics, {}, cookie);
      expect(basics.json()).toMatchObject({
        data: { flags: [{ type: 'card_expired', href: '/accounts/editPaymentMethod' }] },
      });
      const patient = await callAs(
        t.app,
        accountsApi.patientData,
        { leads_id: customer.leadsId },
        cookie,
      );
      expect(patient.json()).toMatchObject({ message: { expiredFlag: true } });
    } finally {
      t.clock.set('2026-11-21T12:00:00.000Z');
    }
  });

  it('verifies the phone with a 6-digit code sent by text message', async () => {
    const customer = await insertCustomer(t.app);
    const send = await callAs(t.app, accountsApi.smsAuth, { action: 'send' }, customer);
    expect(send.json()).toMatchObject({
      data: { sent_to: '(•••) •••-0142', phone_verified: false },
    });
    const sms = (await sentMessages(t)).find((m) => m.kind === 'sms' && m.to === '5035550142');
    const code = /\b(\d{6})\b/.exec(sms?.text ?? '')?.[1];
    expect(code).toBeDefined();
    const wrongCode = code === '000000' ? '111111' : '000000';
    const wrong = await callAs(
      t.app,
      accountsApi.smsAuth,
      {
        action: 'verify',
        code: wrongCode,
      },
      customer,
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      fields: { code: 'That code is not right or has expired. Send a new code and try again.' },
    });
    const right = await callAs(
      t.app,
      accountsApi.smsAuth,
      { action: 'verify', code: code ?? '' },
      customer,
    );
    expect(right.json()).toMatchObject({ data: { phone_verified: true } });
    const data = await callAs(
      t.app,
      accountsApi.accountData,
      { leads_id: customer.leadsId },
      customer,
    );
    expect(data.json()).toMatchObject({ data: { phone_verified: true } });
    const notDigits = await callAs(
      t.app,
      accountsApi.smsAuth,
      {
        action: 'verify',
        code: '12ab56',
      },
      customer,
    );
    expect(notDigits.json()).toMatchObject({ fields: { code: 'Enter the 6-digit code' } });
  });
});

describe(`demo data (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
  });
  afterAll(() => t.close());

  it('the demo customer can log in with the password in the README, and seeding again changes nothing', async () => {
    const login = await callAs(t.app, authApi.login, {
      email: demoCustomer.email,
      password: demoCustomer.password,
    });
    expect(login.statusCode).toBe(200);
    const data = await callAs(
      t.app,
      accountsApi.accountData,
      { leads_id: login.json<{ data: { leads_id: string } }>().data.leads_id },
      sessionCookie(login),
    );
    expect(data.json()).toMatchObject({
      data: {
        first_name: 'Jordan',
        card: { brand: 'Visa', last4: '0341' },
        shipping: { city: 'Portland' },
      },
    });
    const { seedDemo } = await import('#server/db/seed-demo.ts');
    await seedDemo(t.app.ctx);
    const count = await t.app.db
      .selectFrom('customers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });
});
