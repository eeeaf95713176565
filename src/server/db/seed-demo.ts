import type { Kysely } from 'kysely';
import type { AppContext } from '#server/context.ts';
import { hashPassword } from '#server/features/auth/passwords.ts';
import { insertCoupons, type CouponRow } from '#server/features/coupons/coupons.queries.ts';
import { addCredentials, createStaff } from '#server/features/staff/staff.service.ts';
import { ageOn, calendarDateOf, parseUsDate, usDateFromIso } from '#shared/dates.ts';
import type { OrderStatus } from '#shared/orders.ts';
import { knownAnswers } from '#shared/questionnaires/engine.ts';
import { latestQuestionnaire } from '#shared/questionnaires/registry.ts';
import type { Database } from './schema.ts';

/** DESIGN §10: the demo customer, listed in the README. Never seeded when NODE_ENV=production. */
export const demoCustomer = {
  email: 'demo@pairwell.test',
  password: 'pairwell-demo',
  firstName: 'Jordan',
  lastName: 'Avery',
} as const;

/**
 * Seeds demo data once: when the demo customer exists already, nothing is touched, so restarts
 * (or several instances starting together) never duplicate it.
 */
export async function seedDemo(ctx: AppContext): Promise<void> {
  await insertCoupons(ctx.db, demoCoupons);
  await seedDemoStaff(ctx);
  const existing = await ctx.db
    .selectFrom('customers')
    .select('id')
    .where('email', '=', demoCustomer.email)
    .executeTakeFirst();
  if (existing) return;
  const now = ctx.clock.now().toISOString();
  const passwordHash = await hashPassword(demoCustomer.password);
  await ctx.db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('customers')
      .values({
        leads_id: 'Ldemo0000000000000001',
        email: demoCustomer.email,
        first_name: demoCustomer.firstName,
        last_name: demoCustomer.lastName,
        password_hash: passwordHash,
        dob: '1988-04-12',
        phone: '5550100123',
        phone_verified_at: now,
        // The demo's address is the README's to use: it counts as confirmed (decision 016).
        email_verified_at: now,
        sms_allow: 1,
        clicks_id: null,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('email').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return;
    const customerId = inserted.id;
    const address = {
      address: '1200 Harbor Street',
      address2: 'Apt 4B',
      city: 'Portland',
      state: 'OR',
      zip: '97201',
      country: 'US',
    };
    await trx
      .insertInto('customer_addresses')
      .values([
        { customer_id: customerId, kind: 'shipping', ...address, updated_at: now },
        { customer_id: customerId, kind: 'billing', ...address, updated_at: now },
      ])
      .execute();
    await seedDemoOrders(trx, customerId, address, ctx.clock.now());
    await seedDemoSubscriptions(trx, customerId, ctx.clock.now());
    await seedDemoVisit(trx, customerId, ctx.clock.now());
    await trx
      .insertInto('payment_methods')
      .values({
        customer_id: customerId,
        // Like the test card 4000 0000 0000 0341: saved, but every charge fails — the demo's
        // failed renewal waits for the customer to update their card.
        gateway_token: 'sim_fail_demo',
        brand: 'Visa',
        last4: '0341',
        exp_month: 12,
        exp_year: 2029,
        updated_at: now,
      })
      .execute();
  });
}

const DAY = 24 * 60 * 60_000;

interface DemoOrder {
  number: string;
  daysAgo: number;
  status: OrderStatus;
  paymentStatus: string;
  refundCents?: number;
  tracking?: string;
  declineReason?: string;
  kind: 'store' | 'renewal' | 'visit';
  items: {
    productId: number;
    name: string;
    image: string;
    category: string;
    frequency: string;
    priceCents: number;
    quantity: number;
  }[];
}

/**
 * DESIGN §10: past orders that show every state the orders page has: shipped with a tracking number,
 * delivered with a partial refund, a renewal whose payment failed (it sets billingFlag), and a visit a
 * provider declined.
 */
