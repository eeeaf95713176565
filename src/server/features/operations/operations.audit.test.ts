import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStaff } from '#server/db/seed-demo.ts';
import { cartApi } from '#shared/cart.ts';
import { catalogApi, type Catalog } from '#shared/catalog.ts';
import { checkoutApi } from '#shared/checkout.ts';
import { operationsApi } from '#shared/operations.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { buildPlaceOrder, insertCustomer, staffCookie } from '#test/factories.ts';
import { callAs } from '#test/contract.ts';

const ops = demoStaff[1]!;

/**
 * A staff change writes its audit entry in the transaction that makes it (docs/architecture.md,
 * "One audit rule"): when that transaction fails, there is neither the change nor its entry, and
 * when the entry cannot be written, the change does not happen either.
 */
describe(`a staff change and its audit entry (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
  });
  afterAll(() => t.close());

  /** An order of a new customer's, paid and waiting to ship. */
  async function paidOrder(): Promise<{ orderId: number; customerId: number }> {
    const customer = await insertCustomer(t.app);
    const catalog = await callAs(t.app, catalogApi.products, undefined);
    const offer = catalog.json<{ data: Catalog }>().data.lines[0]?.offers[0];
    if (!offer) throw new Error('the seeded catalogue has no offer');
    const added = await callAs(
      t.app,
      cartApi.addProduct,
      { product_id: offer.product_id, quantity: 1 },
      customer.cookie,
    );
    expect(added.statusCode, added.body).toBe(200);
    const placed = await callAs(t.app, checkoutApi.placeOrder, buildPlaceOrder(), customer.cookie);
    expect(placed.statusCode, placed.body).toBe(200);
    const orderId = placed.json<{ data: { orders_id: number } }>().data.orders_id;
    return { orderId, customerId: customer.customerId };
  }

  /** The audit log refuses every `ship` entry, as a full disk or a lost connection would. */
  async function refuseShipEntries(): Promise<() => Promise<void>> {
    if (testDialect === 'sqlite') {
      await sql`create trigger refuse_ship_audit before insert on audit_log
        when new.action = 'ship' begin select raise(abort, 'the audit log is unavailable'); end`.execute(
        t.app.db,
      );
      return async () => {
        await sql`drop trigger refuse_ship_audit`.execute(t.app.db);
      };
    }
    await sql`create function refuse_ship_audit() returns trigger language plpgsql as $$
      begin
        if new.action = 'ship' then raise exception 'the audit log is unavailable'; end if;
        return new;
      end $$`.execute(t.app.db);
    await sql`create trigger refuse_ship_audit before insert on audit_log
      for each row execute function refuse_ship_audit()`.execute(t.app.db);
    return async () => {
      await sql`drop trigger refuse_ship_audit on audit_log`.execute(t.app.db);
      await sql`drop function refuse_ship_audit()`.execute(t.app.db);
    };
  }

  const shipEntries = (orderId: number) =>
    t.app.db
      .selectFrom('audit_log')
      .select(['action', 'subject_type', 'subject_id', 'customer_id'])
      .where('action', '=', 'ship')
      .where('subject_id', '=', String(orderId))
      .execute();
  const orderStatus = async (orderId: number) =>
    (
      await t.app.db
        .selectFrom('orders')
        .select('status')
        .where('id', '=', orderId)
        .executeTakeFirstOrThrow()
    ).status;
  const shippedNotices = async () =>
    (
      await t.app.db
        .selectFrom('outbox_messages')
        .select('id')
        .where('subject', 'like', '%has shipped')
        .execute()
    ).length;

  it('a shipment whose transaction fails leaves no audit entry, no shipment and no email', async () => {
    const { orderId, customerId } = await paidOrder();
    const cookie = await staffCookie(t, ops);
    const ship = () =>
      callAs(
        t.app,
        operationsApi.ship,
        { order_id: orderId, tracking_number: '9400111899223197428490' },
        cookie,
      );
    const noticesBefore = await shippedNotices();

    const restore = await refuseShipEntries();
    const failed = await ship();
    await restore();
    expect(failed.statusCode, failed.body).toBe(500);
    expect(await shipEntries(orderId)).toEqual([]);
    expect(await orderStatus(orderId)).toBe('PROCESSING');
    expect(await shippedNotices()).toBe(noticesBefore);

    // Asked again once the audit log takes entries: shipped, told and audited, once each.
    const shipped = await ship();
    expect(shipped.statusCode, shipped.body).toBe(200);
    expect(await orderStatus(orderId)).toBe('SHIPPED');
    expect(await shippedNotices()).toBe(noticesBefore + 1);
    expect(await shipEntries(orderId)).toEqual([
      {
        action: 'ship',
        subject_type: 'order',
        subject_id: String(orderId),
        customer_id: customerId,
      },
    ]);
  });
});
