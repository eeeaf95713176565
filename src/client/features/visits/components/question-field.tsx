import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { answerProblem } from '#shared/questionnaires/engine.ts';
import type { AnswerValue, QuestionnaireItem } from '#shared/questionnaires/format.ts';
import type { PatientItem } from '#shared/visits.ts';
import { FieldError, inputClass } from '#client/components/forms/fields.tsx';
import { buttonClass } from '#client/components/ui/button.ts';
import { SubmitButton } from '#client/components/ui/submit-button.tsx';

/** What the patient has entered so far, before it becomes an answer. */
type Draft = boolean | string | string[] | null;

function initialDraft(item: PatientItem, answer: AnswerValue | null): Draft {
  if (answer === null) return item.type === 'multi-choice' ? [] : null;
  if (typeof answer === 'number') return String(answer);
  return answer;
}

/** The draft as the answer the server stores; undefined when nothing is entered. */
function toAnswer(item: PatientItem, draft: Draft): AnswerValue | undefined {
  if (draft === null) return undefined;
  if (item.type === 'integer' || item.type === 'decimal') {
    const text = typeof draft === 'string' ? draft.trim() : '';
    return text === '' ? undefined : Number(text);
  }
  if (typeof draft === 'string' && item.type !== 'text') return draft === '' ? undefined : draft;
  return draft;
}

/** The shared engine's rules, so the browser says exactly what the server would. */
function problemWith(item: PatientItem, value: AnswerValue | undefined): string | null {
  const asItem: QuestionnaireItem = {
    linkId: item.linkId,
    type: item.type,
    text: item.text,
    required: item.required,
    ...(item.options
      ? {
          options: item.options.map((o) => ({
            code: o.code,
            display: o.display,
            ...(o.exclusive ? { exclusive: true } : {}),
          })),
        }
      : {}),
    ...(item.min !== undefined ? { min: item.min } : {}),
    ...(item.max !== undefined ? { max: item.max } : {}),
    ...(item.maxLength !== undefined ? { maxLength: item.maxLength } : {}),
  };
  return answerProblem(asItem, value);
}

const optionClass =
  'flex min-h-12 cursor-pointer items-center gap-3 rounded-2xl border border-line bg-white px-4 py-3 text-[0.9375rem] text-ink transition-colors hover:border-accent-400 has-checked:border-accent-600 has-checked:bg-accent-50 has-checked:ring-1 has-checked:ring-accent-600 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-accent-600';

interface QuestionFieldProps {
  item: PatientItem;
  answer: AnswerValue | null;
  /** Sends the answer (for a display item: no answer, just on). */
  onNext: (value: AnswerValue | null) => Promise<void> | void;
  onBack?: (() => void) | undefined;
  pending: boolean;
  /** A message from the server about this answer. */
  serverError?: string | null | undefined;
  /** Move focus to the question when it appears (every question after the first). */
  focusHeading?: boolean;
}

/**
 * One intake question (docs/questionnaires.md item types): the question as the screen's heading,
 * its control, and Back / Next. Answers are checked with the same rules the server applies.
 */
