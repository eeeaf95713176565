// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts } from '#client/components/ui/toast.tsx';
import { RequireAuth } from '#client/features/auth/components/route-guards.tsx';
import { getAppState, resetAppStateForTests, setLeadsId } from '#client/lib/app-state.ts';
import {
  failure,
  LocationProbe,
  renderRoutes,
  stub,
  stubApi,
} from '#client/testing/render-app.tsx';
import { accountsApi } from '#shared/accounts.ts';
import { authApi } from '#shared/auth.ts';
import { paths } from '#shared/paths.ts';
import { sessionApi } from '#shared/session.ts';
import { visitsApi } from '#shared/visits.ts';
import { messages } from '#shared/wording.ts';
import { VisitLayout, VisitNotFound } from '../components/visit-layout.tsx';
import { IneligiblePage } from './ineligible-page.tsx';
import { VisitAccountPage } from './account-page.tsx';
import { StartVisitPage } from './start-visit-page.tsx';

/** The visit's routes as the app has them: the start, account and ineligible screens are open. */
const routes = [
  {
    path: '/visit/:category',
    element: <VisitLayout />,
    children: [
      { index: true, element: <StartVisitPage /> },
      { path: 'account', element: <VisitAccountPage /> },
      { path: 'ineligible', element: <IneligiblePage /> },
      { path: 'submitted', element: <p>Submitted</p> },
      {
        element: <RequireAuth visitorTo={(params) => paths.visit(params.category ?? '')} />,
        children: [
          { path: 'eligibility', element: <LocationProbe /> },
          { path: 'questions', element: <LocationProbe /> },
        ],
      },
      { path: '*', element: <VisitNotFound /> },
    ],
  },
  { path: '/login', element: <LocationProbe /> },
];

const loggedOut = { authenticated: false, user: null };
const user = {
  leads_id: 'lead-77',
  customer_id: 1077,
  first_name: 'Ann',
  last_name: 'Lee',
  email: 'ann@example.com',
};

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetAppStateForTests();
});
afterEach(() => {
  cleanup();
  clearToasts();
  vi.useRealTimers();
});

const stepNow = () =>
  screen.getByRole('navigation', { name: 'Visit steps' }).querySelector('[aria-current="step"]')
    ?.textContent;

async function answerEligibility(u: UserEvent, state = 'OR', dob = '04/12/1985') {
  await u.selectOptions(await screen.findByLabelText('State you live in'), state);
  await u.type(screen.getByLabelText('Date of birth'), dob);
  await u.click(screen.getByRole('button', { name: 'Continue' }));
}

