import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '#server/context.ts';
import { audit } from '#server/features/staff/staff.service.ts';
import { requireStaff } from '#server/plugins/staff-session.ts';
import { apiPaths, v1Success } from '#shared/api.ts';
import {
  SentResponseSchema,
  StaffSendMessageSchema,
  StaffThreadRequestSchema,
  StaffThreadResponseSchema,
} from '#shared/messaging.ts';
import {
  ApproveVisitSchema,
  DeclineVisitSchema,
  ReviewQueueSchema,
  ReviewResultSchema,
  RiskAssessmentResultSchema,
  VisitIdSchema,
  VisitRequestSchema,
} from '#shared/telehealth.ts';
import {
  approveVisit,
  chart,
  declineVisit,
  providerQueue,
  replyToPatient,
  riskAssessment,
  visitMessages,
} from './reviews.service.ts';

const tags = ['reviews'];

/** The provider console: queue, chart, decision. Every view of a chart is written to the audit log. */
export const reviewsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      apiPaths.staffVisits,
      {
        schema: {
          tags,
          body: z.strictObject({}).optional(),
          response: { 200: v1Success(ReviewQueueSchema) },
        },
      },
      async (request) => {
        const staff = requireStaff(request, 'provider');
        const visits = await providerQueue(ctx, staff);
        await audit(ctx, staff, { action: 'view', subjectType: 'visit_queue', ip: request.ip });
        return { status: 'SUCCESS' as const, message: '', data: { visits } };
      },
    );

    app.post(
      apiPaths.staffVisit,
      {
        schema: {
          tags,
          body: z.strictObject({ visit_id: VisitIdSchema }),
          response: { 200: ReviewResultSchema },
        },
      },
      async (request) => {
        const staff = requireStaff(request, 'provider');
        const result = await chart(ctx, staff, request.body.visit_id);
        await audit(ctx, staff, {
          action: 'view',
          subjectType: 'visit',
          subjectId: result.visit_id,
          customerId: result.patient.customer_id,
          ip: request.ip,
        });
        return { status: 'SUCCESS' as const, message: '', data: { chart: result } };
      },
    );

    app.post(
      apiPaths.staffApprove,
      { schema: { tags, body: ApproveVisitSchema, response: { 200: ReviewResultSchema } } },
      async (request) => {
        const staff = requireStaff(request, 'provider');
        const result = await approveVisit(
          ctx,
          staff,
          request.body.visit_id,
          request.body.prescription,
        );
        await audit(ctx, staff, {
          action: 'approve',
          subjectType: 'visit',
          subjectId: result.visit_id,
          customerId: result.patient.customer_id,
          ip: request.ip,
        });
        return {
          status: 'SUCCESS' as const,
          message: 'Approved; the order was charged and moves to fulfilment.',
          data: { chart: result },
        };
      },
    );

    app.post(
      apiPaths.staffDecline,
      { schema: { tags, body: DeclineVisitSchema, response: { 200: ReviewResultSchema } } },
      async (request) => {
        const staff = requireStaff(request, 'provider');
        const result = await declineVisit(ctx, staff, request.body.visit_id, request.body.reason);
        await audit(ctx, staff, {
          action: 'decline',
          subjectType: 'visit',
          subjectId: result.visit_id,
          customerId: result.patient.customer_id,
          ip: request.ip,
        });
        return {
          status: 'SUCCESS' as const,
          message: 'Declined; the hold on the card was released.',
          data: { chart: result },
        };
      },
    );

    app.post(
      apiPaths.staffMessages,
      {
        schema: {
          tags,
          body: StaffThreadRequestSchema,
          response: { 200: StaffThreadResponseSchema },
        },
      },
      async (request) => {
        const staff = requireStaff(request, 'provider');
        const { thread, customerId } = await visitMessages(ctx, staff, request.body.visit_id);
        await audit(ctx, staff, {
          action: 'view',
          subjectType: 'messages',
          subjectId: request.body.visit_id,
          customerId,
          ip: request.ip,
        });
        return { status: 'SUCCESS' as const, message: '', data: { thread } };
      },
    );

    app.post(
      apiPaths.staffMessageSend,
      { schema: { tags, body: StaffSendMessageSchema, response: { 200: SentResponseSchema } } },
      async (request) => {
        const staff = requireStaff(request, 'provider');
        const { message, customerId } = await replyToPatient(
          ctx,
          staff,
          request.body.visit_id,
          request.body.body,
        );
        await audit(ctx, staff, {
          action: 'message',
          subjectType: 'visit',
          subjectId: request.body.visit_id,
          customerId,
          ip: request.ip,
        });
        return { status: 'SUCCESS' as const, message: 'Sent.', data: { message } };
      },
    );

    // Spec §7 `/risk/assessment/`: for the provider (a staff session), never for patients.
    app.post(
      apiPaths.riskAssessment,
      { schema: { tags, body: VisitRequestSchema, response: { 200: RiskAssessmentResultSchema } } },
      async (request) => {
        const staff = requireStaff(request, 'provider');
        const { flags, customerId } = await riskAssessment(ctx, staff, request.body.visit_id);
        await audit(ctx, staff, {
          action: 'view',
          subjectType: 'risk_assessment',
          subjectId: request.body.visit_id,
          customerId,
          ip: request.ip,
        });
        return { status: 'SUCCESS' as const, message: '', data: { flags } };
      },
    );
  };
