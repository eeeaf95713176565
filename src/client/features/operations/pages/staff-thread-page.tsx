import { useQueryClient } from '@tanstack/react-query';
import { Navigate, useParams } from 'react-router';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { earlierOf, type EarlierMessages } from '#client/features/messages/thread-pages.ts';
import { CareTeamConversation } from '#client/features/messages/components/message-thread.tsx';
import type { DataOf } from '#shared/contract.ts';
import type { operationsApi } from '#shared/operations.ts';
import { paths } from '#shared/paths.ts';
import { BackLink, StaffHeader } from '#client/features/staff/components/staff-frame.tsx';
import { useStaff } from '#client/features/staff/components/staff-layout.tsx';
import { HandOffButton } from '../components/hand-off-dialog.tsx';
import { inboxKeys, replyInThread, useCareThread } from '../operations.api.ts';

/** /staff/inbox/:id: one patient's conversation with the care team, and the answer. */
export function StaffThreadPage() {
  const staff = useStaff();
  const id = Number(useParams().id);
  const thread = useCareThread(id, { enabled: staff.role === 'operations' });
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
  return (
    <>
      {back}
      <QueryView query={thread} loading="Loading the conversation…">
        {(data) => <Conversation id={id} earlier={earlierOf(thread)} {...data} />}
      </QueryView>
    </>
  );
}

type CareThread = DataOf<typeof operationsApi.inboxThread>;

function Conversation({
  id,
  earlier,
  thread,
  patient,
  providers,
}: CareThread & { id: number; earlier: EarlierMessages }) {
  const queryClient = useQueryClient();
  return (
    <>
      <StaffHeader
        title={thread.subject}
        subtitle={
          <p>
            {patient.name} · Customer {patient.customer_id}
            {thread.order_number ? ` · About order ${thread.order_number}` : ''}
          </p>
        }
        aside={<HandOffButton threadId={id} patient={patient.name} providers={providers} />}
      />
      <p className="mb-4 max-w-3xl text-[0.9375rem] text-ink-soft">
        A question about medicines, side effects or how the patient feels is a provider's to answer:
        hand it to one rather than answering it here.
      </p>
      <CareTeamConversation
        patientName={patient.name}
        messages={thread.messages}
        earlier={earlier}
        onSend={async (body) => {
          await replyInThread(id, body);
          await queryClient.invalidateQueries({ queryKey: inboxKeys.thread(id) });
          void queryClient.invalidateQueries({ queryKey: inboxKeys.list });
        }}
      />
    </>
  );
}