export function QuestionField({
  item,
  answer,
  onNext,
  onBack,
  pending,
  serverError,
  focusHeading = false,
}: QuestionFieldProps) {
  const id = useId();
  const headingId = `${id}-question`;
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const [draft, setDraft] = useState<Draft>(() => initialDraft(item, answer));
  const [error, setError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const shownError = error ?? serverError ?? null;

  // Each new question takes focus, so a screen reader reads it out (not on the page's first).
  useEffect(() => {
    if (focusHeading) heading.current?.focus();
  }, [focusHeading]);

  const describedBy =
    [item.helpText ? helpId : null, shownError ? errorId : null].filter(Boolean).join(' ') ||
    undefined;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    if (item.type === 'display') {
      void onNext(null);
      return;
    }
    const value = toAnswer(item, draft);
    const problem = problemWith(item, value);
    setError(problem);
    if (problem) {
      event.currentTarget
        .querySelector<HTMLElement>('input, textarea')
        ?.focus({ preventScroll: false });
      return;
    }
    void onNext(value ?? null);
  };

  const change = (next: Draft) => {
    setDraft(next);
    if (error) setError(null);
  };

  const choices =
    item.type === 'boolean'
      ? [
          { code: 'yes', display: 'Yes' },
          { code: 'no', display: 'No' },
        ]
      : (item.options ?? []);

  let control = null;
  if (item.type === 'boolean' || item.type === 'choice') {
    const selected =
      item.type === 'boolean'
        ? draft === true
          ? 'yes'
          : draft === false
            ? 'no'
            : null
        : typeof draft === 'string'
          ? draft
          : null;
    control = (
      <div
        role="radiogroup"
        aria-labelledby={headingId}
        aria-describedby={describedBy}
        aria-invalid={shownError ? true : undefined}
        aria-required={item.required || undefined}
        className="grid gap-2.5"
      >
        {choices.map((option) => (
          <label key={option.code} className={optionClass}>
            <input
              type="radio"
              name={`${id}-choice`}
              value={option.code}
              checked={selected === option.code}
              onChange={() => change(item.type === 'boolean' ? option.code === 'yes' : option.code)}
              className="size-5 shrink-0 accent-accent-700"
            />
            <span>{option.display}</span>
          </label>
        ))}
      </div>
    );
  } else if (item.type === 'multi-choice') {
    const chosen = Array.isArray(draft) ? draft : [];
    const exclusive = new Set(
      choices.filter((o) => 'exclusive' in o && o.exclusive).map((o) => o.code),
    );
    const toggle = (code: string, on: boolean) => {
      if (!on) return change(chosen.filter((c) => c !== code));
      // "None of these" stands alone; choosing anything else clears it.
      if (exclusive.has(code)) return change([code]);
      return change([...chosen.filter((c) => !exclusive.has(c)), code]);
    };
    control = (
      <div
        role="group"
        aria-labelledby={headingId}
        aria-describedby={describedBy}
        className="grid gap-2.5"
      >
        <p className="text-sm text-muted">Choose all that apply.</p>
        {choices.map((option) => (
          <label key={option.code} className={optionClass}>
            <input
              type="checkbox"
              value={option.code}
              checked={chosen.includes(option.code)}
              onChange={(event) => toggle(option.code, event.target.checked)}
              aria-invalid={shownError ? true : undefined}
              className="size-5 shrink-0 rounded accent-accent-700"
            />
            <span>{option.display}</span>
          </label>
        ))}
      </div>
    );
  } else if (item.type === 'text') {
    const max = item.maxLength ?? 1000;
    const text = typeof draft === 'string' ? draft : '';
    control = (
      <div>
        <textarea
          aria-labelledby={headingId}
          aria-describedby={describedBy}
          aria-invalid={shownError ? true : undefined}
          aria-required={item.required || undefined}
          maxLength={max}
          rows={4}
          value={text}
          onChange={(event) => change(event.target.value)}
          className={`${inputClass(Boolean(shownError))} resize-y`}
        />
        <p className="mt-1 text-right text-sm text-muted" aria-live="polite">
          {text.length} of {max} characters
        </p>
      </div>
    );
  } else if (item.type === 'integer' || item.type === 'decimal') {
    control = (
      <div className="flex items-center gap-3">
        <input
          type="text"
          inputMode={item.type === 'integer' ? 'numeric' : 'decimal'}
          aria-labelledby={headingId}
          aria-describedby={describedBy}
          aria-invalid={shownError ? true : undefined}
          aria-required={item.required || undefined}
          value={typeof draft === 'string' ? draft : ''}
          onChange={(event) => change(event.target.value)}
          className={`${inputClass(Boolean(shownError))} max-w-40 tabular-nums`}
        />
        {item.unit ? <span className="text-ink-soft">{item.unit}</span> : null}
      </div>
    );
  } else if (item.type === 'date') {
    control = (
      <input
        type="date"
        aria-labelledby={headingId}
        aria-describedby={describedBy}
        aria-invalid={shownError ? true : undefined}
        aria-required={item.required || undefined}
        value={typeof draft === 'string' ? draft : ''}
        onChange={(event) => change(event.target.value)}
        className={`${inputClass(Boolean(shownError))} max-w-56`}
      />
    );
  }

  const hint =
    (item.type === 'integer' || item.type === 'decimal') &&
    item.min !== undefined &&
    item.max !== undefined
      ? `Between ${item.min} and ${item.max}${item.unit ? ` ${item.unit}` : ''}.`
      : null;

  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      <div>
        <h2
          id={headingId}
          ref={heading}
          tabIndex={-1}
          className={`${item.type === 'display' ? 'text-xl' : 'text-2xl'} text-ink outline-none`}
        >
          {item.text}
        </h2>
        {item.helpText || hint ? (
          <p id={helpId} className="mt-2 text-[0.9375rem] text-ink-soft">
            {item.helpText}
            {item.helpText && hint ? ' ' : ''}
            {hint}
          </p>
        ) : null}
      </div>
      {control}
      <div aria-live="assertive">
        <FieldError id={errorId} message={shownError ?? undefined} />
      </div>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
        {onBack ? (
          <button
            type="button"
            onClick={onBack}
            disabled={pending}
            className={buttonClass('secondary')}
          >
            Back
          </button>
        ) : (
          <span />
        )}
        <SubmitButton pending={pending} className="sm:min-w-40">
          {item.type === 'display' ? 'Continue' : 'Next'}
        </SubmitButton>
      </div>
    </form>
  );
}
