import { useEffect, useRef } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { paths } from '#shared/paths.ts';
import { visitsApi, type AnswersReview } from '#shared/visits.ts';
import { buttonClass } from '#client/components/ui/button.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { failedWith } from '#client/lib/api.ts';
import { useVisitContext, visitCardClass } from '../components/visit-layout.tsx';
import { VisitProblem } from '../components/visit-problem.tsx';
import { WithVisit } from '../components/with-visit.tsx';
import { visitDestination } from '../visit-state.ts';
import { useAnswersReview, useChangeAnswer, visitMovedOn } from '../visits.api.ts';

/** The state the questions page is opened with from here: "Back to your answers" is offered. */
export interface FromReview {
  fromReview: true;
}

/**
 * Every question the patient was shown, in order, with their answer, each with "Change"; and
 * "Continue" to where the server says the visit goes next.
 */
export function AnswersList({
  review,
  pending,
  onChange,
  onContinue,
}: {
  review: AnswersReview;
  pending: boolean;
  onChange: (linkId: string) => void;
  onContinue: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  // A new screen after the last question: the focus goes to what it asks.
  useEffect(() => heading.current?.focus(), []);
  return (
    <div>
      <h2 ref={heading} id="answers-title" tabIndex={-1} className="text-2xl text-ink outline-none">
        Review your answers
      </h2>
      <p className="mt-2 text-ink-soft">
        Your provider reads these answers as they are here. Check each one, and change any that is
        not quite right before you go on.
      </p>
      <ol
        className="mt-6 divide-y divide-line rounded-2xl border border-line"
        aria-label="Your answers"
      >
        {review.answers.map((answer, index) => (
          <li
            key={answer.linkId}
            className="flex flex-col gap-2 p-4 sm:flex-row sm:items-start sm:justify-between sm:gap-6"
          >
            <div className="min-w-0">
              <p className="text-sm text-muted">
                <span className="sr-only">Question </span>
                {index + 1}. {answer.question}
              </p>
              <p className="mt-1 font-semibold break-words text-ink">{answer.answer}</p>
            </div>
            <button
              type="button"
              className={`${buttonClass('secondary')} shrink-0 self-start`}
              disabled={pending}
              // The visible word starts the name (WCAG 2.5.3), which says which question.
              aria-label={`Change your answer to: ${answer.question}`}
              onClick={() => onChange(answer.linkId)}
            >
              Change
            </button>
          </li>
        ))}
      </ol>
      <div className="mt-6">
        <button
          type="button"
          className={`${buttonClass('primary')} w-full sm:w-auto sm:min-w-48`}
          disabled={pending}
          onClick={onContinue}
        >
          Continue
        </button>
      </div>
    </div>
  );
}

function Answers({ visitId }: { visitId: number }) {
  const { category } = useVisitContext();
  const navigate = useNavigate();
  const review = useAnswersReview(visitId);
  const change = useChangeAnswer(visitId);

  // A question still open (not answered yet, or an answer to confirm): the questions come first.
  if (failedWith(review.error, visitsApi.reviewAnswers, 'VISIT_STEP'))
    return <Navigate to={paths.visitScreen(category, 'questions')} replace />;
  const movedOn = [review.error, change.error].find(visitMovedOn);
  if (movedOn) return <VisitProblem error={movedOn} category={category} />;
  return (
    <QueryView query={review} loading="Loading your answers…">
      {(data) => (
        <AnswersList
          review={data}
          pending={change.isPending}
          onChange={(linkId) =>
            change.mutate(linkId, {
              onSuccess: () =>
                void navigate(paths.visitScreen(category, 'questions'), {
                  state: { fromReview: true } satisfies FromReview,
                }),
            })
          }
          onContinue={() =>
            void navigate(
              visitDestination(data.destination, category) ??
                paths.visitScreen(category, 'preferences'),
            )
          }
        />
      )}
    </QueryView>
  );
}

/** /visit/:category/answers: the answers on one screen, before treatment preferences. */
export function AnswersPage() {
  return (
    <section aria-labelledby="answers-title" className={visitCardClass}>
      <WithVisit>{(visitId) => <Answers visitId={visitId} />}</WithVisit>
    </section>
  );
}
