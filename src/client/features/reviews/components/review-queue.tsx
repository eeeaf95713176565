import { Link } from 'react-router';
import { categoryLabel } from '#shared/catalog.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { paths } from '#shared/paths.ts';
import type { PharmacyRejectionTask, RequestTask, ReviewQueueItem } from '#shared/reviews.ts';
import { requestKindNames } from '#shared/treatment-requests.ts';
import { useReviewQueue } from '../reviews.api.ts';
import { StaffHeader } from '#client/features/staff/components/staff-frame.tsx';
import { longDateTime } from '#client/components/ui/staff-order-status.tsx';

function Flags({ count }: { count: number }) {
  if (count === 0) return <span className="text-ink-soft">No risk flags</span>;
  return (
    <span className="inline-flex items-center rounded-full bg-danger-soft px-2.5 py-0.5 text-sm font-semibold text-danger">
      {count} risk {count === 1 ? 'flag' : 'flags'}
    </span>
  );
}

/** What waits: the visits, oldest first, the fills the pharmacy rejected, the patients' requests. */
function waitingWords(visits: number, rejections: number, requests: number): string {
  const visitWords =
    visits > 0
      ? `${visits} ${visits === 1 ? 'visit is' : 'visits are'} waiting for your review, oldest first.`
      : '';
  const rejectionWords =
    rejections > 0
      ? `${rejections} ${rejections === 1 ? 'fill the pharmacy rejected needs' : 'fills the pharmacy rejected need'} you.`
      : '';
  const requestWords =
    requests > 0
      ? `${requests} ${requests === 1 ? 'request from a patient waits' : 'requests from patients wait'} for your decision.`
      : '';
  return (
    [visitWords, rejectionWords, requestWords].filter(Boolean).join(' ') ||
    'Nothing is waiting for your review.'
  );
}

/** The provider's review queue: visits from their states waiting for a decision, oldest first. */
export function ReviewQueue({ name }: { name: string }) {
  const queue = useReviewQueue();
  return (
    <>
      <StaffHeader
        title="Review queue"
        subtitle={
          <p>
            {`Welcome, ${name}. `}
            {queue.data === undefined
              ? 'Visits waiting for your review, oldest first.'
              : waitingWords(
                  queue.data.visits.length,
                  queue.data.pharmacy_rejections.length,
                  queue.data.requests.length,
                )}
          </p>
        }
      />
      <QueryView query={queue} loading="Loading the review queue…">
        {(data) => (
          <div className="space-y-8">
            {data.pharmacy_rejections.length > 0 ? (
              <PharmacyRejections tasks={data.pharmacy_rejections} />
            ) : null}
            {data.requests.length > 0 ? <Requests tasks={data.requests} /> : null}
            <Queues visits={data.visits} />
          </div>
        )}
      </QueryView>
    </>
  );
}

/**
 * Fills the pharmacy rejected (issue 29), first: each stays until a provider writes to the patient
 * about it in the visit's conversation, which the chart opens.
 */
