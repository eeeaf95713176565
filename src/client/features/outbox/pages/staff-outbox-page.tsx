import { Navigate } from 'react-router';
import type { OutboxProblem } from '#shared/outbox.ts';
import { buttonClass } from '#client/components/ui/button.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { paths } from '#shared/paths.ts';
import { StaffHeader } from '#client/features/staff/components/staff-frame.tsx';
import { useStaff } from '#client/features/staff/components/staff-layout.tsx';
import { longDateTime } from '#client/components/ui/staff-order-status.tsx';
import { useOutboxProblems, useRetryOutboxMessage } from '../outbox.api.ts';

const cardClass =
  'rounded-2xl border border-line bg-white p-4 shadow-[0_1px_2px_rgba(15,37,51,0.04)] sm:p-5';

function summary(messages: OutboxProblem[] | undefined): string {
  if (messages === undefined) return 'Email and text messages that could not be sent.';
  if (messages.length === 0) return 'Every email and text message has been sent.';
  const failed = messages.filter((m) => m.status === 'failed').length;
  const late = messages.length - failed;
  const parts = [
    failed > 0 ? `${failed} ${failed === 1 ? 'message has' : 'messages have'} failed` : null,
    late > 0
      ? `${late} ${late === 1 ? 'is waiting longer than it should' : 'are waiting longer than they should'}`
      : null,
  ].filter(Boolean);
  return `${parts.join('; ')}.`;
}

/**
 * /staff/outbox: email and text messages the outbox could not send (failed after every retry, or
 * waiting longer than it should), for operations staff to send again once the cause is fixed.
 * Never the words of a message, and recipients masked: the list is for finding a problem, not
 * for reading mail.
 */
export function StaffOutboxPage() {
  const staff = useStaff();
  const problems = useOutboxProblems({ enabled: staff.role === 'operations' });
  if (staff.role !== 'operations') return <Navigate to={paths.staff} replace />;
  return (
    <>
      <StaffHeader title="Outbox" subtitle={<p>{summary(problems.data)}</p>} />
      <QueryView query={problems} loading="Loading the outbox…">
        {(messages) => <Problems messages={messages} />}
      </QueryView>
    </>
  );
}

/** One card per message; a note when everything has been sent. */
function Problems({ messages }: { messages: OutboxProblem[] }) {
  return messages.length === 0 ? (
    <section className="max-w-2xl rounded-3xl border border-line bg-white p-6 shadow-[0_1px_2px_rgba(15,37,51,0.04)] sm:p-8">
      <h2 className="text-xl text-ink">Nothing to do</h2>
      <p className="mt-2 text-ink-soft">
        When an email or a text message cannot be sent after several tries, or waits longer than 15
        minutes, it appears here so you can send it again.
      </p>
    </section>
  ) : (
    <ul className="max-w-3xl space-y-3">
      {messages.map((message) => (
        <li key={message.outbox_id}>
          <OutboxItem message={message} />
        </li>
      ))}
    </ul>
  );
}

function OutboxItem({ message }: { message: OutboxProblem }) {
  const retry = useRetryOutboxMessage();
  const subjectId = `outbox-subject-${message.outbox_id}`;
  return (
    <article className={cardClass} aria-labelledby={subjectId}>
      <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
        <h2 id={subjectId} className="min-w-0 text-base font-semibold text-ink">
          {message.subject}
        </h2>
        {message.status === 'failed' ? (
          <span className="shrink-0 rounded-full bg-danger-soft px-2.5 py-0.5 text-sm font-medium text-danger">
            Failed
          </span>
        ) : (
          <span className="shrink-0 rounded-full bg-warning-soft px-2.5 py-0.5 text-sm font-medium text-warning">
            Waiting to send
          </span>
        )}
      </div>
      <p className="mt-1 text-sm text-ink-soft">
        {message.kind === 'sms' ? 'Text' : 'Email'} to {message.recipient} · {message.attempts}{' '}
        {message.attempts === 1 ? 'attempt' : 'attempts'}
        {message.last_error ? ` · Last error: ${message.last_error}` : ''}
      </p>
      <p className="mt-0.5 text-sm text-muted">
        Queued <time dateTime={message.created_at}>{longDateTime(message.created_at)}</time>
        {message.next_attempt_at ? (
          <>
            {' '}
            · Next try{' '}
            <time dateTime={message.next_attempt_at}>{longDateTime(message.next_attempt_at)}</time>
          </>
        ) : null}
      </p>
      <div className="mt-3">
        <button
          type="button"
          className={buttonClass('secondary')}
          aria-describedby={subjectId}
          disabled={retry.isPending}
          aria-busy={retry.isPending || undefined}
          onClick={() => retry.mutate(message.outbox_id)}
        >
          {retry.isPending ? 'Sending again…' : 'Send again'}
        </button>
      </div>
    </article>
  );
}
