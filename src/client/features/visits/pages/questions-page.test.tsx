// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { visitsApi, type PatientItem, type QuestionState } from '#shared/visits.ts';
import { messages } from '#shared/wording.ts';
import { clearToasts } from '#client/components/ui/toast.tsx';
import { resetAppStateForTests, setOnlineVisitUser } from '#client/lib/app-state.ts';
import {
  failure,
  LocationProbe,
  renderRoutes,
  stub,
  stubApi,
} from '#client/testing/render-app.tsx';
import { VisitLayout } from '../components/visit-layout.tsx';
import { QuestionsPage } from './questions-page.tsx';

const routes = [
  {
    path: '/visit/:category',
    element: <VisitLayout />,
    children: [
      { path: 'questions', element: <QuestionsPage /> },
      { path: 'answers', element: <LocationProbe /> },
      { path: 'preferences', element: <LocationProbe /> },
      { path: 'not-a-fit', element: <LocationProbe /> },
    ],
  },
];

const duration: PatientItem = {
  linkId: 'ed_duration',
  type: 'choice',
  text: 'How long have you had trouble?',
  required: true,
  options: [
    { code: 'lt-3-months', display: 'Less than 3 months' },
    { code: 'gt-1-year', display: 'More than a year' },
  ],
};
const chestPain: PatientItem = {
  linkId: 'chest_pain',
  type: 'boolean',
  text: 'Do you get chest pain during sex?',
  required: true,
};

/** Where the questionnaire is, as its calls answer. */
function on(
  item: PatientItem | null,
  index: number,
  more: Partial<QuestionState> = {},
): QuestionState {
  return {
    item,
    answer: null,
    progress: { index, total: 2 },
    done: false,
    disqualified: null,
    knockout: null,
    destination: '/visit/ed/questions',
    ...more,
  };
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetAppStateForTests();
  setOnlineVisitUser({ visits: { ed: 13 } });
});
afterEach(() => {
  cleanup();
  clearToasts();
});

const heading = (name: string) => screen.findByRole('heading', { level: 2, name });

