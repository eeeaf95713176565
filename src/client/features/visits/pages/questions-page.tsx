import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { messages } from '#shared/wording.ts';
import type { AnswerValue } from '#shared/questionnaires/format.ts';
import type { Knockout } from '#shared/visits.ts';
import { buttonClass, textLinkClass } from '#client/components/ui/button.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { paths } from '#shared/paths.ts';
import { QuestionField } from '../components/question-field.tsx';
import { useVisitContext, visitCardClass } from '../components/visit-layout.tsx';
import { VisitProblem } from '../components/visit-problem.tsx';
import { WithVisit } from '../components/with-visit.tsx';
import { visitDestination } from '../visit-state.ts';
import { ClosedReason } from '../components/closed-visit.tsx';
import type { FromReview } from './answers-page.tsx';
import {
  confirmKnockout,
  nextQuestion,
  previousQuestion,
  submitQuestion,
  useCurrentQuestion,
  useQuestionCall,
  visitMovedOn,
} from '../visits.api.ts';

/**
 * An answer that would end the visit, before it does: a mis-tap is not final. "Change answer"
 * shows the question again; only "Yes, that's right" closes the visit.
 */
export function KnockoutConfirm({
  knockout,
  pending,
  onChange,
  onConfirm,
}: {
  knockout: Knockout;
  pending: boolean;
  onChange: () => void;
  onConfirm: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The screen replaces the question: focus goes to what it asks.
  useEffect(() => heading.current?.focus(), []);
  return (
    <div aria-labelledby="knockout-title" role="group">
      <h2
        ref={heading}
        id="knockout-title"
        tabIndex={-1}
        className="text-2xl text-ink outline-none"
      >
        Please check your answer
      </h2>
      <dl className="mt-4 rounded-2xl border border-line bg-surface/60 p-4">
        <dt className="text-sm text-muted">Question</dt>
        <dd className="mt-0.5 text-ink">{knockout.question}</dd>
        <dt className="mt-3 text-sm text-muted">Your answer</dt>
        <dd className="mt-0.5 font-semibold text-ink">{knockout.answer}</dd>
      </dl>
      <p className="mt-4 text-ink-soft">
        Based on your answer, an online visit isn't right for you:
      </p>
      <ClosedReason reason={knockout.reason} />
      <p className="mt-3 text-ink-soft">
        Did you mean to give this answer? If you tapped the wrong one, change it. If it's right,
        we'll close this visit — nothing is charged, and you can still ask a provider to look at
        your answers.
      </p>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row">
        <button
          type="button"
          className={buttonClass('secondary')}
          disabled={pending}
          onClick={onChange}
        >
          Change answer
        </button>
        <button
          type="button"
          className={buttonClass('primary')}
          disabled={pending}
          onClick={onConfirm}
        >
          Yes, that's right
        </button>
      </div>
    </div>
  );
}

/**
 * Where the patient is, counting questions only (issue 29): a welcome or a section's introduction
 * is not a question, so it says how many are ahead, or which comes next, and counts none of them.
 */
export function ProgressBar({
  index,
  total,
  intro = false,
}: {
  index: number;
  total: number;
  intro?: boolean;
}) {
  const text = !intro
    ? `Question ${index} of ${total}`
    : index <= 1
      ? `${total} ${total === 1 ? 'question' : 'questions'} ahead`
      : `Next: question ${index} of ${total}`;
  const done = intro ? index - 1 : index;
  const percent = total > 0 ? Math.round((done / total) * 100) : 0;
  return (
    <div>
      <p className="text-sm font-semibold text-ink-soft" aria-hidden="true">
        {text}
      </p>
      <div
        role="progressbar"
        aria-label="Health questions"
        aria-valuemin={0}
        aria-valuenow={done}
        aria-valuemax={total}
        aria-valuetext={text}
        className="mt-2 h-2 overflow-hidden rounded-full bg-accent-100"
      >
        <div
          className="h-full rounded-full bg-accent-600 transition-[width]"
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}

function Questions({ visitId }: { visitId: number }) {
  const { category } = useVisitContext();
  const navigate = useNavigate();
  // Opened by "Change" on the review of the answers: the way back to it, unchanged.
  const fromReview = (useLocation().state as Partial<FromReview> | null)?.fromReview === true;
  const question = useCurrentQuestion(visitId);
  const [answerError, setAnswerError] = useState<string | null>(null);
  // On a knock-out answer: "Change answer" shows the question again until a new answer is saved.
  const [changing, setChanging] = useState(false);
  // After the first question, each new one takes the focus to its heading.
  const [moved, setMoved] = useState(false);
  const outcome = {
    visitId,
    onShown: () => {
      setAnswerError(null);
      setChanging(false);
      setMoved(true);
    },
    onAnswerRefused: setAnswerError,
  };
  const save = useQuestionCall({
    ...outcome,
    send: ({ linkId, value }: { linkId: string; value: AnswerValue }) =>
      submitQuestion(visitId, linkId, value),
    fallback: messages.submitQuestionFailed,
  });
  const skip = useQuestionCall({
    ...outcome,
    send: (linkId: string) => nextQuestion(visitId, linkId),
    fallback: messages.nextQuestionFailed,
  });
  const confirm = useQuestionCall({
    ...outcome,
    send: () => confirmKnockout(visitId),
    fallback: messages.submitQuestionFailed,
  });
  const back = useQuestionCall({
    ...outcome,
    send: (linkId: string) => previousQuestion(visitId, linkId),
    fallback: messages.previousQuestionFailed,
  });

  // The questions are over: a disqualifying answer, or the last one answered.
  const state = question.data;
  const over = state && (state.disqualified || state.done || !state.item) ? state : null;
  useEffect(() => {
    if (!over) return;
    if (over.disqualified)
      void navigate(paths.visitScreen(category, 'not-a-fit'), {
        replace: true,
        state: { reason: over.disqualified },
      });
    else void navigate(visitDestination(over.destination, category) ?? paths.visit(category));
  }, [over, category, navigate]);

  const movedOn = [question.error, save.error, skip.error, back.error, confirm.error].find(
    visitMovedOn,
  );
  if (movedOn) return <VisitProblem error={movedOn} category={category} />;
  const pending = save.isPending || skip.isPending || back.isPending || confirm.isPending;
  return (
    <QueryView query={question} loading="Loading your questions…">
      {({ item, answer, progress, knockout }) =>
        knockout && !changing ? (
          <KnockoutConfirm
            knockout={knockout}
            pending={pending}
            onChange={() => {
              setMoved(true);
              setChanging(true);
            }}
            onConfirm={() => confirm.mutate(undefined)}
          />
        ) : item ? (
          <div className="space-y-6">
            <ProgressBar
              index={progress.index}
              total={progress.total}
              intro={item.type === 'display'}
            />
            <QuestionField
              key={item.linkId}
              item={item}
              answer={answer}
              pending={pending}
              focusHeading={moved}
              serverError={answerError}
              onBack={progress.index > 1 ? () => back.mutate(item.linkId) : undefined}
              onNext={(value: AnswerValue | null) =>
                value === null
                  ? skip.mutate(item.linkId)
                  : save.mutate({ linkId: item.linkId, value })
              }
            />
            {fromReview ? (
              <p>
                <Link to={paths.visitScreen(category, 'answers')} className={textLinkClass}>
                  Back to your answers without changing this one
                </Link>
              </p>
            ) : null}
          </div>
        ) : (
          <Spinner block label="Loading your questions…" />
        )
      }
    </QueryView>
  );
}

/**
 * /visit/:category/questions: the intake questionnaire, one question at a time; after the last,
 * the review of the answers (/visit/:category/answers), where any one can be changed.
 */
export function QuestionsPage() {
  return (
    <section aria-label="Health questions" className={visitCardClass}>
      <p className="mb-5 text-sm text-muted">
        Your answers go only to your care team. Answer as honestly as you can — it keeps you safe.
      </p>
      <WithVisit>{(visitId) => <Questions visitId={visitId} />}</WithVisit>
    </section>
  );
}
