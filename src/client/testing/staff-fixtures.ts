import type { StaffOrderDetail } from '#shared/operations.ts';
import { staffApi, type StaffUser } from '#shared/staff.ts';
import { stub, type Stub } from './render-app.tsx';

/** The demo's operations staff member, as the staff session call describes them. */
export const ops: StaffUser = {
  id: 2,
  email: 'ops@pairwell.test',
  name: 'Sam Ortiz',
  role: 'operations',
  licensed_states: [],
};

/** The demo's provider, licensed in California and Oregon. */
export const provider: StaffUser = {
  id: 1,
  email: 'provider@pairwell.test',
  name: 'Dr. Maya Chen, MD',
  role: 'provider',
  licensed_states: ['CA', 'OR'],
};

/** The staff session call, stubbed for a logged-in staff member. */
export const loggedIn = (staff: StaffUser): Stub =>
  stub(staffApi.me, { authenticated: true, staff });

/** A store order as the staff order call answers it, paid and waiting to ship. */
export function buildOrder(overrides: Partial<StaffOrderDetail> = {}): StaffOrderDetail {
  return {
    orders_id: 12,
    order_number: 'PW-100112',
    order_status: 'PROCESSING',
    payment_status: 'paid',
    order_date: '2026-05-04T16:20:00.000Z',
    total_cents: 3500,
    refund_cents: 0,
    customer_name: 'Robin Hale',
    customer_email: 'robin@example.test',
    item_count: 2,
    tracking_number: null,
    customer_id: 77,
    kind: 'store',
    subtotal_cents: 3500,
    discount_cents: 0,
    coupon_code: null,
    items: [
      {
        product_name: 'Sleep Gummies',
        category: 'supplements',
        quantity: 2,
        unit_price_cents: 1750,
      },
    ],
    shipping: {
      address: '88 Alder Road',
      address2: '',
      city: 'Bend',
      state: 'OR',
      zip: '97701',
      country: 'US',
    },
    actions: ['ship', 'refund', 'cancel'],
    partner: null,
    ships_to_partner: null,
    together: null,
    disputes: [],
    fraud_warnings: [],
    processor: null,
    ...overrides,
  };
}
