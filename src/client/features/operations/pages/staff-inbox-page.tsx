import { Navigate } from 'react-router';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { paths } from '#shared/paths.ts';
import { StaffHeader } from '#client/features/staff/components/staff-frame.tsx';
import { useStaff } from '#client/features/staff/components/staff-layout.tsx';
import { ConversationCard } from '#client/features/messages/components/conversation-card.tsx';
import { longDateTime } from '#client/components/ui/staff-order-status.tsx';
import { isClinical, type CareInboxItem } from '#shared/messages.ts';
import { useCareInbox } from '../operations.api.ts';

/**
 * /staff/inbox: what patients wrote to the care team outside a visit (questions about orders,
 * deliveries, their account). Threads waiting for an answer come first.
 */
export function StaffInboxPage() {
  const staff = useStaff();
  const inbox = useCareInbox({ enabled: staff.role === 'operations' });
  if (staff.role !== 'operations') return <Navigate to={paths.staff} replace />;
  const waiting = inbox.data?.filter(
    (t) => !isClinical(t.topic) && t.last_sender === 'patient',
  ).length;
  return (
    <>
      <StaffHeader
        title="Inbox"
        subtitle={
          <p>
            {waiting === undefined
              ? "Patients' questions to the care team. Questions about their treatment go to a provider."
              : waiting === 0
                ? 'Every patient has an answer.'
                : `${waiting} ${waiting === 1 ? 'conversation is' : 'conversations are'} waiting for an answer.`}
          </p>
        }
      />
      <QueryView query={inbox} loading="Loading the inbox…">
        {(threads) => (
          <>
            <Threads threads={threads.filter((t) => !isClinical(t.topic))} />
            <WithProviders threads={threads.filter((t) => isClinical(t.topic))} />
          </>
        )}
      </QueryView>
    </>
  );
}

/** The threads as cards, waiting ones first; a note when there are none. */
function Threads({ threads }: { threads: CareInboxItem[] }) {
  return threads.length === 0 ? (
    <section className="max-w-2xl rounded-3xl border border-line bg-white p-6 shadow-[0_1px_2px_rgba(15,37,51,0.04)] sm:p-8">
      <h2 className="text-xl text-ink">No messages</h2>
      <p className="mt-2 text-ink-soft">
        When a patient writes to the care team from Messages or from one of their orders, the
        conversation appears here.
      </p>
    </section>
  ) : (
    <ul className="max-w-3xl space-y-3">
      {threads.map((thread) => (
        <li key={thread.thread_id}>
          <ConversationCard
            to={paths.staffThread(thread.thread_id)}
            subject={thread.subject}
            unread={thread.unread}
            lastSender={thread.last_sender}
            updatedAt={thread.updated_at}
            details={`${thread.patient} · Customer ${thread.customer_id}${thread.order_number ? ` · Order ${thread.order_number}` : ''}`}
          />
        </li>
      ))}
    </ul>
  );
}

/**
 * Questions about a patient's treatment, which providers answer: operations see who has each one
 * and whether it waits, so none is forgotten, but not what it says.
 */
function WithProviders({ threads }: { threads: CareInboxItem[] }) {
  if (threads.length === 0) return null;
  return (
    <section aria-labelledby="with-providers-title" className="mt-10 max-w-3xl">
      <h2 id="with-providers-title" className="text-xl text-ink">
        Questions for providers
      </h2>
      <p className="mt-1 text-[0.9375rem] text-ink-soft">
        Patients asked about their treatment. A provider answers from their console; what was
        written is theirs to read.
      </p>
      <ul className="mt-4 space-y-3">
        {threads.map((thread) => (
          <li
            key={thread.thread_id}
            className="rounded-2xl border border-line bg-white p-4 shadow-[0_1px_2px_rgba(15,37,51,0.04)] sm:p-5"
          >
            <span className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
              <span className="min-w-0 font-medium text-ink">
                {thread.patient} · Customer {thread.customer_id}
              </span>
              {thread.waiting_for_provider ? (
                <span className="shrink-0 rounded-full bg-warning-soft px-2.5 py-0.5 text-sm font-medium text-warning">
                  Waiting for a provider
                </span>
              ) : (
                <span className="shrink-0 text-sm text-muted">Answered</span>
              )}
            </span>
            <span className="mt-1 block text-sm text-ink-soft">
              {thread.provider
                ? `With ${thread.provider}`
                : "Open to the providers licensed in the patient's state"}
            </span>
            <span className="mt-0.5 block text-sm text-muted">
              Last message{' '}
              <time dateTime={thread.updated_at}>{longDateTime(thread.updated_at)}</time>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
