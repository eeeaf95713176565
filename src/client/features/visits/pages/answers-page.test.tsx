// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  visitsApi,
  type AnswersReview,
  type PatientItem,
  type QuestionState,
} from '#shared/visits.ts';
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
import { AnswersPage } from './answers-page.tsx';
import { QuestionsPage } from './questions-page.tsx';

const routes = [
  {
    path: '/visit/:category',
    element: <VisitLayout />,
    children: [
      { path: 'answers', element: <AnswersPage /> },
      { path: 'questions', element: <QuestionsPage /> },
      { path: 'preferences', element: <LocationProbe /> },
    ],
  },
];

const smokes: PatientItem = {
  linkId: 'smokes',
  type: 'boolean',
  text: 'Do you smoke?',
  required: true,
};

const review = (smokesAnswer = 'No'): AnswersReview => ({
  answers: [
    {
      linkId: 'ed_duration',
      question: 'How long have you had trouble?',
      answer: 'More than a year',
    },
    { linkId: 'smokes', question: smokes.text, answer: smokesAnswer },
    { linkId: 'notes', question: 'Anything else?', answer: 'Not answered' },
  ],
  destination: '/visit/ed/preferences',
});

function state(more: Partial<QuestionState>): QuestionState {
  return {
    item: null,
    answer: null,
    progress: { index: 2, total: 3 },
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

describe('reviewing the answers', () => {
  it('lists each question shown with its answer, takes the focus, and continues to the treatment', async () => {
    const u = userEvent.setup();
    const api = stubApi([stub(visitsApi.reviewAnswers, review())]);
    renderRoutes(routes, { path: '/visit/ed/answers' });
    const title = await screen.findByRole('heading', { level: 2, name: 'Review your answers' });
    await waitFor(() => expect(document.activeElement).toBe(title));
    expect(api.calls[0]).toEqual({
      path: visitsApi.reviewAnswers.path,
      body: { visit_id: 13 },
    });
    // The step indicator still says health questions.
    expect(screen.getByText(/Step \d of \d: Health questions/)).toBeTruthy();
    const items = within(screen.getByRole('list', { name: 'Your answers' })).getAllByRole(
      'listitem',
    );
    expect(items).toHaveLength(3);
    expect(items[0]?.textContent).toContain('How long have you had trouble?');
    expect(items[0]?.textContent).toContain('More than a year');
    expect(items[2]?.textContent).toContain('Not answered');
    // Each "Change" names its question to a screen reader.
    expect(
      screen.getByRole('button', { name: 'Change your answer to: Do you smoke?' }),
    ).toBeTruthy();
    await u.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/visit/ed/preferences');
  });

  it('changes one answer on its question, then comes back to the review with it', async () => {
    const u = userEvent.setup();
    let saved = false;
    const api = stubApi([
      stub(visitsApi.reviewAnswers, () => review(saved ? 'Yes' : 'No')),
      stub(visitsApi.changeAnswer, state({ item: smokes, answer: false })),
      stub(visitsApi.v2NextQuestion, state({ item: smokes, answer: false })),
      stub(visitsApi.v2SubmitQuestion, () => {
        saved = true;
        return state({ done: true, destination: '/visit/ed/answers' });
      }),
    ]);
    renderRoutes(routes, { path: '/visit/ed/answers' });
    await u.click(
      await screen.findByRole('button', { name: 'Change your answer to: Do you smoke?' }),
    );
    expect(api.callsTo(visitsApi.changeAnswer)).toContainEqual({ visit_id: 13, linkId: 'smokes' });
    await screen.findByRole('heading', { level: 2, name: smokes.text });
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'No' }).checked).toBe(true);
    expect(
      screen.getByRole('link', { name: 'Back to your answers without changing this one' }),
    ).toBeTruthy();
    await u.click(screen.getByRole('radio', { name: 'Yes' }));
    await u.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('heading', { level: 2, name: 'Review your answers' });
    const changed = within(screen.getByRole('list', { name: 'Your answers' })).getAllByRole(
      'listitem',
    )[1];
    await waitFor(() => expect(changed?.textContent).toContain('Yes'));
  });

  it('sends the patient to the questions while one is still open', async () => {
    stubApi([
      stub(
        visitsApi.reviewAnswers,
        failure(409, 'VISIT_STEP', 'Please answer all the health questions first.'),
      ),
      stub(visitsApi.v2NextQuestion, state({ item: smokes })),
    ]);
    renderRoutes(routes, { path: '/visit/ed/answers' });
    expect(await screen.findByRole('heading', { level: 2, name: smokes.text })).toBeTruthy();
  });

  it('offers the way back to the visit once it is closed, and says what failed otherwise', async () => {
    stubApi([stub(visitsApi.reviewAnswers, failure(409, 'VISIT_CLOSED', 'This visit is closed.'))]);
    renderRoutes(routes, { path: '/visit/ed/answers' });
    expect(await screen.findByRole('link', { name: 'Go to my visit' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('This visit is closed.');
    cleanup();
    stubApi([stub(visitsApi.reviewAnswers, failure(503, 'UNAVAILABLE', 'Down.'))]);
    renderRoutes(routes, { path: '/visit/ed/answers' });
    expect((await screen.findByRole('alert')).textContent).toContain(messages.questionsFailed);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
