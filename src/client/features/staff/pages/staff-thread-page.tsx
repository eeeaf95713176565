import { useQueryClient } from '@tanstack/react-query';
import { Navigate, useParams } from 'react-router';
import { LoadError } from '#client/components/ui/load-error.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import {
  MessageList,
  ReplyForm,
  useScrollToEnd,
} from '#client/features/messages/components/message-thread.tsx';
import { paths } from '#shared/paths.ts';
import { BackLink, StaffHeader } from '../components/staff-frame.tsx';
import { useStaff } from '../components/staff-layout.tsx';
import { inboxKeys, replyInThread, useCareThread } from '../staff.api.ts';

/** /staff/inbox/:id: one patient's conversation with the care team, and the answer. */
export function StaffThreadPage() {
  const staff = useStaff();
  const queryClient = useQueryClient();
  const id = Number(useParams().id);
  const thread = useCareThread(id, { enabled: staff.role === 'operations' });
  const messages = thread.data?.thread.messages ?? [];
  const scroller = useScrollToEnd(messages.length);
  const back = <BackLink to={paths.staffInbox}>Inbox</BackLink>;

  if (staff.role !== 'operations') return <Navigate to={paths.staff} replace />;
  if (!Number.isInteger(id) || id <= 0) {
    return (
      <>
        {back}
        <StaffHeader title="Conversation not found" />
        <p className="text-ink-soft">There is no conversation at this address.</p>
      </>
    );
  }
  if (thread.isPending) return <Spinner block label="Loading the conversation…" />;
  if (thread.isError) {
    return (
      <>
        {back}
        <StaffHeader title="Conversation" />
        <LoadError message={thread.error.message} onRetry={() => void thread.refetch()} />
      </>
    );
  }
  const { patient } = thread.data;
  const { subject, order_number: orderNumber } = thread.data.thread;
  return (
    <>
      {back}
      <StaffHeader
        title={subject}
        subtitle={
          <p>
            {patient.name} · Customer {patient.customer_id}
            {orderNumber ? ` · About order ${orderNumber}` : ''}
          </p>
        }
      />
      <section
        aria-label={`Conversation with ${patient.name}`}
        className="max-w-3xl rounded-2xl border border-line bg-white p-5 shadow-[0_1px_2px_rgba(15,37,51,0.04)]"
      >
        <div ref={scroller} className="max-h-[32rem] overflow-y-auto">
          <MessageList
            messages={messages}
            me="care_team"
            label={`Conversation with ${patient.name}`}
          />
        </div>
        <div className="mt-4 border-t border-line pt-4">
          <ReplyForm
            label="Answer to the patient"
            submitLabel="Send answer"
            onSend={async (body) => {
              await replyInThread(id, body);
              await queryClient.invalidateQueries({ queryKey: inboxKeys.thread(id) });
              void queryClient.invalidateQueries({ queryKey: inboxKeys.list });
            }}
          />
        </div>
      </section>
    </>
  );
}
