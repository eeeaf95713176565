import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { messages } from '#shared/messages.ts';
import type { AnswerValue } from '#shared/questionnaires/format.ts';
import type { QuestionState } from '#shared/telehealth.ts';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { showToast } from '#client/components/ui/toast.tsx';
import { ApiError } from '#client/lib/api.ts';
import { reportError } from '#client/lib/error-reporting.ts';
import { paths } from '#shared/paths.ts';
import { QuestionField } from '../components/question-field.tsx';
import { useVisitContext, visitCardClass } from '../components/visit-layout.tsx';
import { VisitProblem } from '../components/visit-problem.tsx';
import { WithVisit } from '../components/with-visit.tsx';
import { visitDestination } from '../visit-state.ts';
import { nextQuestion, previousQuestion, submitQuestion } from '../visits.api.ts';

export function ProgressBar({ index, total }: { index: number; total: number }) {
  const text = `Question ${index} of ${total}`;
  const percent = total > 0 ? Math.round((index / total) * 100) : 0;
  return (
    <div>
      <p className="text-sm font-semibold text-ink-soft" aria-hidden="true">
        {text}
      </p>
      <div
        role="progressbar"
        aria-label="Health questions"
        aria-valuemin={0}
        aria-valuenow={index}
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

/** Errors that are not the API's are bugs: reported by name only, never with an answer. */
function messageOf(error: unknown, fallback: string): Error {
  if (error instanceof ApiError) return error;
  reportError(new Error('Questionnaire call failed'), 'error', 'visit');
  return new Error(fallback);
}

function Questions({ visitId }: { visitId: number }) {
  const { category } = useVisitContext();
  const navigate = useNavigate();
  const [state, setState] = useState<QuestionState | null>(null);
  const [loadError, setLoadError] = useState<Error | null>(null);
  const [pending, setPending] = useState(false);
  const [answerError, setAnswerError] = useState<string | null>(null);
  const loaded = useRef(false);
  const [shown, setShown] = useState(0);

  const follow = useCallback(
    async (next: QuestionState) => {
      setAnswerError(null);
      if (next.disqualified) {
        await navigate(paths.visitScreen(category, 'not-a-fit'), {
          replace: true,
          state: { reason: next.disqualified },
        });
        return;
      }
      if (next.done || !next.item) {
        await navigate(visitDestination(next.destination, category) ?? paths.visit(category));
        return;
      }
      setShown((count) => count + 1);
      setState(next);
    },
    [category, navigate],
  );

  const load = useCallback(async () => {
    setLoadError(null);
    try {
      await follow(await nextQuestion(visitId));
    } catch (error) {
      setLoadError(messageOf(error, messages.nextQuestionFailed));
    }
  }, [visitId, follow]);

  useEffect(() => {
    if (loaded.current) return;
    loaded.current = true;
    void load();
  }, [load]);

  const act = async (call: () => Promise<QuestionState>, fallback: string) => {
    setPending(true);
    try {
      await follow(await call());
    } catch (error) {
      const problem = messageOf(error, fallback);
      if (problem instanceof ApiError && problem.status === 409) setLoadError(problem);
      else if (problem instanceof ApiError && problem.fields.value)
        setAnswerError(problem.fields.value);
      else showToast({ kind: 'error', title: problem.message });
    } finally {
      setPending(false);
    }
  };

  if (loadError)
    return <VisitProblem error={loadError} category={category} onRetry={() => void load()} />;
  if (!state?.item) return <Spinner block label="Loading your questions…" />;
  const item = state.item;
  return (
    <div className="space-y-6">
      <ProgressBar index={state.progress.index} total={state.progress.total} />
      <QuestionField
        key={item.linkId}
        item={item}
        answer={state.answer}
        pending={pending}
        focusHeading={shown > 1}
        serverError={answerError}
        onBack={
          state.progress.index > 1
            ? () =>
                void act(
                  () => previousQuestion(visitId, item.linkId),
                  messages.previousQuestionFailed,
                )
            : undefined
        }
        onNext={(value: AnswerValue | null) =>
          act(
            () =>
              value === null
                ? nextQuestion(visitId, item.linkId)
                : submitQuestion(visitId, item.linkId, value),
            value === null ? messages.nextQuestionFailed : messages.submitQuestionFailed,
          )
        }
      />
    </div>
  );
}

/** /visit/:category/questions: the intake questionnaire, one question at a time. */
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
