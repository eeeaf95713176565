import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import {
  MessageBodySchema,
  SubjectSchema,
  TopicSchema,
  messageTopics,
  topicHints,
  topicLabels,
  type MessageTopic,
} from '#shared/messages.ts';
import { FieldError, FormAlert, TextField, inputClass } from '#client/components/forms/fields.tsx';
import { applyApiError } from '#client/components/forms/form-errors.ts';
import { ApiError } from '#client/lib/api.ts';
import { buttonClass } from '#client/components/ui/button.ts';
import { SubmitButton } from '#client/components/ui/submit-button.tsx';
import { ReplyNotice } from './care-notices.tsx';

const NewMessageSchema = z.object({
  topic: TopicSchema,
  subject: SubjectSchema,
  body: MessageBodySchema,
});
export type NewMessage = z.infer<typeof NewMessageSchema>;

/** The topic's first choice, which takes focus when the topic is missing. */
const firstTopicId = `new-topic-${messageTopics[0]}`;

/** Whether the server's refusal names this field. */
function hasField(error: unknown, name: string): boolean {
  return error instanceof ApiError && Boolean(error.fields?.[name]);
}

const optionClass =
  'flex min-h-11 cursor-pointer items-start gap-3 rounded-2xl border border-line bg-white px-4 py-3 transition-colors hover:border-accent-400 has-checked:border-accent-600 has-checked:bg-accent-50 has-checked:ring-1 has-checked:ring-accent-600';

/**
 * A new conversation: what it is about (required: a question about their treatment goes to a
 * provider), a subject and the message, with when to expect an answer and the emergency numbers
 * beside it. `onSend` resolves once the server has it; its field messages land on the fields.
 */
export function NewMessageForm({
  orderNumber,
  onSend,
  onCancel,
}: {
  /** The order the patient asks about (from the order's "Ask about this order"). */
  orderNumber: string | null;
  onSend: (message: NewMessage) => Promise<unknown>;
  onCancel: () => void;
}) {
  const [alert, setAlert] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    control,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof NewMessageSchema>, unknown, NewMessage>({
    resolver: zodResolver(NewMessageSchema),
    // The first field with a problem takes focus: for the topic, its first choice (the form's
    // own focus would land on the last).
    shouldFocusError: false,
    defaultValues: {
      ...(orderNumber ? { topic: 'order' as const } : {}),
      subject: orderNumber ? `Order ${orderNumber}` : '',
      body: '',
    },
  });
  const focusField = (name: keyof NewMessage) => {
    if (name === 'topic') document.getElementById(firstTopicId)?.focus();
    else setFocus(name);
  };
  useEffect(() => {
    if (orderNumber) setFocus('body');
    else document.getElementById(firstTopicId)?.focus();
  }, [setFocus, orderNumber]);
  const topic = useWatch({ control, name: 'topic' }) as MessageTopic | undefined;
  const fields = ['topic', 'subject', 'body'] as const;
  const submit = handleSubmit(
    async (values) => {
      setAlert(null);
      try {
        await onSend(values);
      } catch (error) {
        const outcome = applyApiError(error, setError, [...fields]);
        if (!outcome.placed) setAlert(outcome.message);
        // The topic comes first in the form: its first choice takes focus.
        if (hasField(error, 'topic')) focusField('topic');
      }
    },
    (invalid) => {
      const first = fields.find((name) => invalid[name]);
      if (first) focusField(first);
    },
  );
  const topicError = errors.topic?.message;
  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="mt-4 space-y-5">
      {alert ? <FormAlert>{alert}</FormAlert> : null}
      <fieldset aria-describedby={topicError ? 'new-topic-error' : undefined}>
        <legend className="font-sans text-base font-semibold text-ink">
          What is your message about?
        </legend>
        <div className="mt-2.5 grid gap-2.5">
          {messageTopics.map((code) => (
            <label key={code} className={optionClass}>
              <input
                id={`new-topic-${code}`}
                type="radio"
                value={code}
                aria-invalid={topicError ? true : undefined}
                aria-describedby={`new-topic-${code}-hint`}
                className="mt-0.5 size-5 shrink-0 accent-accent-700"
                {...register('topic')}
              />
              <span className="min-w-0">
                <span className="block font-semibold text-ink">{topicLabels[code]}</span>
                <span id={`new-topic-${code}-hint`} className="block text-sm text-ink-soft">
                  {topicHints[code]}
                </span>
              </span>
            </label>
          ))}
        </div>
        <FieldError id="new-topic-error" message={topicError} />
      </fieldset>
      <TextField
        label="Subject"
        autoComplete="off"
        error={errors.subject?.message}
        {...register('subject')}
      />
      <div>
        <label htmlFor="new-body" className="block text-[0.9375rem] font-medium text-ink">
          Message
        </label>
        <textarea
          id="new-body"
          rows={5}
          aria-invalid={errors.body ? true : undefined}
          aria-describedby={errors.body ? 'new-body-error' : undefined}
          className={`${inputClass(Boolean(errors.body))} mt-1.5 resize-y`}
          {...register('body')}
        />
        <FieldError id="new-body-error" message={errors.body?.message} />
      </div>
      <ReplyNotice topic={topic} live />
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button type="button" onClick={onCancel} className={buttonClass('ghost')}>
          Cancel
        </button>
        <SubmitButton pending={isSubmitting}>Send message</SubmitButton>
      </div>
    </form>
  );
}
