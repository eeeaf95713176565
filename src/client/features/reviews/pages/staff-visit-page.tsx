import { useQueryClient } from '@tanstack/react-query';
import { Navigate, useParams } from 'react-router';
import { apiPaths, apiUrl } from '#shared/api.ts';
import { categoryLabel } from '#shared/catalog.ts';
import { formatCents } from '#shared/money.ts';
import type { Chart } from '#shared/reviews.ts';
import { usDateFromIso } from '#shared/dates.ts';
import { preferenceWords, treatmentWords } from '#shared/visits.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
import {
  MessageList,
  newestId,
  ReplyForm,
  useScrollToEnd,
} from '#client/features/messages/components/message-thread.tsx';
import { earlierOf } from '#client/features/messages/thread-pages.ts';
import { paths } from '#shared/paths.ts';
import { BackLink, StaffHeader } from '#client/features/staff/components/staff-frame.tsx';
import { useStaff } from '#client/features/staff/components/staff-layout.tsx';
import { paymentStatusLabel } from '#client/components/ui/staff-order-status.tsx';
import { DecisionRecord } from '../components/decision-record.tsx';
import { ChartPanel as Panel } from '../components/chart-panel.tsx';
import {
  RenewalComparison,
  RenewalHistory,
  RenewalScalpPhotos,
} from '../components/renewal-panels.tsx';
import { RiskFlagList } from '../components/risk-flags.tsx';
import { VisitDecisionPanel } from '../components/visit-decision-panel.tsx';
import { providerKeys, sendVisitMessage, useChart, useVisitThread } from '../reviews.api.ts';
import { ActivePrescriptions } from '../components/active-prescriptions.tsx';

const statusLabels: Record<string, string> = {
  PENDING_REVIEW: 'Waiting for review',
  APPROVED: 'Approved',
  DECLINED: 'Declined',
};

/** A program preference's code in the patient's words; anything unknown is shown as sent. */
function preferenceText(code: string): string {
  return preferenceWords[code] ?? humanize(code);
}