function PharmacyRejections({ tasks }: { tasks: PharmacyRejectionTask[] }) {
  return (
    <section aria-labelledby="queue-pharmacy-title">
      <h2 id="queue-pharmacy-title" className="mb-1 text-xl text-ink">
        The pharmacy could not fill <span className="text-base text-muted">({tasks.length})</span>
      </h2>
      <p className="mb-3 text-[0.9375rem] text-ink-soft">
        The patient was told and waits to hear from you. Open the chart and write to them about what
        happens next.
      </p>
      <ul className="space-y-3">
        {tasks.map((task) => (
          <li
            key={task.order_number}
            className="rounded-2xl border border-danger/20 bg-white p-4 shadow-[0_1px_2px_rgba(15,37,51,0.04)]"
          >
            <p className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
              <Link
                to={paths.staffVisit(task.visit_id)}
                className="font-semibold text-accent-800 underline underline-offset-4"
              >
                {task.patient}
              </Link>
              <span className="text-sm text-muted">
                {categoryLabel(task.category)} · {task.state} · Order {task.order_number}
              </span>
            </p>
            <p className="mt-1.5 text-[0.9375rem] text-ink">{task.reason}</p>
            <p className="mt-1 text-sm text-muted">
              Rejected <time dateTime={task.rejected_at}>{longDateTime(task.rejected_at)}</time>
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * Requests between visits (issue 29): an early refill, a dose change, a side effect, oldest first.
 * Each opens its conversation, where the provider reads the patient's words and decides.
 */
function Requests({ tasks }: { tasks: RequestTask[] }) {
  return (
    <section aria-labelledby="queue-requests-title">
      <h2 id="queue-requests-title" className="mb-1 text-xl text-ink">
        Requests between visits <span className="text-base text-muted">({tasks.length})</span>
      </h2>
      <p className="mb-3 text-[0.9375rem] text-ink-soft">
        Patients on a refill plan asking about their treatment. Open one to read it and decide.
      </p>
      <ul className="space-y-3">
        {tasks.map((task) => (
          <li
            key={task.request_id}
            className="rounded-2xl border border-line bg-white p-4 shadow-[0_1px_2px_rgba(15,37,51,0.04)]"
          >
            <p className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
              <Link
                to={paths.staffPatientThread(task.thread_id)}
                className="font-semibold text-accent-800 underline underline-offset-4"
              >
                {requestKindNames[task.kind]}: {task.patient}
              </Link>
              <span className="text-sm text-muted">
                {categoryLabel(task.category)} · {task.state} · {task.medicine}
              </span>
            </p>
            <p className="mt-1.5 text-[0.9375rem] text-ink">{task.reason}</p>
            <p className="mt-1 text-sm text-muted">
              Asked <time dateTime={task.created_at}>{longDateTime(task.created_at)}</time>
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The patient asked for this review after a knock-out answer (no payment is held). */
export function ReviewRequestBadge() {
  return (
    <span className="mt-1.5 inline-flex rounded-full bg-warning-soft px-2.5 py-0.5 text-xs font-semibold text-ink">
      Patient asked for a review after a knock-out answer
    </span>
  );
}

/**
 * New visits, and beside them the renewals (issue 29): the short visits of patients whose
 * prescription is running out, read against their last visit.
 */
function Queues({ visits }: { visits: ReviewQueueItem[] }) {
  if (visits.length === 0) return <QueueList visits={visits} caption="" />;
  const queues = [
    {
      id: 'queue-new-title',
      title: 'New visits',
      visits: visits.filter((visit) => visit.kind !== 'renewal'),
      empty: 'No new visits are waiting.',
    },
    {
      id: 'queue-renewals-title',
      title: 'Renewals',
      visits: visits.filter((visit) => visit.kind === 'renewal'),
      empty: 'No renewals are waiting.',
    },
  ];
  return (
    <div className="space-y-8">
      {queues.map((queue) => (
        <section key={queue.id} aria-labelledby={queue.id}>
          <h2 id={queue.id} className="mb-3 text-xl text-ink">
            {queue.title} <span className="text-base text-muted">({queue.visits.length})</span>
          </h2>
          {queue.visits.length === 0 ? (
            <p className="text-ink-soft">{queue.empty}</p>
          ) : (
            <QueueList
              visits={queue.visits}
              caption={`${queue.title} waiting for review, oldest first`}
            />
          )}
        </section>
      ))}
    </div>
  );
}

/** Cards on phones and a table on wider screens; a note when nothing is waiting. */
function QueueList({ visits, caption }: { visits: ReviewQueueItem[]; caption: string }) {
  return visits.length === 0 ? (
    <section className="max-w-2xl rounded-3xl border border-line bg-white p-6 shadow-[0_1px_2px_rgba(15,37,51,0.04)] sm:p-8">
      <h2 className="text-xl text-ink">All caught up</h2>
      <p className="mt-2 text-ink-soft">
        New visits from the states you are licensed in appear here once the patient checks out.
      </p>
    </section>
  ) : (
    <>
      {/* Phones: one card per visit. */}
      <ul className="space-y-3 md:hidden">
        {visits.map((visit) => (
          <li key={visit.visit_id}>
            <Link
              to={paths.staffVisit(visit.visit_id)}
              className="block rounded-2xl border border-line bg-white p-4 shadow-[0_1px_2px_rgba(15,37,51,0.04)] hover:border-accent-400"
            >
              <span className="flex items-start justify-between gap-3">
                <span className="font-semibold text-accent-800">{visit.patient}</span>
                <Flags count={visit.risk_flags} />
              </span>
              <span className="mt-1 block text-sm text-ink-soft">
                {categoryLabel(visit.category)} · {visit.treatment}
              </span>
              {visit.review_requested ? <ReviewRequestBadge /> : null}
              <span className="mt-1 block text-sm text-muted">
                {visit.age} · {visit.state} · Submitted{' '}
                <time dateTime={visit.submitted_at}>{longDateTime(visit.submitted_at)}</time>
              </span>
            </Link>
          </li>
        ))}
      </ul>
      {/* Wider screens: a table. */}
      <div className="hidden overflow-hidden rounded-2xl border border-line bg-white shadow-[0_1px_2px_rgba(15,37,51,0.04)] md:block">
        <table className="w-full text-left text-[0.9375rem]">
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-surface text-sm text-muted">
            <tr>
              <th scope="col" className="px-4 py-3 font-medium">
                Patient
              </th>
              <th scope="col" className="px-4 py-3 font-medium">
                Age
              </th>
              <th scope="col" className="px-4 py-3 font-medium">
                State
              </th>
              <th scope="col" className="px-4 py-3 font-medium">
                Program
              </th>
              <th scope="col" className="px-4 py-3 font-medium">
                Submitted
              </th>
              <th scope="col" className="px-4 py-3 font-medium">
                Risk flags
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {visits.map((visit) => (
              <tr key={visit.visit_id}>
                <td className="px-4 py-3">
                  <Link
                    to={paths.staffVisit(visit.visit_id)}
                    className="font-semibold text-accent-800 underline-offset-4 hover:underline"
                  >
                    {visit.patient}
                  </Link>
                </td>
                <td className="px-4 py-3 text-ink">{visit.age}</td>
                <td className="px-4 py-3 text-ink">{visit.state}</td>
                <td className="px-4 py-3 text-ink">
                  {categoryLabel(visit.category)}
                  <span className="block text-sm text-muted">{visit.treatment}</span>
                  {visit.review_requested ? <ReviewRequestBadge /> : null}
                </td>
                <td className="px-4 py-3 text-ink">
                  <time dateTime={visit.submitted_at}>{longDateTime(visit.submitted_at)}</time>
                </td>
                <td className="px-4 py-3">
                  <Flags count={visit.risk_flags} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
