// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearToasts } from '#client/components/ui/toast.tsx';
import { partnersApi, type PartnerOverview } from '#shared/partners.ts';
import { LocationProbe, renderRoutes, stub, stubApi } from '#client/testing/render-app.tsx';
import { TogetherCard } from './together-card.tsx';
import { TogetherForVisits } from './visit-invitations.tsx';

afterEach(() => {
  cleanup();
  clearToasts();
});

const received = (started: boolean): PartnerOverview['visit_invitations']['received'][number] => ({
  invitation_id: 7,
  from_first_name: 'Alex',
  program: 'sleep',
  started,
  start_path: '/visit/sleep',
  sent_at: '2026-11-24T10:00:00.000Z',
});

function overview(visits: PartnerOverview['visit_invitations']): PartnerOverview {
  return {
    partner: {
      first_name: 'Alex',
      linked_at: '2026-11-20T10:00:00.000Z',
      shares_with_you: { address: false, orders: false, subscriptions: false },
    },
    you_share: { address: false, orders: false, subscriptions: false },
    sent: null,
    received: [],
    history: [],
    visit_invitations: visits,
    email_verified: true,
  };
}

describe("Home's Together card: a visit invitation from the partner", () => {
  it('says only that the partner thinks a visit might be worth a look, links to the start and dismisses', async () => {
    const u = userEvent.setup();
    let answered = false;
    const api = stubApi([
      stub(partnersApi.overview, () =>
        overview({ can_send: [], received: answered ? [] : [received(false)] }),
      ),
      stub(partnersApi.visitInviteDismiss, () => {
        answered = true;
        return {};
      }),
    ]);
    renderRoutes(
      [
        { path: '/dashboard', element: <TogetherCard leadsId="lead-1" /> },
        { path: '/visit/sleep', element: <LocationProbe /> },
      ],
      { path: '/dashboard' },
    );
    const card = await screen.findByRole('region', { name: 'Together' });
    expect(
      await within(card).findByText('Alex thinks a Sleep visit might be worth a look.'),
    ).toBeTruthy();
    expect(within(card).queryByText(/started a Sleep visit/)).toBeNull();
    expect(within(card).getByRole('link', { name: 'Start your visit' }).getAttribute('href')).toBe(
      '/visit/sleep',
    );
    await u.click(within(card).getByRole('button', { name: 'Dismiss the Sleep visit invitation' }));
    expect(await screen.findByText('You share with Alex: nothing yet.')).toBeTruthy();
    expect(screen.queryByText(/Sleep visit/)).toBeNull();
    expect(api.callsTo(partnersApi.visitInviteDismiss)[0]).toEqual({
      invitation_id: 7,
    });
  });

  it('says the partner started a visit only when they chose to', async () => {
    stubApi([stub(partnersApi.overview, overview({ can_send: [], received: [received(true)] }))]);
    renderRoutes([{ path: '/', element: <TogetherCard leadsId="lead-1" /> }]);
    expect(
      await screen.findByText('Alex started a Sleep visit and invited you to start yours.'),
    ).toBeTruthy();
  });
});

describe('the partner page: inviting the partner from a finished visit', () => {
  it('sends the program and the choice to say so (off unless ticked), and shows one waiting', async () => {
    const u = userEvent.setup();
    const api = stubApi([
      stub(partnersApi.visitInvite, {}),
      stub(
        partnersApi.overview,
        overview({ can_send: [{ program: 'ed', pending: true }], received: [] }),
      ),
    ]);
    renderRoutes([
      {
        path: '/',
        element: (
          <TogetherForVisits
            leadsId="lead-1"
            name="Sam"
            invitations={{ can_send: [{ program: 'ed', pending: false }], received: [] }}
          />
        ),
      },
    ]);
    const section = screen.getByRole('region', { name: 'Together for a visit' });
    const reveal = within(section).getByRole('checkbox', {
      name: 'Let Sam know I started a visit',
    });
    expect((reveal as HTMLInputElement).checked).toBe(false);
    await u.click(within(section).getByRole('button', { name: 'Invite Sam to an ED visit' }));
    expect(await screen.findByText('Invitation sent.')).toBeTruthy();
    expect(api.callsTo(partnersApi.visitInvite)[0]).toEqual({
      program: 'ed',
      reveal_started: false,
    });
  });

  it('shows an invitation already waiting instead of the form', () => {
    renderRoutes([
      {
        path: '/',
        element: (
          <TogetherForVisits
            leadsId="lead-1"
            name="Sam"
            invitations={{ can_send: [{ program: 'hair', pending: true }], received: [] }}
          />
        ),
      },
    ]);
    expect(
      screen.getByText('Your invitation to start a Hair visit is waiting for Sam.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Invite Sam/ })).toBeNull();
  });
});
