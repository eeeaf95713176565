import { accountsApi, type AccountData, type Basics, type PatientData } from '#shared/accounts.ts';
import type { Order } from '#shared/orders.ts';
import { offers } from '#shared/catalog.ts';
import { sessionApi } from '#shared/session.ts';
import { visitsApi, type ClosedVisit } from '#shared/visits.ts';
import { stub, type Stub } from './render-app.tsx';

/** A logged-in customer as the account calls describe her, for component tests. */
export const sessionUser = {
  leads_id: 'lead-1',
  customer_id: 1042,
  first_name: 'Dana',
  last_name: 'Rivera',
  email: 'dana@example.com',
};

export function buildBasics(overrides: Partial<Basics> = {}): Basics {
  return {
    customer_id: 1042,
    leads_id: 'lead-1',
    first_name: 'Dana',
    last_name: 'Rivera',
    email: 'dana@example.com',
    cart_count: 0,
    flags: [],
    ...overrides,
  };
}

export function buildOrder(overrides: Partial<Order> = {}): Order {
  // Not annotated, so the fixture keeps compiling while the order shape grows fields.
  const base = {
    orders_id: 1,
    order_number: 'A1001',
    order_status: 'SHIPPED' as const,
    order_date: '2026-03-02T15:00:00.000Z',
    order_kind: 'store' as const,
    coupon_code: null,
    order_total: 24.99,
    order_total_cents: 2499,
    refund_amount: 0,
    refund_cents: 0,
    tracking_number: '9400100000000000000000',
    decline_reason: null,
    visit: null,
    order_items: [
      {
        product_id: offers.sleep.monthly,
        product_name: 'Sleep Gummies',
        product_image: '/images/supp-sleep.webp',
        category: 'sleep',
        quantity: 1,
        price_cents: 2499,
        frequency: 'ONE_TIME',
      },
    ],
    shippingAddress: null,
    payments: [{ kind: 'paid' as const, amount_cents: 2499, date: '2026-03-02T15:00:01.000Z' }],
  };
  return { ...base, ...overrides };
}

export function buildPatientData(orders: Order[] = []): PatientData {
  return {
    leadsId: 'lead-1',
    clicksId: null,
    billingFlag: null,
    expiredFlag: false,
    lander: {
      prospects_id: 1,
      first_name: 'Dana',
      last_name: 'Rivera',
      email: 'dana@example.com',
      flags: [],
      order_history: Object.fromEntries(orders.map((order) => [order.order_number, order])),
      has_more: false,
      next_cursor: null,
      treatment: orders.filter((order) => order.visit !== null && order.visit.state !== 'DECLINED'),
      renewals: [],
    },
  };
}

export function buildAccountData(overrides: Partial<AccountData> = {}): AccountData {
  const address = {
    address: '12 Harbor St',
    address2: '',
    city: 'Portland',
    state: 'ME',
    zip: '04101',
    country: 'US',
  };
  return {
    customer_id: 1042,
    leads_id: 'lead-1',
    email: 'dana@example.com',
    first_name: 'Dana',
    last_name: 'Rivera',
    dob: '04/12/1990',
    phoneNo: '(555) 010-0123',
    phone_verified: false,
    email_verified: true,
    pending_email: null,
    smsallow: 0,
    shipping: address,
    billing: address,
    card: { brand: 'Visa', last4: '4242', exp_month: 12, exp_year: 2030, expired: false },
    ...overrides,
  };
}

/** The stubs every member page needs: the session, the basics, the patient data (typed). */
export function memberStubs(
  options: {
    basics?: Basics;
    patientData?: PatientData;
    accountData?: AccountData;
    closedVisits?: ClosedVisit[];
  } = {},
): Stub[] {
  return [
    stub(sessionApi.verifyAuthentication, { authenticated: true, user: sessionUser }),
    stub(accountsApi.basics, options.basics ?? buildBasics()),
    stub(accountsApi.patientData, options.patientData ?? buildPatientData()),
    stub(accountsApi.accountData, options.accountData ?? buildAccountData()),
    // Home tells the patient about visits that closed as dead ends.
    stub(visitsApi.closedVisits, options.closedVisits ?? []),
  ];
}

/** A visit closed as a dead end, as `/visit/closed/` answers: ineligible in Alabama by default. */
export function buildClosedVisit(overrides: Partial<ClosedVisit> = {}): ClosedVisit {
  return {
    visit_id: 42,
    category: 'hair',
    kind: 'ineligible',
    reason:
      "We're not yet able to offer online visits to people living in Alabama. Our providers must be licensed where you live, and we're working to reach more states.",
    closed_at: '2026-05-01T12:00:00.000Z',
    state: 'AL',
    state_name: 'Alabama',
    state_closed: true,
    state_open: false,
    waitlisted: false,
    review_available: false,
    supplement_slug: 'biotin-gummies',
    ...overrides,
  };
}