describe("a visitor's start of a visit", () => {
  it('asks eligibility first, then creates the account in the visit without asking the date of birth again, and opens the visit on its questions', async () => {
    const u = userEvent.setup();
    let visitStep = 'eligibility';
    const api = stubApi([
      stub(visitsApi.checkEligibility, {
        eligible: true,
        reason: null,
        supplement_slug: null,
        state_closed: false,
      }),
      stub(accountsApi.accountCreate, { leads_id: 'lead-77', user }),
      stub(visitsApi.startProgram, () => ({
        leads_id: 'lead-77',
        visit_id: 41,
        destination: `/visit/ed/${visitStep}`,
      })),
      stub(visitsApi.eligibility, () => {
        visitStep = 'questions';
        return {
          eligible: true,
          reason: null,
          supplement_slug: null,
          destination: '/visit/ed/questions',
        };
      }),
    ]);
    const { router } = renderRoutes(routes, { path: '/visit/ed' });

    // The first screen: the program's eligibility, no log-in.
    expect(
      await screen.findByRole('heading', { level: 2, name: 'First, a few details' }),
    ).toBeTruthy();
    expect(stepNow()).toContain('Eligibility');
    expect(screen.queryByLabelText('Password')).toBeNull();
    await answerEligibility(u);

    // The account step, inside the visit.
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Create your account' }),
    ).toBeTruthy();
    expect(router.location().pathname).toBe('/visit/ed/account');
    expect(stepNow()).toContain('Account');
    expect(api.calls[0]).toEqual({
      path: visitsApi.checkEligibility.path,
      body: { category: 'ed', state: 'OR', dob: '04/12/1985' },
    });
    // Kept for this tab only: health data never goes to local storage.
    expect(sessionStorage.getItem('pairwell-visit-eligibility')).toContain('04/12/1985');
    expect(JSON.stringify({ ...localStorage })).not.toContain('04/12/1985');
    expect(screen.queryByLabelText('Date of birth')).toBeNull();

    await u.type(screen.getByLabelText('Email'), 'ann@example.com');
    await u.type(screen.getByLabelText('First name'), 'Ann');
    await u.type(screen.getByLabelText('Last name'), 'Lee');
    await u.type(screen.getByLabelText('Password'), 'correct horse battery');
    await u.type(screen.getByLabelText('Phone'), '5550100123');
    await u.click(screen.getByRole('checkbox'));
    await u.click(screen.getByRole('button', { name: 'Create account and continue' }));

    await waitFor(() => expect(router.location().pathname).toBe('/visit/ed/questions'));
    expect(api.callsTo(accountsApi.accountCreate)[0]).toMatchObject({
      email: 'ann@example.com',
      dob: '04/12/1985',
      consent: true,
    });
    // The answers given before the account go to the visit, once; then they are forgotten.
    expect(api.callsTo(visitsApi.eligibility)).toEqual([
      { visit_id: 41, state: 'OR', dob: '04/12/1985' },
    ]);
    expect(sessionStorage.getItem('pairwell-visit-eligibility')).toBeNull();
    expect(getAppState().login.isLoggedIn).toBe(true);
    expect(api.callsTo(authApi.login)).toEqual([]);
  });

  it('tells an ineligible visitor why and offers the supplement, with no account asked for', async () => {
    const u = userEvent.setup();
    const reason =
      "We're not yet able to offer online visits to people living in Ohio. Our providers must be licensed where you live, and we're working to reach more states.";
    const api = stubApi([
      stub(visitsApi.checkEligibility, {
        eligible: false,
        reason,
        supplement_slug: 'sleep-gummies',
        state_closed: true,
      }),
      stub(visitsApi.joinVisitorWaitlist, { state: 'OH', state_name: 'Ohio' }),
    ]);
    const { router } = renderRoutes(routes, { path: '/visit/sleep' });
    await answerEligibility(u, 'OH');
    expect(await screen.findByText(reason)).toBeTruthy();
    expect(router.location().pathname).toBe('/visit/sleep/ineligible');
    expect(screen.getByRole('link', { name: 'See the supplement' }).getAttribute('href')).toBe(
      '/shop/sleep-gummies',
    );
    expect(sessionStorage.getItem('pairwell-visit-eligibility')).toBeNull();
    expect(api.calls.map((call) => call.path)).toEqual([visitsApi.checkEligibility.path]);

    // The state was the reason (issue 29): an address for one e-mail when it opens, no account.
    const join = screen.getByRole('button', { name: 'Tell me when Ohio opens' });
    await u.click(join);
    expect(await screen.findByText(messages.emailRequired)).toBeTruthy();
    await u.type(screen.getByLabelText('Email'), 'robin@example.com');
    await u.click(join);
    expect((await screen.findByRole('status')).textContent).toBe(
      "We'll email you once when online visits open in your state.",
    );
    expect(screen.queryByRole('button', { name: 'Tell me when Ohio opens' })).toBeNull();
    expect(api.callsTo(visitsApi.joinVisitorWaitlist)).toEqual([
      { state: 'OH', email: 'robin@example.com' },
    ]);

    // And a way back to choose another state, the date of birth kept.
    await u.click(screen.getByRole('link', { name: 'Change the state you live in' }));
    expect(router.location().pathname).toBe('/visit/sleep');
    const dob = await screen.findByLabelText(/Date of birth/);
    expect((dob as HTMLInputElement).value).not.toBe('');
    expect((screen.getByLabelText('State you live in') as HTMLSelectElement).value).toBe('');
  });

  it('puts a problem with the answers on its field', async () => {
    const u = userEvent.setup();
    stubApi([
      stub(
        visitsApi.checkEligibility,
        failure(400, 'VALIDATION', 'Choose the state you live in', {
          state: 'Choose the state you live in',
        }),
      ),
    ]);
    renderRoutes(routes, { path: '/visit/ed' });
    await answerEligibility(u);
    const state = screen.getByLabelText('State you live in');
    await waitFor(() => expect(state.getAttribute('aria-invalid')).toBe('true'));
  });

  it('lets a returning patient log in from the account step, and continues their visit where it was', async () => {
    const u = userEvent.setup();
    const api = stubApi([
      stub(visitsApi.checkEligibility, {
        eligible: true,
        reason: null,
        supplement_slug: null,
        state_closed: false,
      }),
      stub(authApi.login, { leads_id: 'lead-77', user }),
      stub(visitsApi.startProgram, {
        leads_id: 'lead-77',
        visit_id: 52,
        destination: '/visit/ed/questions',
      }),
    ]);
    const { router } = renderRoutes(routes, { path: '/visit/ed' });
    await answerEligibility(u);
    await screen.findByRole('heading', { level: 2, name: 'Create your account' });

    await u.click(screen.getByRole('button', { name: 'Log in' }));
    const heading = await screen.findByRole('heading', {
      level: 2,
      name: 'Log in to continue your visit',
    });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(router.location().pathname).toBe('/visit/ed/account');
    expect(screen.queryByLabelText('First name')).toBeNull();
    await u.type(screen.getByLabelText('Email'), 'ann@example.com');
    await u.type(screen.getByLabelText('Password'), 'correct horse battery');
    await u.click(screen.getByRole('button', { name: 'Log in and continue' }));

    await waitFor(() => expect(router.location().pathname).toBe('/visit/ed/questions'));
    // The visit was further along: it already had its eligibility.
    expect(api.callsTo(visitsApi.eligibility)).toEqual([]);
    expect(sessionStorage.getItem('pairwell-visit-eligibility')).toBeNull();
  });

  it('offers the log-in from the first screen too, and back to the start for a new account', async () => {
    const u = userEvent.setup();
    stubApi([]);
    const { router } = renderRoutes(routes, { path: '/visit/hair' });
    await u.click(await screen.findByRole('link', { name: 'Log in to continue your visit' }));
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Log in to continue your visit' }),
    ).toBeTruthy();
    expect(router.location().search).toBe('?mode=login');
    // A new account comes after the eligibility: the first screen asks it.
    await u.click(screen.getByRole('button', { name: 'Create an account' }));
    expect(
      await screen.findByRole('heading', { level: 2, name: 'First, a few details' }),
    ).toBeTruthy();
    expect(router.location().pathname).toBe('/visit/hair');
  });

  it('sends a visitor who opens a later screen to the start, never to /login', async () => {
    stubApi([]);
    const { router } = renderRoutes(routes, { path: '/visit/ed/questions' });
    expect(
      await screen.findByRole('heading', { level: 2, name: 'First, a few details' }),
    ).toBeTruthy();
    expect(router.location().pathname).toBe('/visit/ed');
  });

  it('sends the account step without eligibility answers back to the start', async () => {
    stubApi([]);
    const { router } = renderRoutes(routes, { path: '/visit/ed/account' });
    await screen.findByRole('heading', { level: 2, name: 'First, a few details' });
    expect(router.location().pathname).toBe('/visit/ed');
  });

  it('shows a visitor the missing page, with the programs, for a program that does not exist', async () => {
    stubApi([]);
    renderRoutes(routes, { path: '/visit/weight' });
    expect(screen.getByRole('heading', { level: 1, name: "We can't find that page" })).toBeTruthy();
    const programs = screen.getByRole('navigation', { name: 'Start an online visit' });
    expect(
      within(programs)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual(['/visit/ed', '/visit/sleep', '/visit/hair']);
  });
});

