// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
import { VisitLayout } from '../components/visit-layout.tsx';
import { PreferencesPage } from './preferences-page.tsx';

const routes = [
  {
    path: '/visit/:category',
    element: <VisitLayout />,
    children: [
      { path: 'preferences', element: <PreferencesPage /> },
      { path: 'photo', element: <LocationProbe /> },
    ],
  },
];

const saved = {
  preferences: {
    drug: 'doxepin',
    dosage: '6mg',
    frequency: 'nightly-30',
    hair: null,
    sleep: { goal: 'stay-asleep', notes: 'I wake at 3 am.' },
  },
  destination: '/visit/sleep/photo',
};

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetAppStateForTests();
  setOnlineVisitUser({ visits: { sleep: 12, ed: 13 } });
});
afterEach(() => {
  cleanup();
  clearToasts();
});

/** The message tied to a group of choices (its fieldset's aria-describedby). */
function groupError(name: string): string | null {
  const group = screen.getByRole('group', { name });
  const id = group.getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}

describe('the treatment preferences', () => {
  it('says what is missing per group, and each message goes as soon as it is answered', async () => {
    const u = userEvent.setup();
    const api = stubApi([]);
    renderRoutes(routes, { path: '/visit/sleep/preferences' });
    // Sleep has one treatment: it is chosen already.
    const treatment = screen.getByRole('group', { name: 'Treatment' });
    expect(within(treatment).getByRole<HTMLInputElement>('radio').checked).toBe(true);
    await u.click(screen.getByRole('button', { name: 'Continue' }));
    expect(groupError('Dose')).toBe('Choose a dose');
    expect(groupError('How much each month')).toBe('Choose how often');
    expect(groupError('What do you want help with?')).toBe('Choose what you want help with');
    expect(groupError('Treatment')).toBeNull();

    await u.click(screen.getByRole('radio', { name: '3 mg' }));
    expect(groupError('Dose')).toBeNull();
    expect(screen.getByRole('radio', { name: '3 mg' }).getAttribute('aria-invalid')).toBeNull();
    expect(groupError('How much each month')).toBe('Choose how often');
    await u.click(screen.getByRole('radio', { name: /Nightly/ }));
    await u.click(screen.getByRole('radio', { name: 'Both' }));
    for (const group of ['Treatment', 'Dose', 'How much each month', 'What do you want help with?'])
      expect({ group, message: groupError(group) }).toEqual({ group, message: null });
    expect(api.calls).toEqual([]);
  });

  it('saves drug, dose, amount and the sleep goal in turn, then goes on to the photo', async () => {
    const u = userEvent.setup();
    const api = stubApi([
      stub(visitsApi.drug, saved),
      stub(visitsApi.dosage, saved),
      stub(visitsApi.frequency, saved),
      stub(visitsApi.sleepPreferences, saved),
    ]);
    renderRoutes(routes, { path: '/visit/sleep/preferences' });
    await u.click(screen.getByRole('radio', { name: '6 mg' }));
    await u.click(screen.getByRole('radio', { name: /Nightly/ }));
    await u.click(screen.getByRole('radio', { name: 'Staying asleep' }));
    await u.type(
      screen.getByLabelText('Anything your provider should know about your preference? (optional)'),
      '  I wake at 3 am.  ',
    );
    await u.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/visit/sleep/photo');
    expect(api.calls).toEqual([
      { path: visitsApi.drug.path, body: { visit_id: 12, drug: 'doxepin' } },
      { path: visitsApi.dosage.path, body: { visit_id: 12, dosage: '6mg' } },
      { path: visitsApi.frequency.path, body: { visit_id: 12, frequency: 'nightly-30' } },
      {
        path: visitsApi.sleepPreferences.path,
        body: { visit_id: 12, goal: 'stay-asleep', notes: 'I wake at 3 am.' },
      },
    ]);
  });

  it("says 'Failed to save product preferences' when saving fails, and stays", async () => {
    const u = userEvent.setup();
    stubApi([stub(visitsApi.drug, failure(500, 'INTERNAL', 'Something went wrong on our side.'))]);
    renderRoutes(routes, { path: '/visit/ed/preferences' });
    await u.click(screen.getByRole('radio', { name: /Sildenafil/ }));
    await u.click(screen.getByRole('radio', { name: '50 mg' }));
    await u.click(screen.getByRole('radio', { name: /6 doses a month/ }));
    // ED has no goal or form to choose.
    expect(screen.queryByRole('group', { name: 'What do you want help with?' })).toBeNull();
    await u.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Failed to save product preferences',
    );
    expect(screen.queryByTestId('location')).toBeNull();
  });
});
