// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { format, parseISO } from 'date-fns';
import type { RouteObject } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { operationsApi, type StaffOrderDetail } from '#shared/operations.ts';
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

type Dispute = StaffOrderDetail['disputes'][number];
type FraudWarning = StaffOrderDetail['fraud_warnings'][number];

function buildDispute(overrides: Partial<Dispute> = {}): Dispute {
  return {
    dispute_id: 'du_1QdisputeA',
    payment_ref: 'pi_1Qpayment',
    amount_cents: 3500,
    reason: 'product_not_received',
    status: 'needs_response',
    evidence_due_by: '2026-12-03T12:00:00.000Z',
    opened_at: '2026-11-19T12:00:00.000Z',
    closed_at: null,
    ...overrides,
  };
}

function buildWarning(overrides: Partial<FraudWarning> = {}): FraudWarning {
  return {
    warning_id: 'issfr_1Qwarning',
    payment_ref: 'pi_1Qpayment',
    fraud_type: 'made_with_stolen_card',
    actionable: true,
    warned_at: '2026-11-10T12:00:00.000Z',
    ...overrides,
  };
}

/** 'MMMM dd, yyyy H:mm' (spec §9) in the machine's time zone, as the page shows it. */
const long = (iso: string) => format(parseISO(iso), 'MMMM dd, yyyy H:mm');

async function openOrder(order: StaffOrderDetail) {
  stubApi([loggedIn(ops), stub(operationsApi.order, { order })]);
  renderRoutes(routes, { path: '/staff/orders/12' });
  await screen.findByRole('heading', { level: 1, name: 'Order PW-100112' });
}

const headings = () =>
  screen.getAllByRole('heading').map((h) => `${h.tagName} ${h.textContent ?? ''}`);

afterEach(() => {
  cleanup();
  clearToasts();
});

describe("the processor's view of an order in the console", () => {
  it('shows nothing of disputes or fraud while the processor has reported none', async () => {
    await openOrder(buildOrder());
    expect(screen.queryByRole('region', { name: 'Payment disputes' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Early fraud warning' })).toBeNull();
    expect(document.body.textContent).not.toMatch(/dispute|fraud/i);
    expect(headings()).toEqual([
      'H1 Order PW-100112',
      'H2 Actions',
      'H2 Items',
      'H2 Customer',
      'H2 Shipping address',
      'H2 Payment and delivery',
    ]);
  });

  it('puts a dispute that needs a response before the actions, with its deadline in words', async () => {
    const dispute = buildDispute();
    await openOrder(buildOrder({ disputes: [dispute] }));
    const panel = screen.getByRole('region', { name: 'Payment disputes' });
    const item = within(panel).getByRole('listitem');
    expect(item.textContent).toContain('Needs a response');
    expect(item.textContent).toContain('$35.00');
    expect(item.textContent).toContain(`ReasonProduct not received`);
    expect(item.textContent).toContain(`Opened${long(dispute.opened_at)}`);
    expect(item.textContent).not.toContain('Closed');
    // The deadline is said, not only coloured, and machine-readable for assistive technology.
    const due = within(item).getByText(long('2026-12-03T12:00:00.000Z'));
    expect(due.getAttribute('datetime')).toBe('2026-12-03T12:00:00.000Z');
    expect(due.parentElement?.textContent).toBe(`Respond by ${long('2026-12-03T12:00:00.000Z')}`);
    expect(headings()).toEqual([
      'H1 Order PW-100112',
      'H2 Payment disputes',
      'H2 Actions',
      'H2 Items',
      'H2 Customer',
      'H2 Shipping address',
      'H2 Payment and delivery',
    ]);
  });

  it('shows a won dispute as closed, without asking for a response', async () => {
    // A closed dispute may still carry the deadline it had; nothing is asked of us any more.
    const won = buildDispute({
      status: 'won',
      reason: 'fraudulent',
      amount_cents: 1750,
      closed_at: '2026-12-20T12:00:00.000Z',
    });
    const inquiry = buildDispute({
      dispute_id: 'du_1QinquiryB',
      status: 'warning_under_review',
      reason: 'general',
      evidence_due_by: null,
    });
    await openOrder(buildOrder({ disputes: [won, inquiry] }));
    const panel = screen.getByRole('region', { name: 'Payment disputes' });
    const [first, second] = within(panel).getAllByRole('listitem');
    expect(first?.textContent).toContain('Won');
    expect(first?.textContent).toContain('$17.50');
    expect(first?.textContent).toContain('ReasonFraudulent');
    expect(first?.textContent).toContain(`Closed${long('2026-12-20T12:00:00.000Z')}`);
    expect(second?.textContent).toContain('Inquiry: under review');
    expect(second?.textContent).toContain('ReasonGeneral');
    expect(panel.textContent).not.toContain('Respond by');
    expect(screen.queryByRole('region', { name: 'Early fraud warning' })).toBeNull();
  });

  it("warns of an issuer's early fraud report in words, with its date", async () => {
    const warning = buildWarning();
    await openOrder(buildOrder({ fraud_warnings: [warning] }));
    const notice = screen.getByRole('region', { name: 'Early fraud warning' });
    expect(notice.textContent).toContain(
      `The card's issuer reported this payment as fraud on ${long(warning.warned_at)}: Made with a stolen card.`,
    );
    expect(notice.textContent).toContain('Refunding the payment now can prevent a dispute.');
    expect(notice.querySelector('time')?.getAttribute('datetime')).toBe(warning.warned_at);
    expect(screen.queryByRole('region', { name: 'Payment disputes' })).toBeNull();
    expect(headings().slice(0, 3)).toEqual([
      'H1 Order PW-100112',
      'H2 Early fraud warning',
      'H2 Actions',
    ]);
  });
});
