import { Navigate } from 'react-router';
import type { PatientMessageItem } from '#shared/messages.ts';
import { paths } from '#shared/paths.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { StaffHeader } from '#client/features/staff/components/staff-frame.tsx';
import { useStaff } from '#client/features/staff/components/staff-layout.tsx';
import { ConversationCard } from '#client/features/messages/components/conversation-card.tsx';
import { usePatientMessages } from '../reviews.api.ts';

/**
 * /staff/patient-messages: patients' questions about their treatment, for the provider: those
 * given to them, and those open to every provider licensed in the patient's state. Waiting ones
 * first.
 */
export function PatientMessagesPage() {
  const staff = useStaff();
  const list = usePatientMessages({ enabled: staff.role === 'provider' });
  if (staff.role !== 'provider') return <Navigate to={paths.staff} replace />;
  // A question is answered when a provider answers it, not when operations wrote last (issue 29).
  const waiting = list.data?.filter((t) => t.waiting_for_provider).length;
  return (
    <>
      <StaffHeader
        title="Patient messages"
        subtitle={
          <p>
            {waiting === undefined
              ? "Patients' questions about their treatment."
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
          <ConversationCard
            to={paths.staffPatientThread(thread.thread_id)}
            subject={thread.subject}
            unread={thread.unread}
            lastSender={thread.last_sender}
            waiting={thread.waiting_for_provider}
            updatedAt={thread.updated_at}
            details={`${thread.patient}${thread.state ? ` · ${thread.state}` : ''} · ${thread.assigned === 'me' ? 'Yours' : 'Open to providers in the state'}`}
          />
        </li>
      ))}
    </ul>
  );
}
