import { Link, Navigate } from 'react-router';
import type { PatientMessageItem } from '#shared/messages.ts';
import { paths } from '#shared/paths.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { StaffHeader } from '#client/features/staff/components/staff-frame.tsx';
import { useStaff } from '#client/features/staff/components/staff-layout.tsx';
import { longDateTime } from '#client/features/staff/components/staff-order-status.tsx';
import { usePatientMessages } from '../reviews.api.ts';

const cardClass =
  'block rounded-2xl border border-line bg-white p-4 shadow-[0_1px_2px_rgba(15,37,51,0.04)] hover:border-accent-400 sm:p-5';

/**
 * /staff/patient-messages: patients' questions about their treatment, for the provider: those
 * given to them, and those open to every provider licensed in the patient's state. Waiting ones
 * first.
 */
export function PatientMessagesPage() {
  const staff = useStaff();
  const list = usePatientMessages({ enabled: staff.role === 'provider' });
  if (staff.role !== 'provider') return <Navigate to={paths.staff} replace />;
  const waiting = list.data?.filter((t) => t.last_sender === 'patient').length;
  return (
    <>
      <StaffHeader
        title="Patient messages"
        subtitle={
          <p>
            {waiting === undefined
              ? 'Patients’ questions about their treatment.'
              : waiting === 0
                ? 'Every patient has an answer.'
                : `${waiting} ${waiting === 1 ? 'question is' : 'questions are'} waiting for an answer.`}
          </p>
        }
      />
      <QueryView query={list} loading="Loading patient messages…">
        {(threads) => <Threads threads={threads} />}
      </QueryView>
    </>
  );
}

function Threads({ threads }: { threads: PatientMessageItem[] }) {
  return threads.length === 0 ? (
    <section className="max-w-2xl rounded-3xl border border-line bg-white p-6 shadow-[0_1px_2px_rgba(15,37,51,0.04)] sm:p-8">
      <h2 className="text-xl text-ink">No questions</h2>
      <p className="mt-2 text-ink-soft">
        When a patient asks about their treatment from Messages, the question appears here: yours
        when they had a visit with you, or open to the providers licensed in their state.
      </p>
    </section>
  ) : (
    <ul className="max-w-3xl space-y-3">
      {threads.map((thread) => (
        <li key={thread.thread_id}>
          <Link to={paths.staffPatientThread(thread.thread_id)} className={cardClass}>
            <span className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
              <span
                className={`min-w-0 text-accent-800 ${thread.unread > 0 ? 'font-semibold' : 'font-medium'}`}
              >
                {thread.subject}
              </span>
              {thread.unread > 0 ? (
                <span className="shrink-0 rounded-full bg-accent-700 px-2 py-0.5 text-sm font-semibold text-white">
                  {thread.unread} new
                </span>
              ) : thread.last_sender === 'patient' ? (
                <span className="shrink-0 rounded-full bg-warning-soft px-2.5 py-0.5 text-sm font-medium text-warning">
                  Waiting for an answer
                </span>
              ) : (
                <span className="shrink-0 text-sm text-muted">Answered</span>
              )}
            </span>
            <span className="mt-1 block text-sm text-ink-soft">
              {thread.patient}
              {thread.state ? ` · ${thread.state}` : ''}
              {' · '}
              {thread.assigned === 'me' ? 'Yours' : 'Open to providers in the state'}
            </span>
            <span className="mt-0.5 block text-sm text-muted">
              Last message{' '}
              <time dateTime={thread.updated_at}>{longDateTime(thread.updated_at)}</time>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
