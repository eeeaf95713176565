// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts } from '#client/components/ui/toast.tsx';
import { resetAppStateForTests, setOnlineVisitUser } from '#client/lib/app-state.ts';
import {
  failure,
  LocationProbe,
  renderRoutes,
  stub,
  stubApi,
} from '#client/testing/render-app.tsx';
import { visitsApi } from '#shared/visits.ts';
import { EligibilityPage } from '../pages/eligibility-page.tsx';
import { IneligiblePage } from '../pages/ineligible-page.tsx';
import { EligibilityFormView, type EligibilityOutcome } from './eligibility-form.tsx';
import { VisitLayout } from './visit-layout.tsx';

const eligible = {
  eligible: true,
  reason: null,
  supplement_slug: null,
  destination: '/visit/ed/questions',
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

function renderForm(visitId = 7) {
  const onResult = vi.fn<(outcome: EligibilityOutcome) => void>();
  render(<EligibilityFormView visitId={visitId} onResult={onResult} />);
  return { onResult };
}

/** The error message an input's aria-describedby points at (its hint aside). */
function errorOf(element: HTMLElement): string | null {
  const ids = (element.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  const error = ids
    .map((id) => document.getElementById(id))
    .find((el) => el?.id.endsWith('-error'));
  return error?.textContent ?? null;
}

const stateField = () => screen.getByLabelText<HTMLSelectElement>('State you live in');
const dobField = () => screen.getByLabelText<HTMLInputElement>('Date of birth');
const submit = () => screen.getByRole('button', { name: 'Continue' });

describe('the eligibility form', () => {
  it('asks for the state (a labelled list of US states) and the date of birth as MM/DD/YYYY', () => {
    renderForm();
    const state = stateField();
    expect(state.tagName).toBe('SELECT');
    expect(state.value).toBe('');
    const options = within(state).getAllByRole('option');
    expect(options[0]?.textContent).toBe('Choose…');
    expect(within(state).getByRole('option', { name: 'Oregon' })).toBeTruthy();
    expect(within(state).getByRole('option', { name: 'Alabama' })).toBeTruthy();
    expect(options.length).toBeGreaterThanOrEqual(51);
    const dob = dobField();
    expect(dob.getAttribute('inputmode')).toBe('numeric');
    expect(dob.getAttribute('autocomplete')).toBe('bday');
    expect(document.getElementById(dob.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'MM/DD/YYYY',
    );
  });

  it('says what is missing, on each field, and asks the server nothing', async () => {
    const u = userEvent.setup();
    const api = stubApi([]);
    const { onResult } = renderForm();
    await u.click(submit());
    expect(await screen.findByText('Choose the state you live in')).toBeTruthy();
    expect(errorOf(stateField())).toBe('Choose the state you live in');
    expect(stateField().getAttribute('aria-invalid')).toBe('true');
    expect(errorOf(dobField())).toBe('You must enter a date of birth.');
    expect(dobField().getAttribute('aria-invalid')).toBe('true');
    // The first field with a problem takes focus.
    expect(document.activeElement).toBe(stateField());
    expect(api.calls).toEqual([]);
    expect(onResult).not.toHaveBeenCalled();
  });

  it('checks the date of birth with the messages of spec §5, for ages 19 to 99', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-06-15T12:00:00Z'));
    const u = userEvent.setup();
    const api = stubApi([stub(visitsApi.eligibility, eligible)]);
    const { onResult } = renderForm();
    await u.selectOptions(stateField(), 'OR');
    const table: [string, string | null][] = [
      ['', 'You must enter a date of birth.'],
      ['1/15/2000', 'Date format must be MM/DD/YYYY.'],
      ['02/30/1990', 'Invalid date'],
      ['13/01/1990', 'Invalid date'],
      ['06/16/2007', 'Minimum age is 19'], // 19 tomorrow
      ['06/15/2007', null], // 19 today
      ['06/15/1926', 'Maximum age is 99'], // 100 today
      ['06/16/1926', null], // 99 until tomorrow
    ];
    for (const [typed, message] of table) {
      const before = api.calls.length;
      await u.clear(dobField());
      if (typed) await u.type(dobField(), typed);
      await u.click(submit());
      await waitFor(() => expect(submit().getAttribute('aria-busy')).toBeNull());
      expect(dobField().value).toBe(typed);
      expect({ typed, message: errorOf(dobField()) }).toEqual({ typed, message });
      // Only an acceptable date of birth is sent.
      expect({ typed, sent: api.calls.length - before }).toEqual({
        typed,
        sent: message === null ? 1 : 0,
      });
    }
    expect(api.calls.map((call) => call.body)).toEqual([
      { visit_id: 7, state: 'OR', dob: '06/15/2007' },
      { visit_id: 7, state: 'OR', dob: '06/16/1926' },
    ]);
    expect(onResult).toHaveBeenCalledTimes(2);
    expect(onResult).toHaveBeenLastCalledWith(eligible);
  });

  it("says 'Failed to determine eligibility' when the check fails, and may be tried again", async () => {
    const u = userEvent.setup();
    let answers = 0;
    stubApi([
      stub(visitsApi.eligibility, () => {
        answers += 1;
        return answers === 1
          ? failure(500, 'INTERNAL', 'Something went wrong on our side.')
          : eligible;
      }),
    ]);
    const { onResult } = renderForm();
    await u.selectOptions(stateField(), 'OR');
    await u.type(dobField(), '04/12/1985');
    await u.click(submit());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Failed to determine eligibility');
    expect(onResult).not.toHaveBeenCalled();

    await u.click(submit());
    await waitFor(() => expect(onResult).toHaveBeenCalledWith(eligible));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("says 'Failed to determine eligibility' when the server cannot be reached", async () => {
    const u = userEvent.setup();
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    const { onResult } = renderForm();
    await u.selectOptions(stateField(), 'TX');
    await u.type(dobField(), '04/12/1985');
    await u.click(submit());
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to determine eligibility');
    expect(onResult).not.toHaveBeenCalled();
  });

  it("puts the server's word on a field onto that field", async () => {
    const u = userEvent.setup();
    stubApi([
      stub(
        visitsApi.eligibility,
        failure(400, 'VALIDATION', 'Check the form', {
          dob: 'Minimum age is 19',
        }),
      ),
    ]);
    const { onResult } = renderForm();
    await u.selectOptions(stateField(), 'OR');
    await u.type(dobField(), '04/12/1985');
    await u.click(submit());
    await waitFor(() => expect(errorOf(dobField())).toBe('Minimum age is 19'));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(onResult).not.toHaveBeenCalled();
  });
});

describe('the eligibility screen', () => {
  const routes = [
    {
      path: '/visit/:category',
      element: <VisitLayout />,
      children: [
        { path: 'eligibility', element: <EligibilityPage /> },
        { path: 'ineligible', element: <IneligiblePage /> },
        { path: 'questions', element: <LocationProbe /> },
      ],
    },
  ];

  it('sends an eligible patient on to the health questions', async () => {
    const u = userEvent.setup();
    setOnlineVisitUser({ visits: { ed: 41 } });
    const api = stubApi([stub(visitsApi.eligibility, eligible)]);
    renderRoutes(routes, { path: '/visit/ed/eligibility' });
    expect(screen.getByRole('heading', { level: 2, name: 'First, a few details' })).toBeTruthy();
    expect(screen.getByText(/aged 19 to 99/)).toBeTruthy();
    await u.selectOptions(stateField(), 'OR');
    await u.type(dobField(), '04/12/1985');
    await u.click(submit());
    expect((await screen.findByTestId('location')).textContent).toBe('/visit/ed/questions');
    expect(api.calls.map((call) => call.body)).toEqual([
      { visit_id: 41, state: 'OR', dob: '04/12/1985' },
    ]);
  });

  it('tells a patient in a state the service does not cover why, and offers the supplement', async () => {
    const u = userEvent.setup();
    setOnlineVisitUser({ visits: { sleep: 42 } });
    const reason = 'Our providers are not yet licensed in Alabama.';
    stubApi([
      stub(visitsApi.eligibility, {
        eligible: false,
        reason,
        supplement_slug: 'sleep-gummies',
        destination: '/visit/sleep/ineligible',
      }),
      // The closed screen reads the visit as the server stored it.
      stub(visitsApi.closedVisit, {
        visit_id: 42,
        category: 'sleep',
        kind: 'ineligible',
        reason,
        closed_at: '2026-05-01T12:00:00.000Z',
        state: 'AL',
        state_name: 'Alabama',
        state_closed: true,
        state_open: false,
        waitlisted: false,
        review_available: false,
        supplement_slug: 'sleep-gummies',
      }),
    ]);
    renderRoutes(routes, { path: '/visit/sleep/eligibility' });
    await u.selectOptions(stateField(), 'AL');
    await u.type(dobField(), '04/12/1985');
    await u.click(submit());
    expect(
      await screen.findByRole('heading', {
        name: "We can't offer this online visit to you right now",
      }),
    ).toBeTruthy();
    expect(screen.getByText(reason)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See the supplement' }).getAttribute('href')).toBe(
      '/shop/sleep-gummies',
    );
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});