describe('the health questions', () => {
  it('resumes where the patient left off, saves each answer, and walks back', async () => {
    const u = userEvent.setup();
    const api = stubApi([
      stub(visitsApi.v2NextQuestion, on(duration, 1)),
      stub(visitsApi.v2SubmitQuestion, on(chestPain, 2)),
      stub(visitsApi.v2PreviousQuestion, on(duration, 1, { answer: 'gt-1-year' })),
    ]);
    renderRoutes(routes, { path: '/visit/ed/questions' });
    await heading(duration.text);
    expect(api.calls[0]).toEqual({
      path: visitsApi.v2NextQuestion.path,
      body: { visit_id: 13 },
    });
    expect(screen.getByRole('progressbar').getAttribute('aria-valuetext')).toBe('Question 1 of 2');

    await u.click(screen.getByRole('radio', { name: 'More than a year' }));
    await u.click(screen.getByRole('button', { name: 'Next' }));
    // The next question takes the focus, so a screen reader hears it.
    expect(document.activeElement).toBe(await heading(chestPain.text));
    expect(api.calls[1]).toEqual({
      path: visitsApi.v2SubmitQuestion.path,
      body: { visit_id: 13, linkId: 'ed_duration', value: 'gt-1-year' },
    });

    await u.click(screen.getByRole('button', { name: 'Back' }));
    await heading(duration.text);
    expect(api.calls[2]).toEqual({
      path: visitsApi.v2PreviousQuestion.path,
      body: { visit_id: 13, linkId: 'chest_pain' },
    });
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'More than a year' }).checked).toBe(
      true,
    );
  });

  it("puts the server's refusal under the question, and stays on it", async () => {
    const u = userEvent.setup();
    stubApi([
      stub(visitsApi.v2NextQuestion, on(duration, 1)),
      stub(
        visitsApi.v2SubmitQuestion,
        failure(400, 'VALIDATION', 'Choose one of the options.', {
          value: 'Choose one of the options.',
        }),
      ),
    ]);
    renderRoutes(routes, { path: '/visit/ed/questions' });
    await u.click(await screen.findByRole('radio', { name: 'Less than 3 months' }));
    await u.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Choose one of the options.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: duration.text })).toBeTruthy();
  });

  it('offers the way back to the visit when it can no longer be changed', async () => {
    stubApi([
      stub(visitsApi.v2NextQuestion, failure(409, 'VISIT_CLOSED', 'This visit was declined.')),
    ]);
    renderRoutes(routes, { path: '/visit/ed/questions' });
    expect(await screen.findByRole('link', { name: 'Go to my visit' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('This visit was declined.');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('says what went wrong, and tries again on request', async () => {
    const u = userEvent.setup();
    let reachable = false;
    stubApi([
      stub(visitsApi.v2NextQuestion, () =>
        reachable ? on(duration, 1) : failure(503, 'UNAVAILABLE', 'Down for maintenance.'),
      ),
    ]);
    renderRoutes(routes, { path: '/visit/ed/questions' });
    // A 5xx says the call's own message (spec §8), not the server's.
    expect((await screen.findByRole('alert')).textContent).toContain(messages.nextQuestionFailed);
    reachable = true;
    await u.click(screen.getByRole('button', { name: 'Try again' }));
    await heading(duration.text);
  });

  const knockout = {
    linkId: 'chest_pain',
    question: chestPain.text,
    answer: 'Yes',
    reason: "Chest pain during sex needs a doctor's check in person.",
  };

  it('asks before an answer ends the visit, and “Change answer” shows the question again', async () => {
    const u = userEvent.setup();
    let saves = 0;
    const api = stubApi([
      stub(visitsApi.v2NextQuestion, on(chestPain, 1)),
      stub(visitsApi.v2SubmitQuestion, () =>
        ++saves === 1
          ? on(chestPain, 1, { answer: true, knockout })
          : on(null, 2, { done: true, destination: '/visit/ed/answers' }),
      ),
    ]);
    renderRoutes(routes, { path: '/visit/ed/questions' });
    await u.click(await screen.findByRole('radio', { name: 'Yes' }));
    await u.click(screen.getByRole('button', { name: 'Next' }));
    // The confirmation takes the focus, and says which answer and why.
    const confirmation = await heading('Please check your answer');
    await waitFor(() => expect(document.activeElement).toBe(confirmation));
    expect(screen.getByText(knockout.reason)).toBeTruthy();
    expect(screen.getByText(chestPain.text)).toBeTruthy();
    expect(screen.getByText('Yes')).toBeTruthy();
    expect(screen.getByText(/Did you mean to give this answer\?/)).toBeTruthy();
    await u.click(screen.getByRole('button', { name: 'Change answer' }));
    const question = await heading(chestPain.text);
    await waitFor(() => expect(document.activeElement).toBe(question));
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Yes' }).checked).toBe(true);
    await u.click(screen.getByRole('radio', { name: 'No' }));
    await u.click(screen.getByRole('button', { name: 'Next' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/visit/ed/answers');
    expect(api.callsTo(visitsApi.confirmKnockout)).toEqual([]);
  });

  it("closes the visit only on “Yes, that's right”, then goes to not-a-fit", async () => {
    const u = userEvent.setup();
    const api = stubApi([
      stub(visitsApi.v2NextQuestion, on(chestPain, 1, { answer: true, knockout })),
      stub(
        visitsApi.confirmKnockout,
        on(null, 1, { disqualified: knockout.reason, destination: '/visit/ed/not-a-fit' }),
      ),
    ]);
    renderRoutes(routes, { path: '/visit/ed/questions' });
    // Coming back to a visit with an unconfirmed knock-out asks again.
    await heading('Please check your answer');
    await u.click(screen.getByRole('button', { name: "Yes, that's right" }));
    expect((await screen.findByTestId('location')).textContent).toBe('/visit/ed/not-a-fit');
    expect(api.calls.at(-1)).toEqual({
      path: visitsApi.confirmKnockout.path,
      body: { visit_id: 13 },
    });
  });

  it('moves on to the review of the answers once the last question is answered', async () => {
    const u = userEvent.setup();
    stubApi([
      stub(visitsApi.v2NextQuestion, on(chestPain, 2)),
      stub(
        visitsApi.v2SubmitQuestion,
        on(null, 2, {
          done: true,
          destination: '/visit/ed/answers',
        }),
      ),
    ]);
    renderRoutes(routes, { path: '/visit/ed/questions' });
    await u.click(await screen.findByRole('radio', { name: 'No' }));
    await u.click(screen.getByRole('button', { name: 'Next' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/visit/ed/answers');
  });

  it('counts the questions as the server does, and says so to a screen reader', async () => {
    stubApi([
      stub(visitsApi.v2NextQuestion, on(chestPain, 3, { progress: { index: 3, total: 7 } })),
    ]);
    renderRoutes(routes, { path: '/visit/ed/questions' });
    await heading(chestPain.text);
    const bar = screen.getByRole('progressbar', { name: 'Health questions' });
    expect(bar.getAttribute('aria-valuenow')).toBe('3');
    expect(bar.getAttribute('aria-valuemax')).toBe('7');
    expect(bar.getAttribute('aria-valuetext')).toBe('Question 3 of 7');
    expect(screen.getByText('Question 3 of 7')).toBeTruthy();
  });

  it('counts no welcome or introduction as a question (issue 29)', async () => {
    const welcome: PatientItem = {
      linkId: 'intro',
      type: 'display',
      text: 'Welcome to your visit.',
      required: false,
    };
    stubApi([
      stub(visitsApi.v2NextQuestion, on(welcome, 1, { progress: { index: 1, total: 23 } })),
    ]);
    renderRoutes(routes, { path: '/visit/ed/questions' });
    await screen.findByText('Welcome to your visit.');
    const bar = screen.getByRole('progressbar', { name: 'Health questions' });
    expect(bar.getAttribute('aria-valuetext')).toBe('23 questions ahead');
    expect(bar.getAttribute('aria-valuenow')).toBe('0');
    expect(screen.queryByText(/Question 1 of 23/)).toBeNull();
  });
});