const demoOrders: DemoOrder[] = [
  {
    number: 'PW-100101',
    daysAgo: 74,
    status: 'DELIVERED',
    paymentStatus: 'partially_refunded',
    refundCents: 500,
    kind: 'store',
    items: [
      {
        productId: 160,
        name: 'Holiday Bundle Special (Sleep, Hair, and Immunity Gummies)',
        image: '/images/supp-bundle.webp',
        category: 'supplements',
        frequency: 'ONE_TIME',
        priceCents: 2499,
        quantity: 1,
      },
    ],
  },
  {
    number: 'PW-100102',
    daysAgo: 41,
    status: 'DECLINED',
    paymentStatus: 'voided',
    declineReason:
      'Your answers suggest a medicine you take could interact with this treatment. Please talk to your primary care provider first.',
    kind: 'visit',
    items: [
      {
        productId: 0,
        name: 'Finasteride 1 mg tablets',
        image: '/images/program-hair.svg',
        category: 'hair',
        frequency: 'MONTHLY',
        priceCents: 3000,
        quantity: 1,
      },
    ],
  },
  {
    number: 'PW-100103',
    daysAgo: 12,
    status: 'SHIPPED',
    paymentStatus: 'paid',
    tracking: '9400111899223197428490',
    kind: 'store',
    items: [
      {
        productId: 40,
        name: 'Sleep Gummies',
        image: '/images/supp-sleep.webp',
        category: 'supplements',
        frequency: 'ONE_TIME',
        priceCents: 2499,
        quantity: 2,
      },
      {
        productId: 36,
        name: 'Immunity Gummies',
        image: '/images/supp-immunity.webp',
        category: 'supplements',
        frequency: 'MONTHLY',
        priceCents: 1750,
        quantity: 1,
      },
    ],
  },
  {
    number: 'PW-100104',
    daysAgo: 3,
    status: 'PAYMENT_FAILED',
    paymentStatus: 'unpaid',
    kind: 'renewal',
    items: [
      {
        productId: 31,
        name: 'Biotin Gummies',
        image: '/images/supp-biotin.webp',
        category: 'supplements',
        frequency: 'MONTHLY',
        priceCents: 1750,
        quantity: 1,
      },
    ],
  },
];

/**
 * What the payment ledger says about a demo order (issue 26: each shows as a line on it): a paid
 * order's charge and refund, a declined visit's hold and its release, a renewal's three declines.
 */
function demoPayments(
  order: DemoOrder,
  totalCents: number,
): {
  operation: 'charge' | 'authorize' | 'release' | 'refund';
  purpose: string;
  status: 'succeeded' | 'failed';
  amountCents: number;
  afterDays: number;
}[] {
  const call = (
    operation: 'charge' | 'authorize' | 'release' | 'refund',
    purpose: string,
    afterDays: number,
    status: 'succeeded' | 'failed' = 'succeeded',
    amountCents = totalCents,
  ) => ({ operation, purpose, status, amountCents, afterDays });
  switch (order.paymentStatus) {
    case 'paid':
    case 'partially_refunded':
      return [
        call('charge', 'checkout', 0),
        ...(order.refundCents ? [call('refund', 'refund', 6, 'succeeded', order.refundCents)] : []),
      ];
    case 'voided':
      return [call('authorize', 'visit', 0), call('release', 'decline', 1)];
    case 'unpaid':
      return [
        call('charge', 'renewal', 0, 'failed'),
        call('charge', 'retry', 1, 'failed'),
        call('charge', 'retry', 2, 'failed'),
      ];
    default:
      return [];
  }
}

