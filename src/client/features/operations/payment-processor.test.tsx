// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import {
  operationsApi,
  type StaffOrderDetail,
  type StaffOrderProcessor,
} from '#shared/operations.ts';
import { clearToasts } from '#client/components/ui/toast.tsx';
import { renderRoutes, stub, stubApi } from '#client/testing/render-app.tsx';
import { buildOrder, loggedIn, ops } from '#client/testing/staff-fixtures.ts';
import { StaffLayout } from '#client/features/staff/components/staff-layout.tsx';
import { StaffOrderPage } from './pages/staff-order-page.tsx';

const routes: RouteObject[] = [
  {
    element: <StaffLayout />,
    children: [{ path: '/staff/orders/:id', element: <StaffOrderPage /> }],
  },
];

const PAYMENT = 'pi_3QprocessorView';
const DASHBOARD = `https://dashboard.stripe.com/test/payments/${PAYMENT}`;

function buildProcessor(overrides: Partial<StaffOrderProcessor> = {}): StaffOrderProcessor {
  return {
    payment_id: PAYMENT,
    dashboard_url: DASHBOARD,
    risk_level: 'normal',
    capture_failure: null,
    unavailable: false,
    ...overrides,
  };
}

async function openOrder(order: StaffOrderDetail) {
  stubApi([loggedIn(ops), stub(operationsApi.order, { order })]);
  renderRoutes(routes, { path: '/staff/orders/12' });
  await screen.findByRole('heading', { level: 1, name: 'Order PW-100112' });
}

const panel = () => screen.getByRole('region', { name: 'Payment processor' });

/** A term of the panel's list and what it says, as a reader hears them together. */
function valueOf(term: string): HTMLElement {
  const dt = within(panel()).getByText(term, { selector: 'dt' });
  const dd = dt.nextElementSibling;
  if (!(dd instanceof HTMLElement) || dd.tagName !== 'DD') throw new Error(`${term} has no value`);
  return dd;
}

afterEach(() => {
  cleanup();
  clearToasts();
});

describe("the processor's view of an order's payment in the console", () => {
  it("links the payment to the processor's dashboard in a new tab, and says its risk in words", async () => {
    await openOrder(buildOrder({ processor: buildProcessor() }));
    const link = within(panel()).getByRole('link', {
      // jsdom drops the space before the screen reader's words; a browser reads it.
      name: new RegExp(`^${PAYMENT} ?\\(the processor's dashboard, opens in a new tab\\)$`),
    });
    expect(link.getAttribute('href')).toBe(DASHBOARD);
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(valueOf('Fraud risk').textContent).toBe('Normal risk');
    expect(within(panel()).queryByText('Capture failed')).toBeNull();
    // After what the order is, in the column of payment and delivery.
    expect(screen.getAllByRole('heading').map((h) => h.textContent)).toEqual([
      'Order PW-100112',
      'Actions',
      'Items',
      'Customer',
      'Shipping address',
      'Payment and delivery',
      'Payment processor',
    ]);
  });

  it('says a raised risk in words, with what to do, not by its colour alone', async () => {
    await openOrder(buildOrder({ processor: buildProcessor({ risk_level: 'elevated' }) }));
    const elevated = valueOf('Fraud risk');
    expect(within(elevated).getByText('Elevated risk').className).toContain('text-warning');
    expect(elevated.textContent).toContain('Check the order before it ships.');
    cleanup();

    await openOrder(buildOrder({ processor: buildProcessor({ risk_level: 'highest' }) }));
    const highest = valueOf('Fraud risk');
    expect(within(highest).getByText('Highest risk').className).toContain('text-danger');
    expect(highest.textContent).toContain('Consider refunding it rather than shipping.');
  });

  it.each([
    ['not_assessed', 'Not assessed'],
    ['unknown', 'Unknown'],
  ] as const)('reads a %s rating as "%s"', async (level, words) => {
    await openOrder(buildOrder({ processor: buildProcessor({ risk_level: level }) }));
    expect(valueOf('Fraud risk').textContent).toBe(words);
  });

  it("says why the hold's capture failed", async () => {
    await openOrder(
      buildOrder({
        processor: buildProcessor({
          capture_failure: 'The authorisation has expired or was released.',
        }),
      }),
    );
    expect(valueOf('Capture failed').textContent).toBe(
      'The authorisation has expired or was released.',
    );
  });

  it('says the processor could not be reached, and still names the payment', async () => {
    await openOrder(
      buildOrder({
        processor: buildProcessor({ dashboard_url: null, risk_level: null, unavailable: true }),
      }),
    );
    expect(within(panel()).queryByRole('link')).toBeNull();
    expect(valueOf('Payment ID').textContent).toBe(PAYMENT);
    expect(valueOf('Fraud risk').textContent).toMatch(
      /^The payment processor could not be reached just now/,
    );
    // The rest of the order is there as ever.
    expect(screen.getByRole('region', { name: 'Actions' })).toBeTruthy();
  });

  it('shows no processor section for an order without a processor payment', async () => {
    await openOrder(buildOrder({ processor: null }));
    expect(screen.queryByRole('region', { name: 'Payment processor' })).toBeNull();
  });
});