describe("a patient's start of a visit", () => {
  it('opens or resumes the visit at once, asking nothing', async () => {
    setLeadsId('lead-77');
    const api = stubApi([
      stub(sessionApi.verifyAuthentication, { authenticated: true, user }),
      stub(visitsApi.startProgram, {
        leads_id: 'lead-77',
        visit_id: 60,
        destination: '/visit/ed/eligibility',
      }),
    ]);
    const { router } = renderRoutes(routes, { path: '/visit/ed' });
    await waitFor(() => expect(router.location().pathname).toBe('/visit/ed/eligibility'));
    expect(api.calls.map((call) => call.path)).toEqual([
      sessionApi.verifyAuthentication.path,
      visitsApi.startProgram.path,
    ]);
    expect(getAppState().onlineVisit.user).toMatchObject({ visits: { ed: 60 } });
  });

  it('a visitor whose session ended sees the first screen, not the log-in page', async () => {
    setLeadsId('lead-77');
    stubApi([stub(sessionApi.verifyAuthentication, loggedOut)]);
    const { router } = renderRoutes(routes, { path: '/visit/ed' });
    await screen.findByRole('heading', { level: 2, name: 'First, a few details' });
    expect(router.location().pathname).toBe('/visit/ed');
  });
});

describe('the visit steps', () => {
  it('say every step is done once the visit is submitted, in one line for a phone', async () => {
    stubApi([stub(sessionApi.verifyAuthentication, loggedOut)]);
    renderRoutes(routes, { path: '/visit/ed/submitted' });
    const steps = await screen.findByRole('navigation', { name: 'Visit steps' });
    expect(within(steps).getByText('All 7 steps done')).toBeTruthy();
    expect(within(steps).getAllByText('(done)', { exact: false })).toHaveLength(7);
  });
});
