import { useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, useParams } from 'react-router';
import type { DataOf } from '#shared/contract.ts';
import { paths } from '#shared/paths.ts';
import type { reviewsApi } from '#shared/reviews.ts';
import { buttonClass } from '#client/components/ui/button.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { earlierOf, type EarlierMessages } from '#client/features/messages/thread-pages.ts';
import { CareTeamConversation } from '#client/features/messages/components/message-thread.tsx';
import { BackLink, StaffHeader } from '#client/features/staff/components/staff-frame.tsx';
import { useStaff } from '#client/features/staff/components/staff-layout.tsx';
import { providerKeys, replyToPatient, usePatientThread } from '../reviews.api.ts';
import { ActivePrescriptions } from '../components/active-prescriptions.tsx';
import { RequestPanel } from '../components/request-panel.tsx';

/** /staff/patient-messages/:id: a patient's question about their treatment, and the answer. */
export function PatientThreadPage() {
  const staff = useStaff();
  const id = Number(useParams().id);
  const thread = usePatientThread(id, { enabled: staff.role === 'provider' });
  const back = <BackLink to={paths.staffPatientMessages}>Patient messages</BackLink>;

  if (staff.role !== 'provider') return <Navigate to={paths.staff} replace />;
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

type PatientThread = DataOf<typeof reviewsApi.patientThread>;

function Conversation({
  id,
  earlier,
  thread,
  patient,
  assigned,
  visit_id: visitId,
  prescriptions,
  request,
}: PatientThread & { id: number; earlier: EarlierMessages }) {
  const queryClient = useQueryClient();
  return (
    <>
      <StaffHeader
        title={thread.subject}
        subtitle={
          <p>
            {patient.name} · Customer {patient.customer_id}
            {patient.state ? ` · ${patient.state}` : ''}
            {thread.order_number ? ` · About order ${thread.order_number}` : ''}
          </p>
        }
        aside={
          visitId !== null ? (
            <Link to={paths.staffVisit(visitId)} className={buttonClass('secondary')}>
              Open the latest visit
            </Link>
          ) : undefined
        }
      />
      {request ? <RequestPanel request={request} threadId={id} /> : null}
      <ActivePrescriptions prescriptions={prescriptions} className="mb-5 max-w-3xl" />
      {assigned === 'open' ? (
        <p className="mb-4 max-w-3xl text-[0.9375rem] text-ink-soft">
          Open to every provider licensed in the patient's state. Answering makes it yours.
        </p>
      ) : null}
      <CareTeamConversation
        patientName={patient.name}
        messages={thread.messages}
        earlier={earlier}
        onSend={async (body) => {
          await replyToPatient(id, body);
          await queryClient.invalidateQueries({ queryKey: providerKeys.patientThread(id) });
          void queryClient.invalidateQueries({ queryKey: providerKeys.patientMessages });
        }}
      />
    </>
  );
}
