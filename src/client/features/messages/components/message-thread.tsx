import { zodResolver } from '@hookform/resolvers/zod';
import { format, isValid, parseISO } from 'date-fns';
import { useEffect, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { dateFormats } from '#shared/constants.ts';
import { messages as siteMessages } from '#shared/wording.ts';
import { MessageBodySchema, type Message } from '#shared/messages.ts';
import { FieldError, FormAlert, inputClass } from '#client/components/forms/fields.tsx';
import { applyApiError } from '#client/components/forms/form-errors.ts';
import { SubmitButton } from '#client/components/ui/submit-button.tsx';
import { buttonClass } from '#client/components/ui/button.ts';
import type { EarlierMessages } from '../thread-pages.ts';

export function messageTime(value: string): string {
  const date = parseISO(value);
  return isValid(date) ? format(date, dateFormats.long) : value;
}

/**
 * "Load earlier messages" above a conversation's oldest loaded message. When the last earlier page
 * arrives the button goes, and focus moves to the conversation rather than to nowhere.
 */
function LoadEarlier({
  earlier,
  onLoadedAll,
}: {
  earlier: EarlierMessages;
  onLoadedAll: () => void;
}) {
  if (!earlier.hasMore && !earlier.failed) return null;
  return (
    <div className="mb-3 flex flex-col items-center gap-2 text-center">
      {earlier.failed ? (
        <p role="alert" className="text-[0.9375rem] text-danger">
          We couldn't load earlier messages. Please try again.
        </p>
      ) : null}
      {earlier.hasMore ? (
        <button
          type="button"
          className={buttonClass('secondary')}
          disabled={earlier.loading}
          onClick={() => {
            void earlier.load().then((result) => {
              const more = (result as { hasNextPage?: boolean } | undefined)?.hasNextPage;
              if (more === false) onLoadedAll();
            });
          }}
        >
          {earlier.loading ? 'Loading earlier messages…' : 'Load earlier messages'}
        </button>
      ) : null}
    </div>
  );
}

/**
 * A conversation, oldest first. `me` is the side reading it: their messages sit on the right.
 * The list is a log, so a screen reader hears new messages as they arrive. With `earlier`, the
 * conversation is a page of a longer one and earlier pages load on request.
 */
export function MessageList({
  messages,
  me,
  label,
  earlier,
}: {
  messages: readonly Message[];
  me: Message['sender'];
  label: string;
  earlier?: EarlierMessages | undefined;
}) {
  const log = useRef<HTMLDivElement>(null);
  if (messages.length === 0) {
    return <p className="text-[0.9375rem] text-ink-soft">No messages yet.</p>;
  }
  return (
    <div ref={log} role="log" aria-label={label} tabIndex={-1} className="outline-none">
      {earlier ? <LoadEarlier earlier={earlier} onLoadedAll={() => log.current?.focus()} /> : null}
      <ol className="space-y-3">
        {messages.map((message) => {
          const mine = message.sender === me;
          return (
            <li key={message.id} className={`flex ${mine ? 'justify-end' : 'justify-start'}`}>
              <article
                aria-label={`${message.author}, ${messageTime(message.created_at)}`}
                className={`max-w-[85%] rounded-2xl px-4 py-3 ${
                  mine ? 'bg-accent-50 ring-1 ring-accent-200' : 'bg-surface ring-1 ring-line'
                }`}
              >
                <p className="text-sm text-muted">
                  <span className="font-semibold text-ink">{message.author}</span>
                  {' · '}
                  <time dateTime={message.created_at}>{messageTime(message.created_at)}</time>
                </p>
                <p className="mt-1 text-[0.9375rem] break-words whitespace-pre-wrap text-ink">
                  {message.body}
                </p>
              </article>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

const ReplySchema = z.object({ body: MessageBodySchema });

/**
 * Writes a message. `onSend` resolves when the server has it; its field messages land on the box.
 * The body never goes to analytics, logs or error reports.
 */
export function ReplyForm({
  label = 'Your message',
  submitLabel = 'Send',
  onSend,
}: {
  label?: string;
  submitLabel?: string;
  onSend: (body: string) => Promise<unknown>;
}) {
  const id = useId();
  const [alert, setAlert] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(ReplySchema), defaultValues: { body: '' } });
  const submit = handleSubmit(async ({ body }) => {
    setAlert(null);
    try {
      await onSend(body);
      reset({ body: '' });
    } catch (error) {
      const outcome = applyApiError(error, setError, ['body']);
      if (!outcome.placed) setAlert(outcome.message || siteMessages.somethingWentWrong);
    }
  });
  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="space-y-3">
      {alert ? <FormAlert>{alert}</FormAlert> : null}
      <div>
        <label htmlFor={id} className="block text-[0.9375rem] font-medium text-ink">
          {label}
        </label>
        <textarea
          id={id}
          rows={4}
          aria-invalid={errors.body ? true : undefined}
          aria-describedby={errors.body ? `${id}-error` : undefined}
          className={`${inputClass(Boolean(errors.body))} mt-1.5 resize-y`}
          {...register('body')}
        />
        <FieldError id={`${id}-error`} message={errors.body?.message} />
      </div>
      <div className="flex justify-end">
        <SubmitButton pending={isSubmitting}>{submitLabel}</SubmitButton>
      </div>
    </form>
  );
}

/**
 * Keeps the newest message in view when one arrives (`newestId` is its id); earlier messages
 * loaded above leave the reader where they were.
 */
export function useScrollToEnd(newestId: number | undefined) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = ref.current;
    if (node) node.scrollTop = node.scrollHeight;
  }, [newestId]);
  return ref;
}

/** The id of a conversation's newest message, for `useScrollToEnd`. */
export const newestId = (messages: readonly Message[]): number | undefined =>
  messages[messages.length - 1]?.id;

/**
 * A patient's conversation as the care team sees it in the console (operations' Inbox, a
 * provider's Patient messages): the messages, scrolled to the newest, and the answer box.
 */
export function CareTeamConversation({
  patientName,
  messages,
  earlier,
  onSend,
}: {
  patientName: string;
  messages: readonly Message[];
  earlier?: EarlierMessages | undefined;
  onSend: (body: string) => Promise<unknown>;
}) {
  const scroller = useScrollToEnd(newestId(messages));
  return (
    <section
      aria-label={`Conversation with ${patientName}`}
      className="max-w-3xl rounded-2xl border border-line bg-white p-5 shadow-[0_1px_2px_rgba(15,37,51,0.04)]"
    >
      {/* Focusable: a keyboard scrolls a long conversation (axe scrollable-region-focusable). */}
      <div
        ref={scroller}
        tabIndex={0}
        className="max-h-[32rem] overflow-y-auto rounded-xl outline-none focus-visible:ring-2 focus-visible:ring-accent-600"
      >
        <MessageList
          messages={messages}
          me="care_team"
          label={`Conversation with ${patientName}`}
          earlier={earlier}
        />
      </div>
      <div className="mt-4 border-t border-line pt-4">
        <ReplyForm label="Answer to the patient" submitLabel="Send answer" onSend={onSend} />
      </div>
    </section>
  );
}
