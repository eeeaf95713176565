// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outboxApi, type OutboxProblem } from '#shared/outbox.ts';
import { reviewsApi } from '#shared/reviews.ts';
import { clearToasts } from '#client/components/ui/toast.tsx';
import { failure, renderRoutes, stub, stubApi } from '#client/testing/render-app.tsx';
import { loggedIn, ops, provider } from '#client/testing/staff-fixtures.ts';
import { StaffLayout } from '#client/features/staff/components/staff-layout.tsx';
import { StaffHomePage } from '#client/features/staff/pages/staff-home-page.tsx';
import { StaffOutboxPage } from './pages/staff-outbox-page.tsx';

const routes: RouteObject[] = [
  {
    element: <StaffLayout />,
    children: [
      { path: '/staff', element: <StaffHomePage /> },
      { path: '/staff/outbox', element: <StaffOutboxPage /> },
    ],
  },
];

const failedConfirmation: OutboxProblem = {
  outbox_id: 31,
  kind: 'email',
  recipient: 'r***@example.test',
  subject: 'Your Pairwell order PW-100112',
  status: 'failed',
  attempts: 6,
  last_error: 'SMTP 550 EENVELOPE',
  created_at: '2026-11-20T09:00:00.000Z',
  next_attempt_at: null,
};
const lateCode: OutboxProblem = {
  outbox_id: 32,
  kind: 'sms',
  recipient: '***0142',
  subject: 'Text message',
  status: 'pending',
  attempts: 3,
  last_error: 'ESOCKET',
  created_at: '2026-11-20T10:00:00.000Z',
  next_attempt_at: '2026-11-20T10:36:10.000Z',
};

beforeEach(() => {
  window.innerWidth = 1280;
});
afterEach(() => {
  cleanup();
  clearToasts();
});

describe('the outbox in the staff console', () => {
  it('lists messages that were not sent, without their words, and sends one again from the keyboard', async () => {
    const u = userEvent.setup();
    const api = stubApi([
      loggedIn(ops),
      stub(outboxApi.problems, { messages: [failedConfirmation, lateCode] }),
      stub(outboxApi.retry, {
        messages: [{ ...failedConfirmation, status: 'pending', attempts: 0 }, lateCode],
      }),
    ]);
    renderRoutes(routes, { path: '/staff/outbox' });

    expect(await screen.findByRole('heading', { level: 1, name: 'Outbox' })).toBeTruthy();
    expect(document.title).toBe('Outbox — Pairwell Staff');
    expect(
      await screen.findByText('1 message has failed; 1 is waiting longer than it should.'),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Outbox' }).getAttribute('aria-current')).toBe('page');

    const confirmation = screen.getByRole('article', { name: 'Your Pairwell order PW-100112' });
    expect(within(confirmation).getByText('Failed')).toBeTruthy();
    expect(
      within(confirmation).getByText(
        'Email to r***@example.test · 6 attempts · Last error: SMTP 550 EENVELOPE',
      ),
    ).toBeTruthy();
    const code = screen.getByRole('article', { name: 'Text message' });
    expect(within(code).getByText('Waiting to send')).toBeTruthy();
    expect(
      within(code).getByText('Text to ***0142 · 3 attempts · Last error: ESOCKET'),
    ).toBeTruthy();
    expect(within(code).getByText(/Next try/)).toBeTruthy();

    // Tab to the first "Send again" (it is described by its message's subject) and press Enter.
    const sendAgain = within(confirmation).getByRole('button', { name: 'Send again' });
    expect(sendAgain.getAttribute('aria-describedby')).toBe(
      within(confirmation).getByRole('heading', { level: 2 }).id,
    );
    while (document.activeElement !== sendAgain) await u.tab();
    await u.keyboard('{Enter}');
    await waitFor(() =>
      expect(api.callsTo(outboxApi.retry)[0]).toEqual({
        outbox_id: 31,
      }),
    );
    expect(await screen.findByText('Queued to send again')).toBeTruthy();
    expect(screen.getByText(outboxApi.retry.message)).toBeTruthy();
    expect(
      await within(confirmation).findByText('Waiting to send', {}, { timeout: 2000 }),
    ).toBeTruthy();
  });

  it('says when the message cannot be sent again, and when nothing is waiting', async () => {
    const u = userEvent.setup();
    stubApi([
      loggedIn(ops),
      stub(outboxApi.problems, { messages: [failedConfirmation] }),
      stub(outboxApi.retry, failure(409, 'MESSAGE_SENT', 'This message has been sent already.')),
    ]);
    renderRoutes(routes, { path: '/staff/outbox' });
    await u.click(await screen.findByRole('button', { name: 'Send again' }));
    expect(await screen.findByText('This message has been sent already.')).toBeTruthy();
    cleanup();

    stubApi([loggedIn(ops), stub(outboxApi.problems, { messages: [] })]);
    renderRoutes(routes, { path: '/staff/outbox' });
    expect(await screen.findByText('Every email and text message has been sent.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Nothing to do' })).toBeTruthy();
  });

  it('is for operations staff: a provider goes back to their queue and has no Outbox link', async () => {
    const api = stubApi([
      loggedIn(provider),
      stub(reviewsApi.queue, { visits: [], pharmacy_rejections: [], requests: [] }),
    ]);
    renderRoutes(routes, { path: '/staff/outbox' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Review queue' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Outbox' })).toBeNull();
    expect(api.callsTo(outboxApi.problems)).toEqual([]);
  });
});
