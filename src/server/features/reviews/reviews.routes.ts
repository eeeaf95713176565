import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '#server/context.ts';
import { route } from '#server/lib/route.ts';
import { reviewsApi } from '#shared/reviews.ts';
import {
  approveVisit,
  chart,
  declineVisit,
  patientOfVisit,
  providerQueue,
  replyToPatient,
  riskAssessment,
  visitMessages,
} from './reviews.service.ts';

const tag = 'reviews';

/** The provider console: queue, chart, decision. Every view of a chart is written to the audit log. */
export const reviewsRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    route(
      app,
      reviewsApi.queue,
      {
        tag,
        summary: "The visits waiting in the provider's states",
        audit: () => ({ action: 'view', subjectType: 'visit_queue' }),
      },
      async ({ session }) => ({ visits: await providerQueue(ctx, session) }),
    );

    route(
      app,
      reviewsApi.chart,
      {
        tag,
        summary: "A visit's chart",
        audit: (_, { chart }) => ({ action: 'view', ...visitOf(chart) }),
      },
      async ({ session, body }) => ({ chart: await chart(ctx, session, body.visit_id) }),
    );

    route(
      app,
      reviewsApi.approve,
      {
        tag,
        summary: 'Approve a visit with its prescription; the order is charged',
        audit: (_, { chart }) => ({ action: 'approve', ...visitOf(chart) }),
      },
      async ({ session, body }) => ({
        chart: await approveVisit(ctx, session, body.visit_id, body.prescription),
      }),
    );

    route(
      app,
      reviewsApi.decline,
      {
        tag,
        summary: 'Decline a visit; the hold on the card is released',
        audit: (_, { chart }) => ({ action: 'decline', ...visitOf(chart) }),
      },
      async ({ session, body }) => ({
        chart: await declineVisit(ctx, session, body.visit_id, body.reason),
      }),
    );

    route(
      app,
      reviewsApi.messages,
      {
        tag,
        summary: "A visit's conversation with the patient",
        audit: async ({ body }) => ({
          action: 'view',
          subjectType: 'messages',
          subjectId: body.visit_id,
          customerId: await patientOfVisit(ctx, body.visit_id),
        }),
      },
      async ({ session, body }) => ({
        thread: await visitMessages(ctx, session, body.visit_id, body.cursor),
      }),
    );

    route(
      app,
      reviewsApi.sendMessage,
      {
        tag,
        summary: 'Write to the patient about their visit',
        audit: async ({ body }) => ({
          action: 'message',
          subjectType: 'visit',
          subjectId: body.visit_id,
          customerId: await patientOfVisit(ctx, body.visit_id),
        }),
      },
      async ({ session, body }) => ({
        message: await replyToPatient(ctx, session, body.visit_id, body.body),
      }),
    );

    route(
      app,
      reviewsApi.riskAssessment,
      {
        tag,
        summary: "The risk flags a visit's answers raise",
        audit: async ({ body }) => ({
          action: 'view',
          subjectType: 'risk_assessment',
          subjectId: body.visit_id,
          customerId: await patientOfVisit(ctx, body.visit_id),
        }),
      },
      async ({ session, body }) => ({ flags: await riskAssessment(ctx, session, body.visit_id) }),
    );
  };

/** The audit subject of a call that answers with the chart. */
const visitOf = (chart: { visit_id: number; patient: { customer_id: number } }) => ({
  subjectType: 'visit',
  subjectId: chart.visit_id,
  customerId: chart.patient.customer_id,
});