function humanize(value: string): string {
  const text = value.replace(/[_-]+/g, ' ').toLowerCase();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** /staff/visits/:id: a visit's chart for the provider, the conversation and the decision. */
export function StaffVisitPage() {
  const staff = useStaff();
  const params = useParams();
  const id = Number(params.id);
  const chart = useChart(id, { enabled: staff.role === 'provider' });
  const back = <BackLink to={paths.staff}>Review queue</BackLink>;
  if (staff.role !== 'provider') return <Navigate to={paths.staff} replace />;
  if (!Number.isInteger(id) || id <= 0) {
    return (
      <>
        {back}
        <StaffHeader title="Visit not found" />
        <p className="text-ink-soft">There is no visit at this address.</p>
      </>
    );
  }
  return (
    <>
      {back}
      <QueryView query={chart} loading="Loading the chart…">
        {(data) => <ChartView chart={data} />}
      </QueryView>
    </>
  );
}

function ChartView({ chart }: { chart: Chart }) {
  const { patient, preferences } = chart;
  const words = treatmentWords(chart.category, preferences);
  const wanted = [words.drug, words.dosage, words.frequency].filter(Boolean).join(' · ');
  return (
    <>
      <StaffHeader
        title={patient.name}
        subtitle={
          <p>
            {categoryLabel(chart.category)}
            {chart.renewal ? ' · Renewal' : ''} ·{' '}
            {statusLabels[chart.status] ?? humanize(chart.status)}
          </p>
        }
      />
      <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
        <div className="space-y-5">
          {chart.pharmacy_rejections.map((rejection) => (
            <div
              key={rejection.order_number}
              role="alert"
              className="rounded-2xl border border-danger/20 bg-danger-soft p-4 text-[0.9375rem] text-ink"
            >
              <p className="font-semibold">
                The pharmacy could not fill order {rejection.order_number}
              </p>
              <p className="mt-1">{rejection.reason}</p>
              <p className="mt-1 text-ink-soft">
                The patient was told. Write to them below about what happens next; this leaves your
                queue once you have.
              </p>
            </div>
          ))}
          <VisitDecisionPanel chart={chart} />
          {chart.decision ? <DecisionRecord decision={chart.decision} /> : null}
          <Panel id="flags-title" title="Risk flags">
            <RiskFlagList flags={chart.risk_flags} />
          </Panel>
          {/* A Hair renewal's photos before its answers: how treatment is working, at a glance. */}
          {chart.renewal && chart.category === 'hair' ? (
            <RenewalScalpPhotos renewal={chart.renewal} />
          ) : null}
          {chart.renewal ? <RenewalComparison renewal={chart.renewal} /> : null}
          {chart.renewal ? null : (
            <Panel id="answers-title" title="Answers">
              <p className="-mt-1 mb-3 text-sm text-muted">
                Questionnaire {chart.questionnaire.id} {chart.questionnaire.version}
              </p>
              <dl className="divide-y divide-line">
                {chart.answers.map((answer) => (
                  <div key={answer.linkId} className="py-3 first:pt-0">
                    <dt className="text-sm text-muted">{answer.question}</dt>
                    <dd className="mt-0.5 text-[0.9375rem] break-words text-ink">
                      {answer.answer}
                    </dd>
                  </div>
                ))}
              </dl>
            </Panel>
          )}
          <ConversationPanel visitId={chart.visit_id} />
        </div>
        <div className="space-y-5">
          <Panel id="patient-title" title="Patient">
            <dl className="space-y-2 text-[0.9375rem]">
              <div>
                <dt className="text-sm text-muted">Date of birth</dt>
                <dd className="text-ink">
                  {/^\d{4}-\d{2}-\d{2}$/.test(patient.dob)
                    ? usDateFromIso(patient.dob)
                    : patient.dob}{' '}
                  (age {patient.age})
                </dd>
              </div>
              <div>
                <dt className="text-sm text-muted">State</dt>
                <dd className="text-ink">{patient.state}</dd>
              </div>
              <div>
                <dt className="text-sm text-muted">Customer</dt>
                <dd className="text-ink">{patient.customer_id}</dd>
              </div>
            </dl>
          </Panel>
          {chart.renewal ? <RenewalHistory renewal={chart.renewal} /> : null}
          {chart.renewal ? null : (
            <>
              <Panel id="preferences-title" title="Preferences">
                <p className="text-[0.9375rem] text-ink">{wanted || 'None given'}</p>
                {preferences.hair ? (
                  <p className="mt-1 text-[0.9375rem] text-ink-soft">
                    Form: {preferenceText(preferences.hair.form)}
                    {preferences.hair.notes ? ` — ${preferences.hair.notes}` : ''}
                  </p>
                ) : null}
                {preferences.sleep ? (
                  <p className="mt-1 text-[0.9375rem] text-ink-soft">
                    Help with: {preferenceText(preferences.sleep.goal)}
                    {preferences.sleep.notes ? ` — ${preferences.sleep.notes}` : ''}
                  </p>
                ) : null}
              </Panel>
              <Panel id="photo-title" title="Photo ID">
                {chart.photo_upload_key ? (
                  <img
                    src={apiUrl(apiPaths.visitUpload, { id: chart.photo_upload_key })}
                    alt="Photo ID"
                    className="w-full rounded-xl ring-1 ring-line"
                  />
                ) : (
                  <p className="text-[0.9375rem] text-ink-soft">
                    {chart.photo_uploaded
                      ? 'The photo ID is shown only while the visit waits for review.'
                      : 'No photo ID uploaded.'}
                  </p>
                )}
              </Panel>
              <Panel id="order-title" title="Order and payment">
                {chart.order ? (
                  <dl className="space-y-2 text-[0.9375rem]">
                    <div>
                      <dt className="text-sm text-muted">Order</dt>
                      <dd className="text-ink">{chart.order.order_number}</dd>
                    </div>
                    <div>
                      <dt className="text-sm text-muted">Total</dt>
                      <dd className="text-ink">{formatCents(chart.order.total_cents)}</dd>
                    </div>
                    <div>
                      <dt className="text-sm text-muted">Payment</dt>
                      <dd className="text-ink">{paymentStatusLabel(chart.order.payment_status)}</dd>
                    </div>
                  </dl>
                ) : (
                  <p className="text-[0.9375rem] text-ink-soft">No order yet.</p>
                )}
              </Panel>
            </>
          )}
        </div>
      </div>
    </>
  );
}

function ConversationPanel({ visitId }: { visitId: number }) {
  const queryClient = useQueryClient();
  const thread = useVisitThread(visitId);
  const messages = thread.data?.thread?.messages ?? [];
  const scroller = useScrollToEnd(newestId(messages));
  return (
    <>
      {/* Beside the patient's messages, what they take now (issue 29). */}
      {thread.data ? <ActivePrescriptions prescriptions={thread.data.prescriptions} /> : null}
      <Panel id="conversation-title" title="Conversation with the patient">
        <QueryView query={thread} loading="Loading the conversation…" size="inline">
          {() => (
            // Focusable: a keyboard scrolls a long conversation (axe scrollable-region-focusable).
            <div
              ref={scroller}
              tabIndex={0}
              className="max-h-[28rem] overflow-y-auto rounded-xl outline-none focus-visible:ring-2 focus-visible:ring-accent-600"
            >
              <MessageList
                messages={messages}
                me="care_team"
                label="Conversation with the patient"
                earlier={earlierOf(thread)}
              />
            </div>
          )}
        </QueryView>
        <div className="mt-4 border-t border-line pt-4">
          <ReplyForm
            label="Message to the patient"
            onSend={async (body) => {
              await sendVisitMessage(visitId, body);
              await queryClient.invalidateQueries({ queryKey: providerKeys.thread(visitId) });
              // Writing to the patient closes a rejected fill's task (issue 29).
              void queryClient.invalidateQueries({ queryKey: providerKeys.chart(visitId) });
              void queryClient.invalidateQueries({ queryKey: providerKeys.queue });
            }}
          />
        </div>
      </Panel>
    </>
  );
}
