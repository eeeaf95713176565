import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { messages } from '#shared/wording.ts';
import type { AnswerValue } from '#shared/questionnaires/format.ts';
import type { QuestionState } from '#shared/visits.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
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
import { nextQuestion, previousQuestion, submitQuestion, visitMovedOn } from '../visits.api.ts';

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

const questionKey = (visitId: number) => ['visit', visitId, 'question'] as const;

/**
 * The question the patient is on. The server decides where the visit is, so it is asked afresh
 * each time the page opens (nothing kept once it closes) and never behind the patient's back.
 */
function useCurrentQuestion(visitId: number) {
  return useQuery({
    queryKey: questionKey(visitId),
    queryFn: async () => {
      try {
        return await nextQuestion(visitId);
      } catch (error) {
        throw messageOf(error, messages.nextQuestionFailed);
      }
    },
    staleTime: Infinity,
    gcTime: 0,
  });
}

interface QuestionCall<V> {
  visitId: number;
  send: (variables: V) => Promise<QuestionState>;
  /** The call's own failure message (spec §8). */
  fallback: string;
  /** A new question is shown. */
  onShown: () => void;
  /** The server refused the answer: its message goes under the question. */
  onAnswerRefused: (message: string) => void;
}

/** A question call's answer becomes the question shown (or sends the patient on, see `Questions`). */
function useQuestionCall<V>({
  visitId,
  send,
  fallback,
  onShown,
  onAnswerRefused,
}: QuestionCall<V>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (variables: V) => {
      try {
        return await send(variables);
      } catch (error) {
        throw messageOf(error, fallback);
      }
    },
    onSuccess: (next) => {
      queryClient.setQueryData(questionKey(visitId), next);
      onShown();
    },
    onError: (problem) => {
      // A visit that moved on or closed replaces the page (see `Questions`).
      if (visitMovedOn(problem)) return;
      if (problem instanceof ApiError && problem.fields.value)
        onAnswerRefused(problem.fields.value);
      else showToast({ kind: 'error', title: problem.message });
    },
  });
}

function Questions({ visitId }: { visitId: number }) {
  const { category } = useVisitContext();
  const navigate = useNavigate();
  const question = useCurrentQuestion(visitId);
  const [answerError, setAnswerError] = useState<string | null>(null);
  // After the first question, each new one takes the focus to its heading.
  const [moved, setMoved] = useState(false);
  const outcome = {
    visitId,
    onShown: () => {
      setAnswerError(null);
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

  const movedOn = [question.error, save.error, skip.error, back.error].find(visitMovedOn);
  if (movedOn) return <VisitProblem error={movedOn} category={category} />;
  const pending = save.isPending || skip.isPending || back.isPending;
  return (
    <QueryView query={question} loading="Loading your questions…">
      {({ item, answer, progress }) =>
        item ? (
          <div className="space-y-6">
            <ProgressBar index={progress.index} total={progress.total} />
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
          </div>
        ) : (
          <Spinner block label="Loading your questions…" />
        )
      }
    </QueryView>
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