async function seedDemoOrders(
  trx: Kysely<Database>,
  customerId: number,
  address: {
    address: string;
    address2: string;
    city: string;
    state: string;
    zip: string;
    country: string;
  },
  now: Date,
): Promise<void> {
  for (const order of demoOrders) {
    const at = new Date(now.getTime() - order.daysAgo * DAY).toISOString();
    const subtotal = order.items.reduce((sum, item) => sum + item.priceCents * item.quantity, 0);
    const inserted = await trx
      .insertInto('orders')
      .values({
        order_number: order.number,
        customer_id: customerId,
        kind: order.kind,
        status: order.status,
        payment_status: order.paymentStatus,
        subtotal_cents: subtotal,
        discount_cents: 0,
        total_cents: subtotal,
        refund_cents: order.refundCents ?? 0,
        coupon_code: null,
        tracking_number: order.tracking ?? null,
        decline_reason: order.declineReason ?? null,
        ship_address: address.address,
        ship_address2: address.address2,
        ship_city: address.city,
        ship_state: address.state,
        ship_zip: address.zip,
        ship_country: address.country,
        click_id: null,
        idempotency_key: null,
        charge_id:
          order.paymentStatus === 'paid' || order.paymentStatus === 'partially_refunded'
            ? `ch_demo_${order.number}`
            : null,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (order.paymentStatus === 'paid' || order.paymentStatus === 'partially_refunded') {
      // The simulator's record of the payment, so operations can refund it.
      await trx
        .insertInto('simulator_charges')
        .values({
          id: `ch_demo_${order.number}`,
          idempotency_key: `demo:${order.number}`,
          token: 'sim_ok_demo',
          amount_cents: subtotal,
          status: 'succeeded',
          failure_message: null,
          created_at: at,
        })
        .execute();
      if (order.refundCents) {
        await trx
          .insertInto('simulator_refunds')
          .values({
            id: `re_demo_${order.number}`,
            idempotency_key: `demo-refund:${order.number}`,
            charge_id: `ch_demo_${order.number}`,
            amount_cents: order.refundCents,
            created_at: at,
          })
          .execute();
      }
    }
    await trx
      .insertInto('payment_ledger')
      .values(
        demoPayments(order, subtotal).map((call, index) => {
          const when = new Date(
            now.getTime() - (order.daysAgo - call.afterDays) * DAY,
          ).toISOString();
          return {
            operation: call.operation,
            purpose: call.purpose,
            idempotency_key: `demo:${order.number}:${index}`,
            order_id: inserted.id,
            visit_id: null,
            subscription_id: null,
            billing_period: null,
            amount_cents: call.amountCents,
            status: call.status,
            source_ref: null,
            gateway_ref: call.status === 'succeeded' ? `demo_${order.number}_${index}` : null,
            failure: call.status === 'failed' ? 'Your card was declined.' : null,
            staff_id: null,
            staff_ip: null,
            details: null,
            claimed_until: null,
            created_at: when,
            updated_at: when,
          };
        }),
      )
      .execute();
    await trx
      .insertInto('order_items')
      .values(
        order.items.map((item) => ({
          order_id: inserted.id,
          product_id: item.productId,
          product_name: item.name,
          product_image: item.image,
          category: item.category,
          frequency: item.frequency,
          unit_price_cents: item.priceCents,
          quantity: item.quantity,
        })),
      )
      .execute();
  }
}

/** Demo coupons, listed in the README: one for a first order, one with a minimum, one expired. */
export const demoCoupons: Omit<CouponRow, 'usedCount'>[] = [
  {
    code: 'WELCOME10',
    description: '10% off your first order',
    kind: 'percent',
    value: 10,
    minSubtotalCents: null,
    expiresAt: null,
    usageLimit: null,
    firstOrderOnly: true,
    active: true,
  },
  {
    code: 'GUMMY5',
    description: '$5.00 off orders of $30.00 or more',
    kind: 'fixed',
    value: 500,
    minSubtotalCents: 3000,
    expiresAt: null,
    usageLimit: 1000,
    firstOrderOnly: false,
    active: true,
  },
  {
    code: 'SUMMER25',
    description: '25% off (summer 2026)',
    kind: 'percent',
    value: 25,
    minSubtotalCents: null,
    expiresAt: '2026-09-01T00:00:00.000Z',
    usageLimit: null,
    firstOrderOnly: false,
    active: true,
  },
];

/**
 * DESIGN §10: an active monthly subscription, and the Biotin subscription whose renewal
 * (PW-100104) failed: it is past due, two retries have failed, the last one is due in four days.
 */
async function seedDemoSubscriptions(
  trx: Kysely<Database>,
  customerId: number,
  now: Date,
): Promise<void> {
  const day = (offset: number) => new Date(now.getTime() + offset * DAY).toISOString().slice(0, 10);
  const nowIso = now.toISOString();
  const nextSleep = day(9);
  await trx
    .insertInto('subscriptions')
    .values({
      customer_id: customerId,
      product_id: 41,
      frequency: 'MONTHLY',
      quantity: 1,
      unit_price_cents: 1750,
      status: 'ACTIVE',
      next_billing_date: nextSleep,
      billing_anchor_day: Number(nextSleep.slice(8, 10)),
      paused_until: null,
      cancelled_at: null,
      cancel_reason: null,
      created_order_id: null,
      created_at: nowIso,
      updated_at: nowIso,
    })
    .execute();
  const failedPeriod = day(-3);
  const biotin = await trx
    .insertInto('subscriptions')
    .values({
      customer_id: customerId,
      product_id: 31,
      frequency: 'MONTHLY',
      quantity: 1,
      unit_price_cents: 1750,
      status: 'PAST_DUE',
      next_billing_date: failedPeriod,
      billing_anchor_day: Number(failedPeriod.slice(8, 10)),
      paused_until: null,
      cancelled_at: null,
      cancel_reason: null,
      created_order_id: null,
      created_at: nowIso,
      updated_at: nowIso,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('orders')
    .set({
      subscription_id: biotin.id,
      billing_period: failedPeriod,
      idempotency_key: `renewal:${biotin.id}:${failedPeriod}`,
      payment_attempts: 3,
      next_retry_at: new Date(now.getTime() + 4 * DAY).toISOString(),
      payment_failure: 'Your card was declined.',
    })
    .where('order_number', '=', 'PW-100104')
    .execute();
}

/**
 * DESIGN §10: a provider and an operations user for the staff console, with fixed TOTP secrets
 * printed in the README so anyone can add them to an authenticator app. Never in production.
 */
export const demoStaff = [
  {
    email: 'provider@pairwell.test',
    password: 'pairwell-provider',
    name: 'Dr. Maya Chen, MD',
    role: 'provider' as const,
    totpSecret: 'JBSWY3DPEHPK3PXP',
    licensedStates: ['CA', 'FL', 'NY', 'OR', 'TX', 'WA'],
    // Issue 29: what her prescriptions name (CMS's own example NPI, which passes the Luhn check).
    npi: '1234567893',
    licences: ['CA', 'FL', 'NY', 'OR', 'TX', 'WA'].map((state, i) => ({
      state,
      number: `${state}-MD-${String(48213 + i * 1117)}`,
      expiresOn: '2028-06-30',
    })),
  },
  {
    email: 'ops@pairwell.test',
    password: 'pairwell-ops',
    name: 'Sam Ortiz',
    role: 'operations' as const,
    totpSecret: 'KVKFKRCPNZQUYMLX',
    licensedStates: [],
  },
];

async function seedDemoStaff(ctx: AppContext): Promise<void> {
  for (const staff of demoStaff) {
    const existing = await ctx.db
      .selectFrom('staff_users')
      .select('id')
      .where('email', '=', staff.email)
      .executeTakeFirst();
    // A demo database made before licences were recorded (migration 0037) gains them.
    if (existing) await addCredentials(ctx, existing.id, staff);
    else await createStaff(ctx, { ...staff, passwordHash: await hashPassword(staff.password) });
  }
}

/** DESIGN §10: a pending visit order with a Finish button — a Sleep visit left at the questions. */
async function seedDemoVisit(trx: Kysely<Database>, customerId: number, now: Date): Promise<void> {
  const questionnaire = latestQuestionnaire('sleep');
  const at = new Date(now.getTime() - 2 * DAY).toISOString();
  const dob = '1988-04-12';
  const visit = await trx
    .insertInto('visits')
    .values({
      customer_id: customerId,
      category: 'sleep',
      status: 'IN_PROGRESS',
      step: 'questions',
      questionnaire_id: questionnaire.id,
      questionnaire_version: questionnaire.version,
      current_link_id: null,
      state: 'OR',
      dob,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // Past eligibility, the visit has answered what it knows (the age from this date of birth).
  const birth = parseUsDate(usDateFromIso(dob));
  const age = birth ? ageOn(birth, calendarDateOf(new Date(at))) : undefined;
  const known = Object.entries(knownAnswers(questionnaire, age === undefined ? {} : { age }));
  if (known.length > 0)
    await trx
      .insertInto('visit_answers')
      .values(
        known.map(([linkId, value]) => ({
          visit_id: visit.id,
          link_id: linkId,
          value: JSON.stringify(value),
          answered_at: at,
        })),
      )
      .execute();
}
