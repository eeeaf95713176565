// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearToasts } from '#client/components/ui/toast.tsx';
import {
  resetAppStateForTests,
  setLeadsId,
  setLoggedIn,
  setOnlineVisitUser,
} from '#client/lib/app-state.ts';
import { buildClosedVisit, memberStubs } from '#client/testing/member-fixtures.ts';
import { memberRoutes } from '#client/testing/member-routes.tsx';
import { failure, renderRoutes, stub, stubApi } from '#client/testing/render-app.tsx';
import { visitsApi, type ClosedVisit } from '#shared/visits.ts';
import { VisitLayout } from '../components/visit-layout.tsx';
import { IneligiblePage } from './ineligible-page.tsx';
import { NotAFitPage } from './not-a-fit-page.tsx';

const routes = [
  {
    path: '/visit/:category',
    element: <VisitLayout />,
    children: [
      { path: 'ineligible', element: <IneligiblePage /> },
      { path: 'not-a-fit', element: <NotAFitPage /> },
    ],
  },
];

const notAFit = buildClosedVisit({
  category: 'ed',
  kind: 'not-a-fit',
  reason: 'Nitrate medicines taken with ED medicines can make your blood pressure drop suddenly.',
  state: 'OR',
  state_name: 'Oregon',
  state_closed: false,
  review_available: true,
  supplement_slug: null,
});

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetAppStateForTests();
  // These screens are a patient's: a visitor's check shows its own answer (start-visit-page.test).
  setLoggedIn(true);
});
afterEach(() => {
  cleanup();
  clearToasts();
});

describe('a visit closed for the state', () => {
  it('says why from the server, offers the supplement and “Tell me when Alabama opens”, once', async () => {
    const u = userEvent.setup();
    setOnlineVisitUser({ visits: { hair: 42 } });
    let joined = false;
    const api = stubApi([
      stub(visitsApi.closedVisit, () => buildClosedVisit({ waitlisted: joined })),
      stub(visitsApi.joinWaitlist, () => {
        joined = true;
        return { state: 'AL', state_name: 'Alabama' };
      }),
    ]);
    renderRoutes(routes, { path: '/visit/hair/ineligible' });
    expect(
      await screen.findByRole('heading', {
        name: "We can't offer this online visit to you right now",
      }),
    ).toBeTruthy();
    expect(screen.getByText(/people living in Alabama/)).toBeTruthy();
    expect(screen.getByText(/This visit is closed, and nothing has been charged/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See the supplement' }).getAttribute('href')).toBe(
      '/shop/biotin-gummies',
    );
    await u.click(screen.getByRole('button', { name: 'Tell me when Alabama opens' }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        "We'll email you once when online visits open in Alabama.",
      ),
    );
    expect(screen.queryByRole('button', { name: 'Tell me when Alabama opens' })).toBeNull();
    expect(api.callsTo(visitsApi.joinWaitlist)).toEqual([{ visit_id: 42 }]);
  });

  it('offers to start again once the state has opened', async () => {
    setOnlineVisitUser({ visits: { hair: 42 } });
    stubApi([
      stub(visitsApi.closedVisit, buildClosedVisit({ state_closed: false, state_open: true })),
    ]);
    renderRoutes(routes, { path: '/visit/hair/ineligible' });
    expect(
      await screen.findByRole('heading', { name: 'Online visits are now open in Alabama' }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Start your visit' }).getAttribute('href')).toBe(
      '/visit/hair',
    );
    expect(screen.queryByRole('button', { name: /Tell me when/ })).toBeNull();
  });

  it('a visit that is not closed offers the way back to it', async () => {
    setOnlineVisitUser({ visits: { hair: 42 } });
    stubApi([stub(visitsApi.closedVisit, failure(409, 'VISIT_STEP', 'This visit is not closed.'))]);
    renderRoutes(routes, { path: '/visit/hair/ineligible' });
    expect(await screen.findByRole('link', { name: 'Go to my visit' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('This visit is not closed.');
  });
});

describe('a visit closed as not a fit', () => {
  it("offers a provider's review, and then says what happens next", async () => {
    const u = userEvent.setup();
    setOnlineVisitUser({ visits: { ed: 7 } });
    let visit: ClosedVisit = { ...notAFit, visit_id: 7 };
    const api = stubApi([
      stub(visitsApi.closedVisit, () => visit),
      stub(visitsApi.requestReview, () => {
        visit = { ...visit, kind: 'review-requested', review_available: false };
        return { destination: '/visit/ed/not-a-fit' };
      }),
    ]);
    renderRoutes(routes, { path: '/visit/ed/not-a-fit' });
    expect(
      await screen.findByRole('heading', { name: "Online treatment isn't the right fit for you" }),
    ).toBeTruthy();
    expect(screen.getByText(notAFit.reason)).toBeTruthy();
    await u.click(screen.getByRole('button', { name: 'Ask a provider to review' }));
    expect(
      await screen.findByRole('heading', { name: 'A provider will review your answers' }),
    ).toBeTruthy();
    expect(screen.getByText(/write to you in Messages/)).toBeTruthy();
    expect(
      screen.getByText('Nothing has been charged, and nothing is held on your card.'),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Messages' }).getAttribute('href')).toBe(
      '/messages',
    );
    expect(api.callsTo(visitsApi.requestReview)).toEqual([{ visit_id: 7 }]);
  });

  it('puts 988 up front when the reason names it', async () => {
    setOnlineVisitUser({ visits: { sleep: 8 } });
    const reason = 'If you are thinking about harming yourself, call or text 988 now.';
    stubApi([stub(visitsApi.closedVisit, { ...notAFit, category: 'sleep', visit_id: 8, reason })]);
    renderRoutes(routes, { path: '/visit/sleep/not-a-fit' });
    expect((await screen.findByRole('note')).textContent).toBe(reason);
  });
});

describe('Home', () => {
  it('tells about closed visits briefly, with why and the alternative, and never asks to finish them', async () => {
    setLeadsId('lead-1');
    stubApi(
      memberStubs({
        closedVisits: [
          buildClosedVisit(),
          { ...notAFit, visit_id: 7 },
          buildClosedVisit({
            visit_id: 9,
            category: 'sleep',
            kind: 'review-requested',
            reason: 'You asked a provider to review your answers.',
            state_closed: false,
            supplement_slug: 'sleep-gummies',
          }),
        ],
      }),
    );
    renderRoutes(memberRoutes, { path: '/dashboard' });
    const region = await screen.findByRole('region', { name: 'Your online visits' });
    const items = within(region).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    const [ineligible, notFit, review] = items as [HTMLElement, HTMLElement, HTMLElement];
    expect(ineligible.textContent).toContain("Closed: We're not yet able to offer");
    expect(
      within(ineligible).getByRole('button', { name: 'Tell me when Alabama opens' }),
    ).toBeTruthy();
    expect(within(ineligible).getByRole('link', { name: 'See the supplement' })).toBeTruthy();
    expect(
      within(notFit).getByRole('link', { name: 'Ask a provider to review' }).getAttribute('href'),
    ).toBe('/visit/ed');
    expect(review.textContent).toContain('You asked a provider to review your answers.');
    expect(within(review).getByRole('link', { name: 'Go to Messages' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Finish your visit' })).toBeNull();
  });
});
