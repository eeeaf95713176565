// What `npm run bench` adds to a Pairwell database beyond the catalogue and the demo data the
// server seeds itself: customers for the burst of log-ins, customers with 10 / 100 / 1,000 orders
// and with a conversation of 10 / 100 / 1,000 messages (the growth runs), and a conversation of
// ten messages for the demo customer (the messages target of the rounds). Written with plain
// Kysely inserts into the tables the product reads, in batches, as seed-demo.ts writes its rows.
import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import { demoCustomer } from '#server/db/seed-demo.ts';

type Db = Kysely<Database>;

/** The password of every customer the bench seeds (it logs them in through the API). */
export const BENCH_PASSWORD = 'bench correct horse battery';
export const GROWTH_SIZES = [10, 100, 1000] as const;
export const BURST_LOGINS = 20;
/** Messages in the demo customer's conversation, which the rounds' messages target reads. */
export const DEMO_THREAD_MESSAGES = 10;

export interface SeededCustomer {
  email: string;
  leadsId: string;
  customerId: number;
}

export interface BenchData {
  burst: SeededCustomer[];
  orders: { size: number; customer: SeededCustomer }[];
  messages: { size: number; customer: SeededCustomer }[];
}

const BATCH = 200;

function chunks<T>(items: T[], size = BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

async function insertBenchCustomer(
  db: Db,
  label: string,
  passwordHash: string,
  now: string,
): Promise<SeededCustomer> {
  const email = `bench-${label}@example.test`;
  const leadsId = `Lbench${label.replace(/[^a-z0-9]/gi, '')}`;
  const inserted = await db
    .insertInto('customers')
    .values({
      leads_id: leadsId,
      email,
      first_name: 'Bench',
      last_name: label,
      password_hash: passwordHash,
      dob: '1990-04-12',
      phone: '5035550142',
      phone_verified_at: now,
      clicks_id: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { email, leadsId, customerId: inserted.id };
}

const DAY = 24 * 60 * 60_000;
let orderSequence = 7_000_000;

/** `count` delivered store orders of two items each, one a day back from `now`. */
async function insertOrders(db: Db, customerId: number, count: number, now: Date): Promise<void> {
  const rows = Array.from({ length: count }, (_, i) => {
    const at = new Date(now.getTime() - (i + 1) * DAY).toISOString();
    orderSequence += 1;
    return {
      order_number: `PW-${orderSequence}`,
      customer_id: customerId,
      kind: 'store' as const,
      status: 'DELIVERED' as const,
      payment_status: 'paid',
      subtotal_cents: 6748,
      discount_cents: 0,
      total_cents: 6748,
      coupon_code: null,
      tracking_number: `9400111899223197${String(orderSequence).padStart(6, '0')}`,
      decline_reason: null,
      ship_address: '1200 Harbor Street',
      ship_address2: 'Apt 4B',
      ship_city: 'Portland',
      ship_state: 'OR',
      ship_zip: '97201',
      ship_country: 'US',
      click_id: null,
      idempotency_key: null,
      charge_id: null,
      created_at: at,
      updated_at: at,
    };
  });
  for (const batch of chunks(rows)) await db.insertInto('orders').values(batch).execute();
  const orders = await db
    .selectFrom('orders')
    .select('id')
    .where('customer_id', '=', customerId)
    .execute();
  const items = orders.flatMap((order) => [
    {
      order_id: order.id,
      product_id: 40,
      product_name: 'Sleep Gummies',
      product_image: '/images/supp-sleep.webp',
      category: 'supplements',
      frequency: 'ONE_TIME',
      unit_price_cents: 2499,
      quantity: 2,
    },
    {
      order_id: order.id,
      product_id: 36,
      product_name: 'Immunity Gummies',
      product_image: '/images/supp-immunity.webp',
      category: 'supplements',
      frequency: 'MONTHLY',
      unit_price_cents: 1750,
      quantity: 1,
    },
  ]);
  for (const batch of chunks(items)) await db.insertInto('order_items').values(batch).execute();
}

/** One conversation about an order with `count` messages, alternately the patient's and the care team's, all read. */
async function insertThread(db: Db, customerId: number, count: number, now: Date): Promise<void> {
  const startedAt = new Date(now.getTime() - count * 60_000).toISOString();
  const thread = await db
    .insertInto('message_threads')
    .values({
      customer_id: customerId,
      visit_id: null,
      order_id: null,
      subject: 'Where is my order?',
      topic: 'order',
      provider_id: null,
      created_at: startedAt,
      updated_at: now.toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const messages = Array.from({ length: count }, (_, i) => {
    const at = new Date(now.getTime() - (count - i) * 60_000).toISOString();
    const fromPatient = i % 2 === 0;
    return {
      thread_id: thread.id,
      sender: fromPatient ? ('patient' as const) : ('care_team' as const),
      staff_id: null,
      body: fromPatient
        ? `Hello, my last order has not arrived yet. Could you check where it is? (${i + 1})`
        : `Thanks for writing. Your parcel left our warehouse and should arrive within two days. (${i + 1})`,
      created_at: at,
      read_at: at,
    };
  });
  for (const batch of chunks(messages)) await db.insertInto('messages').values(batch).execute();
}

/**
 * Seeds the bench's customers into a database the server has migrated and seeded (the demo
 * customer must exist). `passwordHash` is BENCH_PASSWORD's, hashed once for them all.
 */
export async function seedBenchData(db: Db, passwordHash: string, now: Date): Promise<BenchData> {
  const at = now.toISOString();
  const demo = await db
    .selectFrom('customers')
    .select('id')
    .where('email', '=', demoCustomer.email)
    .executeTakeFirstOrThrow();
  await insertThread(db, demo.id, DEMO_THREAD_MESSAGES, now);

  const burst: SeededCustomer[] = [];
  for (let i = 1; i <= BURST_LOGINS; i++)
    burst.push(await insertBenchCustomer(db, `burst${i}`, passwordHash, at));
  const orders: BenchData['orders'] = [];
  const messages: BenchData['messages'] = [];
  for (const size of GROWTH_SIZES) {
    const withOrders = await insertBenchCustomer(db, `orders${size}`, passwordHash, at);
    await insertOrders(db, withOrders.customerId, size, now);
    orders.push({ size, customer: withOrders });
    const withMessages = await insertBenchCustomer(db, `messages${size}`, passwordHash, at);
    await insertThread(db, withMessages.customerId, size, now);
    messages.push({ size, customer: withMessages });
  }
  return { burst, orders, messages };
}
