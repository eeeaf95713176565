import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '#server/context.ts';
import {
  providerReply,
  providerThread,
  providerThreads,
} from '#server/features/messages/messages.service.ts';
import {
  decideRequest,
  openRequestTasks,
  requestOfThread,
} from '#server/features/treatment-requests/treatment-requests.service.ts';
import { route } from '#server/lib/route.ts';
import { reviewsApi } from '#shared/reviews.ts';
import {
  approveVisit,
  chart,
  declineVisit,
  patientOfVisit,
  pharmacyRejectionTasks,
  providerQueue,
  replyToPatient,
  riskAssessment,
  visitMessages,
} from './reviews.service.ts';

const tag = 'reviews';

/**
 * The provider console: queue, chart, decision. Every view of a chart is written to the audit log
 * here; a decision or a message by its service, with the change.
 */
export const reviewsRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    route(
      app,
      reviewsApi.queue,
      {
        tag,
        summary: "The visits waiting in the provider's states",
        audit: () => ({ subjectType: 'visit_queue' }),
      },
      async ({ session }) => ({
        visits: await providerQueue(ctx, session),
        pharmacy_rejections: await pharmacyRejectionTasks(ctx, session),
        requests: await openRequestTasks(ctx, session),
      }),
    );

    route(
      app,
      reviewsApi.chart,
      {
        tag,
        summary: "A visit's chart",
        audit: (_, { chart }) => visitOf(chart),
      },
      async ({ session, body }) => ({ chart: await chart(ctx, session, body.visit_id) }),
    );

    // A decision, like a message, is audited by its service in the transaction that records it.
    route(
      app,
      reviewsApi.approve,
      { tag, summary: 'Approve a visit with its prescription; the order is charged' },
      async ({ session, body, request }) => ({
        chart: await approveVisit(ctx, session, body.visit_id, body.prescription, request.ip),
      }),
    );

    route(
      app,
      reviewsApi.decline,
      { tag, summary: 'Decline a visit; the hold on the card is released' },
      async ({ session, body, request }) => ({
        chart: await declineVisit(ctx, session, body.visit_id, body.reason, request.ip),
      }),
    );

    route(
      app,
      reviewsApi.messages,
      {
        tag,
        summary: "A visit's conversation with the patient",
        audit: async ({ body }) => ({
          subjectType: 'messages',
          subjectId: body.visit_id,
          customerId: await patientOfVisit(ctx, body.visit_id),
        }),
      },
      ({ session, body }) => visitMessages(ctx, session, body.visit_id, body.cursor),
    );

    route(
      app,
      reviewsApi.sendMessage,
      { tag, summary: 'Write to the patient about their visit' },
      async ({ session, body, request }) => ({
        message: await replyToPatient(ctx, session, body.visit_id, body.body, request.ip),
      }),
    );

    route(
      app,
      reviewsApi.riskAssessment,
      {
        tag,
        summary: "The risk flags a visit's answers raise",
        audit: async ({ body }) => ({
          subjectType: 'risk_assessment',
          subjectId: body.visit_id,
          customerId: await patientOfVisit(ctx, body.visit_id),
        }),
      },
      async ({ session, body }) => ({ flags: await riskAssessment(ctx, session, body.visit_id) }),
    );

    // A provider's patient messages: clinical threads not about a visit, theirs or open to the
    // providers licensed in the patient's state. Audited like charts.
    route(
      app,
      reviewsApi.patientMessages,
      {
        tag,
        summary: "Patients' clinical questions this provider may answer",
        audit: () => ({ subjectType: 'patient_messages' }),
      },
      async ({ session }) => ({ threads: await providerThreads(ctx, session) }),
    );
    route(
      app,
      reviewsApi.patientThread,
      {
        tag,
        summary: "A patient's clinical thread; the patient's messages are now read",
        audit: ({ body }, { patient }) => ({
          subjectType: 'messages',
          subjectId: body.thread_id,
          customerId: patient.customer_id,
        }),
      },
      async ({ session, body }) => ({
        ...(await providerThread(ctx, session, body.thread_id, body.cursor)),
        request: await requestOfThread(ctx, body.thread_id),
      }),
    );
    route(
      app,
      reviewsApi.decideRequest,
      {
        tag,
        summary:
          'Decide a request between visits: a refill date, a new prescription, a decline or a message',
      },
      async ({ session, body, request }) => ({
        request: await decideRequest(ctx, session, body, request.ip),
      }),
    );
    route(
      app,
      reviewsApi.patientReply,
      {
        tag,
        summary: "Answer a patient's clinical thread; an open one becomes this provider's",
      },
      async ({ session, body, request }) => ({
        message: await providerReply(ctx, session, body.thread_id, body.body, request.ip),
      }),
    );
  };

/** The audit subject of a call that answers with the chart. */
const visitOf = (chart: { visit_id: number; patient: { customer_id: number } }) => ({
  subjectType: 'visit',
  subjectId: chart.visit_id,
  customerId: chart.patient.customer_id,
});
