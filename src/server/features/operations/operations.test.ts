import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStaff } from '#server/db/seed-demo.ts';
import { totpCode, totpStep } from '#server/lib/totp.ts';
import {
  operationsApi,
  type StaffOrderDetail,
  type StaffOrderSummary,
} from '#shared/operations.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { buildPlaceOrder, insertCustomer, staffCookie } from '#test/factories.ts';
import { sentMessages } from '#test/outbox.ts';
import { site } from '#shared/site.ts';
import { insertProvider, setLicensedStates } from '#test/visits.ts';
import { staffApi } from '#shared/staff.ts';
import { cartApi } from '#shared/cart.ts';
import { checkoutApi } from '#shared/checkout.ts';
import { ordersApi } from '#shared/orders.ts';
import { callAs } from '#test/contract.ts';
import { offers } from '#shared/catalog.ts';

const [provider, ops] = demoStaff;

describe(`staff console: log-in and operations (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
  });
  afterAll(() => t.close());

  /** Logs a demo staff member in with the code their authenticator app would show now. */
  const consoleCookie = (who = ops!) => staffCookie(t, who, { advanceClock: false });

  it('needs the password and a fresh authenticator code; a code works once', async () => {
    const code = totpCode(ops!.totpSecret, totpStep(t.clock.now()));
    const noCode = await callAs(t.app, staffApi.login, {
      email: ops!.email,
      password: ops!.password,
      code: '',
    });
    expect(noCode.json()).toMatchObject({
      fields: { code: 'Enter the 6-digit code from your authenticator app' },
    });
    const wrongPassword = await callAs(t.app, staffApi.login, {
      email: ops!.email,
      password: 'nope nope',
      code,
    });
    expect(wrongPassword.statusCode).toBe(401);
    const ok = await callAs(t.app, staffApi.login, {
      email: ops!.email,
      password: ops!.password,
      code,
    });
    expect(ok.statusCode).toBe(200);
    const replay = await callAs(t.app, staffApi.login, {
      email: ops!.email,
      password: ops!.password,
      code,
    });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toMatchObject({ message: 'The email, password or code is incorrect.' });
  });

  it('logs staff out after 15 idle minutes', async () => {
    t.clock.advance(60_000);
    const cookie = await consoleCookie();
    expect((await callAs(t.app, staffApi.me, {}, cookie)).json()).toMatchObject({
      data: { authenticated: true, staff: { role: 'operations' } },
    });
    t.clock.advance(15 * 60_000);
    expect((await callAs(t.app, staffApi.me, {}, cookie)).json()).toMatchObject({
      data: { authenticated: false },
    });
    expect((await callAs(t.app, operationsApi.orders, {}, cookie)).statusCode).toBe(401);
  });

  it('only operations staff reach orders; a customer session is not a staff session', async () => {
    t.clock.advance(60_000);
    const providerCookie = await consoleCookie(provider!);
    expect((await callAs(t.app, operationsApi.orders, {}, providerCookie)).statusCode).toBe(403);
    const customer = await insertCustomer(t.app);
    expect((await callAs(t.app, operationsApi.orders, {}, customer.cookie)).statusCode).toBe(401);
  });

  it('ships with a tracking number (the customer is emailed), marks delivered, refunds in part then in full — each audited', async () => {
    const customer = await insertCustomer(t.app);
    await callAs(
      t.app,
      cartApi.addProduct,
      { product_id: offers.sleep.oneTime, quantity: 2 },
      customer.cookie,
    );
    const placed = await callAs(t.app, checkoutApi.placeOrder, buildPlaceOrder(), customer.cookie);
    const orderId = placed.json<{ data: { orders_id: number } }>().data.orders_id;
    t.clock.advance(60_000);
    const cookie = await consoleCookie();

    const list = await callAs(
      t.app,
      operationsApi.orders,
      { query: customer.email.slice(0, 12) },
      cookie,
    );
    expect(
      list.json<{ data: { orders: StaffOrderSummary[] } }>().data.orders.map((o) => o.orders_id),
    ).toEqual([orderId]);
    const detail = await callAs(t.app, operationsApi.order, { order_id: orderId }, cookie);
    expect(detail.json<{ data: { order: StaffOrderDetail } }>().data.order).toMatchObject({
      order_status: 'PROCESSING',
      actions: ['ship', 'refund', 'cancel'],
    });

    const badTracking = await callAs(
      t.app,
      operationsApi.ship,
      { order_id: orderId, tracking_number: 'x' },
      cookie,
    );
    expect(badTracking.json()).toMatchObject({
      fields: { tracking_number: 'Enter a USPS tracking number (10 to 34 letters and digits)' },
    });
    const shipped = await callAs(
      t.app,
      operationsApi.ship,
      { order_id: orderId, tracking_number: '9400 1118 9922 3197 4284 90'.replaceAll(' ', '') },
      cookie,
    );
    expect(shipped.json()).toMatchObject({
      data: {
        order: {
          order_status: 'SHIPPED',
          tracking_number: '9400111899223197428490',
          actions: ['deliver', 'refund'],
        },
      },
    });
    const mail = (await sentMessages(t)).find(
      (m) => m.to === customer.email && m.subject.endsWith('has shipped'),
    );
    expect(mail?.text).toContain(
      'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223197428490',
    );
    const again = await callAs(
      t.app,
      operationsApi.ship,
      { order_id: orderId, tracking_number: '9400111899223197428490' },
      cookie,
    );
    expect(again.statusCode).toBe(409);

    expect(
      (await callAs(t.app, operationsApi.deliver, { order_id: orderId }, cookie)).json(),
    ).toMatchObject({ data: { order: { order_status: 'DELIVERED' } } });
    const tooMuch = await callAs(
      t.app,
      operationsApi.refund,
      { order_id: orderId, amount_cents: 999_999, reason: 'Arrived damaged' },
      cookie,
    );
    expect(tooMuch.json()).toMatchObject({ message: 'At most $49.98 can be refunded.' });
    // A refund says why; without a reason nothing moves.
    const noReason = await callAs(
      t.app,
      operationsApi.refund,
      { order_id: orderId, amount_cents: 998, reason: '  ' },
      cookie,
    );
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json()).toMatchObject({ fields: { reason: 'Say why you are refunding' } });
    const untouched = await t.app.db
      .selectFrom('orders')
      .select(['refund_cents', 'refund_reserved_cents'])
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    expect(untouched).toEqual({ refund_cents: 0, refund_reserved_cents: 0 });
    const partial = await callAs(
      t.app,
      operationsApi.refund,
      { order_id: orderId, amount_cents: 998, reason: 'Arrived damaged' },
      cookie,
    );
    expect(partial.json()).toMatchObject({
      data: {
        order: {
          order_status: 'DELIVERED',
          refund_cents: 998,
          payment_status: 'partially_refunded',
        },
      },
    });
    const rest = await callAs(
      t.app,
      operationsApi.refund,
      { order_id: orderId, amount_cents: 4000, reason: 'Arrived damaged' },
      cookie,
    );
    expect(rest.json()).toMatchObject({
      data: {
        order: {
          order_status: 'REFUNDED',
          refund_cents: 4998,
          payment_status: 'refunded',
          actions: [],
        },
      },
    });
    const refunds = await t.app.db.selectFrom('simulator_refunds').select('amount_cents').execute();
    expect(refunds.map((r) => r.amount_cents)).toEqual(expect.arrayContaining([998, 4000]));
    // Each refund is the customer's news, with its amount and no reason.
    const receipts = (await sentMessages(t)).filter(
      (m) => m.to === customer.email && m.subject.startsWith(`Your ${site.name} refund`),
    );
    expect(receipts.map((m) => m.text.split('\n')[1]).sort()).toEqual([
      `We refunded $40.00 of your order PW-${200000 + orderId} to the card it was paid with.`,
      `We refunded $9.98 of your order PW-${200000 + orderId} to the card it was paid with.`,
    ]);
    expect(receipts.map((m) => m.text).join()).not.toContain('Arrived damaged');

    // The customer sees it on their orders page.
    const history = await callAs(
      t.app,
      ordersApi.ordersDetails,
      { leads_id: customer.leadsId },
      customer.cookie,
    );
    expect(history.json()).toMatchObject({
      message: {
        order_history: {
          [`PW-${200000 + orderId}`]: {
            order_status: 'REFUNDED',
            refund_cents: 4998,
            tracking_number: '9400111899223197428490',
            // Issue 26: the charge and each refund are lines on the order.
            payments: [
              { kind: 'paid', amount_cents: 4998 },
              { kind: 'refunded', amount_cents: 998 },
              { kind: 'refunded', amount_cents: 4000 },
            ],
          },
        },
      },
    });

    const audit = await t.app.db
      .selectFrom('audit_log')
      .select(['action', 'subject_type', 'customer_id'])
      .where('customer_id', '=', customer.customerId)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['view', 'ship', 'deliver', 'refund', 'refund']);
  });

  it('cancels an unshipped order and refunds it in full', async () => {
    const customer = await insertCustomer(t.app);
    await callAs(
      t.app,
      cartApi.addProduct,
      { product_id: offers.immunity.oneTime, quantity: 1 },
      customer.cookie,
    );
    const placed = await callAs(t.app, checkoutApi.placeOrder, buildPlaceOrder(), customer.cookie);
    const orderId = placed.json<{ data: { orders_id: number } }>().data.orders_id;
    t.clock.advance(60_000);
    const cookie = await consoleCookie();
    const cancelled = await callAs(t.app, operationsApi.cancel, { order_id: orderId }, cookie);
    expect(cancelled.json()).toMatchObject({
      data: {
        order: { order_status: 'CANCELLED', payment_status: 'refunded', refund_cents: 2499 },
      },
    });
    expect(
      (
        await callAs(
          t.app,
          operationsApi.ship,
          { order_id: orderId, tracking_number: '9400111899223197428490' },
          cookie,
        )
      ).statusCode,
    ).toBe(409);
  });

  it('shows operations how many providers are licensed in each offered state, a state with none too, and audits each view', async () => {
    t.clock.advance(60_000);
    const cookie = await consoleCookie();
    const coverage = async () => {
      const response = await callAs(t.app, operationsApi.coverage, {}, cookie);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ data: { states: { state: string; providers: number }[] } }>().data
        .states;
    };
    const offered = ['CA', 'FL', 'NY', 'OR', 'TX', 'WA'];
    expect(await coverage()).toEqual(offered.map((state) => ({ state, providers: 1 })));

    // The demo provider gives up Washington; a second provider is licensed in California.
    const setLicences = (states: string[]) => setLicensedStates(t.app, provider!.email, states);
    await setLicences(offered.filter((state) => state !== 'WA'));
    await insertProvider(t.app, ['CA']);
    try {
      expect(await coverage()).toEqual([
        { state: 'CA', providers: 2 },
        { state: 'FL', providers: 1 },
        { state: 'NY', providers: 1 },
        { state: 'OR', providers: 1 },
        { state: 'TX', providers: 1 },
        { state: 'WA', providers: 0 },
      ]);
    } finally {
      await setLicences(offered);
    }

    const audit = await t.app.db
      .selectFrom('audit_log')
      .innerJoin('staff_users', 'staff_users.id', 'audit_log.staff_id')
      .select(['staff_users.email', 'audit_log.action', 'audit_log.customer_id'])
      .where('audit_log.subject_type', '=', 'state_coverage')
      .execute();
    expect(audit).toEqual([
      { email: ops!.email, action: 'view', customer_id: null },
      { email: ops!.email, action: 'view', customer_id: null },
    ]);
  });

  it('shows provider coverage to operations staff only', async () => {
    t.clock.advance(60_000);
    const providerCookie = await consoleCookie(provider!);
    const customer = await insertCustomer(t.app);
    const asked = (cookie?: string) => callAs(t.app, operationsApi.coverage, {}, cookie);
    expect((await asked(providerCookie)).statusCode).toBe(403);
    expect((await asked(customer.cookie)).statusCode).toBe(401);
    expect((await asked()).statusCode).toBe(401);
  });
});
