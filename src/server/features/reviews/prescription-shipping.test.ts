import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStaff } from '#server/db/seed-demo.ts';
import { accountsApi } from '#shared/accounts.ts';
import { cartApi } from '#shared/cart.ts';
import { offers } from '#shared/catalog.ts';
import { checkoutApi } from '#shared/checkout.ts';
import { reviewsApi } from '#shared/reviews.ts';
import { visitsApi } from '#shared/visits.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs } from '#test/contract.ts';
import {
  buildPlaceOrder,
  insertCustomer,
  staffCookie,
  type TestCustomer,
} from '#test/factories.ts';
import { edVisitAtCheckout, submittedEdVisit, visitCheckoutBody } from '#test/visits.ts';

const provider = demoStaff.find((s) => s.role === 'provider')!;
const onlyOregon =
  'Your prescription can ship only to an address in Oregon, the state your online visit is for.';

/** Issue 11, finding 9: a prescription ships only to the state its visit was eligible in. */
describe(`prescriptions ship only to the visit's state (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
  });
  afterAll(() => t.close());

  const providerCookie = () => staffCookie(t, provider);

  const ordersOf = async (c: TestCustomer) =>
    t.app.db
      .selectFrom('orders')
      .select(['id', 'ship_state'])
      .where('customer_id', '=', c.customerId)
      .execute();
  const accountShippingState = async (c: TestCustomer) =>
    (await callAs(t.app, accountsApi.accountData, { leads_id: c.leadsId }, c.cookie)).json<{
      data: { shipping: { state: string } | null };
    }>().data.shipping?.state;
  const accountAddress = (c: TestCustomer, state: string, zip: string, city: string) =>
    callAs(
      t.app,
      accountsApi.address,
      {
        leads_id: c.leadsId,
        address: '12 Elm St',
        address2: '',
        city,
        state,
        zip,
        billing_address: '12 Elm St',
        billing_address2: '',
        billing_city: city,
        billing_state: state,
        billing_zip: zip,
        phoneNo: '5035550177',
        smsallow: 0,
      },
      c.cookie,
    );
  const validUntil = () =>
    new Date(t.clock.now().getTime() + 180 * 86_400_000).toISOString().slice(0, 10);

  it('refuses a visit checkout shipping to Alabama for a visit eligible in Oregon, and stores nothing', async () => {
    const c = await insertCustomer(t.app);
    const visitId = await edVisitAtCheckout(t.app, c, 'OR');
    const refused = await callAs(
      t.app,
      visitsApi.checkout,
      visitCheckoutBody(visitId, undefined, 'AL'),
      c.cookie,
    );
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 'SHIPPING_STATE',
      message: onlyOregon,
      fields: { 'shipping.state': onlyOregon },
    });
    expect(await ordersOf(c)).toHaveLength(0);
    expect(await accountShippingState(c)).toBeUndefined();

    const accepted = await callAs(t.app, visitsApi.checkout, visitCheckoutBody(visitId), c.cookie);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect((await ordersOf(c)).map((o) => o.ship_state)).toEqual(['OR']);
  });

  it('keeps refills in the state: the account address cannot move to Alabama while a visit waits or refills run', async () => {
    const c = await insertCustomer(t.app);
    const { visitId } = await submittedEdVisit(t.app, c, 'OR');
    const moved = await accountAddress(c, 'AL', '35203', 'Birmingham');
    expect(moved.statusCode, moved.body).toBe(400);
    expect(moved.json()).toMatchObject({ message: onlyOregon, fields: { state: onlyOregon } });
    expect(await accountShippingState(c)).toBe('OR');
    expect((await accountAddress(c, 'OR', '97204', 'Portland')).statusCode).toBe(200);

    const cookie = await providerCookie();
    const approved = await callAs(
      t.app,
      reviewsApi.approve,
      {
        visit_id: visitId,
        prescription: {
          drug: 'sildenafil',
          dosage: '50mg',
          quantity: 6,
          refills: 3,
          valid_until: validUntil(),
          directions: 'Take one tablet about an hour before, no more than once a day.',
        },
      },
      cookie,
    );
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await accountAddress(c, 'AL', '35203', 'Birmingham')).statusCode).toBe(400);

    // A shop order may go to Alabama; the address refills ship to stays in Oregon.
    await callAs(
      t.app,
      cartApi.addProduct,
      { product_id: offers.biotin.oneTime, quantity: 1 },
      c.cookie,
    );
    const placed = await callAs(
      t.app,
      checkoutApi.placeOrder,
      buildPlaceOrder({
        shipping: {
          address: '1 Main St',
          address2: '',
          city: 'Birmingham',
          state: 'AL',
          zip: '35203',
          phoneNo: '2055550142',
        },
      }),
      c.cookie,
    );
    expect(placed.statusCode, placed.body).toBe(200);
    expect(await accountShippingState(c)).toBe('OR');
  });

  it('refuses to approve a visit whose order would ship out of its state, and charges nothing', async () => {
    const c = await insertCustomer(t.app);
    const { visitId } = await submittedEdVisit(t.app, c, 'OR');
    // An order placed before checkout checked the state.
    await t.app.db
      .updateTable('orders')
      .set({ ship_state: 'AL' })
      .where('customer_id', '=', c.customerId)
      .execute();
    const cookie = await providerCookie();
    const refused = await callAs(
      t.app,
      reviewsApi.approve,
      {
        visit_id: visitId,
        prescription: {
          drug: 'sildenafil',
          dosage: '50mg',
          quantity: 6,
          refills: 0,
          valid_until: validUntil(),
          directions: 'Take one tablet about an hour before, no more than once a day.',
        },
      },
      cookie,
    );
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json<{ message: string }>().message).toBe(
      'This order ships to Alabama, but the visit is for Oregon: a prescription can ship only there. Decline the visit, or ask the patient for an address in Oregon.',
    );
    const visit = await t.app.db
      .selectFrom('visits')
      .select('status')
      .where('id', '=', visitId)
      .executeTakeFirstOrThrow();
    expect(visit.status).toBe('PENDING_REVIEW');
    const order = await t.app.db
      .selectFrom('orders')
      .select('payment_status')
      .where('customer_id', '=', c.customerId)
      .executeTakeFirstOrThrow();
    expect(order.payment_status).not.toBe('paid');
    expect(
      await t.app.db
        .selectFrom('prescriptions')
        .select('id')
        .where('visit_id', '=', visitId)
        .execute(),
    ).toHaveLength(0);
  });
});
