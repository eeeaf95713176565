// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { receiptsApi, type CareReceipt } from '#shared/receipts.ts';
import { AccountLayout } from '#client/features/accounts/components/account-layout.tsx';
import { RequireAuth } from '#client/features/auth/components/route-guards.tsx';
import { resetAppStateForTests, setLeadsId } from '#client/lib/app-state.ts';
import { buildPatientData, memberStubs } from '#client/testing/member-fixtures.ts';
import { failure, renderRoutes, stub, stubApi } from '#client/testing/render-app.tsx';
import { CareReceiptPage } from './pages/care-receipt-page.tsx';

const routes: RouteObject[] = [
  {
    element: <RequireAuth />,
    children: [
      {
        element: <AccountLayout />,
        children: [{ path: '/orders/care-receipt/:orderNumber', element: <CareReceiptPage /> }],
      },
    ],
  },
];

const receipt: CareReceipt = {
  order_number: 'PW-200005',
  kind: 'visit',
  patient: 'Riley Morgan',
  date_of_service: '2026-11-21',
  program: 'Erectile dysfunction treatment',
  medicine: 'Sildenafil (generic Viagra®) 50 mg',
  quantity: 6,
  amount_cents: 3000,
  refunded_cents: 500,
  prescriber: {
    name: 'Dr. Maya Chen, MD',
    npi: '1234567893',
    licence: 'OR-MD-51564 (Oregon)',
  },
  pharmacy: 'Pairwell Pharmacy',
};

function renderReceipt(number: string) {
  const api = stubApi([
    ...memberStubs({ patientData: buildPatientData([]) }),
    stub(receiptsApi.careReceipt, (body) =>
      body.order_number === receipt.order_number
        ? { receipt }
        : failure(404, 'NOT_FOUND', 'We could not find a receipt for that order in your account.'),
    ),
  ]);
  renderRoutes(routes, { path: `/orders/care-receipt/${number}` });
  return api;
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetAppStateForTests();
  setLeadsId('lead-1');
  window.innerWidth = 1280;
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("a visit's receipt for an HSA or FSA claim", () => {
  it('itemises the patient, date of service, medicine, prescriber with NPI, pharmacy and amount, and prints', async () => {
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    renderReceipt('PW-200005');
    const article = await screen.findByRole('article', {
      name: 'Itemised receipt for order PW-200005',
    });
    const row = (term: string) =>
      within(article).getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(row('Date of service')).toBe('Nov 21, 2026');
    expect(row('Patient')).toBe('Riley Morgan');
    expect(row('Service')).toBe(
      'Online visit with a licensed providerErectile dysfunction treatment',
    );
    expect(row('Medicine')).toBe('Sildenafil (generic Viagra®) 50 mgQuantity 6');
    expect(row('Prescriber')).toBe('Dr. Maya Chen, MDNPI 1234567893Licence OR-MD-51564 (Oregon)');
    expect(row('Pharmacy')).toBe('Pairwell Pharmacy');
    expect(row('Charged')).toBe('$30.00');
    expect(row('Refunded')).toBe('−$5.00');
    expect(row('Amount paid')).toBe('$25.00');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledOnce();
  });

  it("says so for an order that has none (not charged yet, or not the patient's)", async () => {
    renderReceipt('PW-999999');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Receipt not found' }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Orders' }).getAttribute('href')).toBe(
      '/orders',
    );
  });
});
