// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renewalsApi } from '#shared/renewals.ts';
import { clearToasts } from '#client/components/ui/toast.tsx';
import { getAppState, resetAppStateForTests } from '#client/lib/app-state.ts';
import {
  failure,
  LocationProbe,
  renderRoutes,
  stub,
  stubApi,
} from '#client/testing/render-app.tsx';
import { VisitLayout } from '#client/features/visits/components/visit-layout.tsx';
import { SubmittedPage } from '#client/features/visits/pages/submitted-page.tsx';
import { RenewPage } from './pages/renew-page.tsx';
import { SendRenewalPage } from './pages/send-page.tsx';

const routes = [
  {
    path: '/visit/:category',
    element: <VisitLayout />,
    children: [
      { path: 'renew', element: <RenewPage /> },
      { path: 'send', element: <SendRenewalPage /> },
      { path: 'submitted', element: <SubmittedPage /> },
      { path: 'questions', element: <LocationProbe /> },
    ],
  },
];

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetAppStateForTests();
});
afterEach(() => {
  cleanup();
  clearToasts();
});

describe('renewing a prescription', () => {
  it('opens the renewal at its questions and remembers it as this program’s renewal', async () => {
    const api = stubApi([
      stub(renewalsApi.startRenewal, { visit_id: 31, destination: '/visit/ed/questions' }),
    ]);
    renderRoutes(routes, { path: '/visit/ed/renew' });
    expect((await screen.findByTestId('location')).textContent).toBe('/visit/ed/questions');
    expect(api.callsTo(renewalsApi.startRenewal)).toEqual([{ category: 'ed' }]);
    expect(getAppState().onlineVisit.user).toMatchObject({
      visits: { ed: 31 },
      renewals: { ed: 31 },
    });
    // The frame is a renewal's: two steps, the first here.
    expect(screen.getByText('Prescription renewal')).toBeTruthy();
    expect(screen.getByText('Step 1 of 2: Your answers')).toBeTruthy();
  });

  it('says so, with a way on, when there is nothing to renew', async () => {
    stubApi([
      stub(
        renewalsApi.startRenewal,
        failure(
          404,
          'NOT_FOUND',
          'You have no ED prescription to renew right now. We will tell you on Home when it is time.',
        ),
      ),
    ]);
    renderRoutes(routes, { path: '/visit/ed/renew' });
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Nothing to renew right now' }),
    ).toBeTruthy();
    expect(screen.getByText(/We will tell you on Home when it is time/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to my account' })).toBeTruthy();
  });

  it('sends the answers only once the patient confirms them, then says nothing was charged', async () => {
    const u = userEvent.setup();
    const api = stubApi([
      stub(renewalsApi.startRenewal, { visit_id: 31, destination: '/visit/ed/send' }),
      stub(renewalsApi.sendRenewal, { destination: '/visit/ed/submitted' }),
    ]);
    renderRoutes(routes, { path: '/visit/ed/renew' });
    await screen.findByRole('heading', { level: 2, name: 'Send your answers to your provider' });
    expect(screen.getByText('Step 2 of 2: Send to your provider')).toBeTruthy();
    await u.click(screen.getByRole('button', { name: 'Send to my provider' }));
    expect(
      await screen.findByText('Confirm that your answers are true and complete to send them'),
    ).toBeTruthy();
    expect(api.callsTo(renewalsApi.sendRenewal)).toEqual([]);
    await u.click(screen.getByRole('checkbox', { name: /My answers are true and complete/ }));
    await u.click(screen.getByRole('button', { name: 'Send to my provider' }));
    await screen.findByRole('heading', { level: 2, name: 'Your answers are with your provider' });
    expect(api.callsTo(renewalsApi.sendRenewal)).toEqual([{ visit_id: 31, confirm: true }]);
    expect(screen.getByText('Nothing has been charged for your renewal.')).toBeTruthy();
    expect(screen.getByText('All 2 steps done')).toBeTruthy();
  });

  it('shows the server’s word when the renewal cannot be sent', async () => {
    const u = userEvent.setup();
    stubApi([
      stub(renewalsApi.startRenewal, { visit_id: 31, destination: '/visit/ed/send' }),
      stub(
        renewalsApi.sendRenewal,
        failure(422, 'VISIT_STEP', 'Please answer all the questions first.'),
      ),
    ]);
    renderRoutes(routes, { path: '/visit/ed/renew' });
    await screen.findByRole('heading', { level: 2, name: 'Send your answers to your provider' });
    await u.click(screen.getByRole('checkbox', { name: /My answers are true and complete/ }));
    await u.click(screen.getByRole('button', { name: 'Send to my provider' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain(
        'Please answer all the questions first.',
      ),
    );
    expect(screen.getByRole('link', { name: 'Review my answers' }).getAttribute('href')).toBe(
      '/visit/ed/answers',
    );
  });
});
