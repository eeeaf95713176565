import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '#server/context.ts';
import { audit } from '#server/features/staff/staff.service.ts';
import { requireOwnLeadsId } from '#server/plugins/session.ts';
import { requireStaff } from '#server/plugins/staff-session.ts';
import { apiPaths } from '#shared/api.ts';
import {
  CareInboxResponseSchema,
  CareReplySchema,
  CareThreadRequestSchema,
  CareThreadResponseSchema,
  MarkReadSchema,
  MessagesRequestSchema,
  RecentMessagesRequestSchema,
  RecentResponseSchema,
  SendMessageSchema,
  SentResponseSchema,
  ThreadsResponseSchema,
} from '#shared/messaging.ts';
import { z } from 'zod';
import {
  careInbox,
  careReply,
  careThread,
  markThreadRead,
  recentMessages,
  sendAsPatient,
  threadsOf,
} from './messaging.service.ts';

const tags = ['messaging'];

export const messagingRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      apiPaths.messagingGetAll,
      { schema: { tags, body: MessagesRequestSchema, response: { 200: ThreadsResponseSchema } } },
      async (request) => {
        const session = requireOwnLeadsId(request, request.body.leads_id);
        return {
          status: 'SUCCESS' as const,
          message: '',
          data: await threadsOf(ctx, session.customerId),
        };
      },
    );
    app.post(
      apiPaths.messagingGetRecent,
      {
        schema: {
          tags,
          body: RecentMessagesRequestSchema,
          response: { 200: RecentResponseSchema },
        },
      },
      async (request) => {
        const session = requireOwnLeadsId(request, request.body.leads_id);
        return {
          status: 'SUCCESS' as const,
          message: '',
          data: await recentMessages(ctx, session.customerId, request.body.since),
        };
      },
    );
    app.post(
      apiPaths.messagingSend,
      { schema: { tags, body: SendMessageSchema, response: { 200: SentResponseSchema } } },
      async (request) => {
        const session = requireOwnLeadsId(request, request.body.leads_id);
        const message = await sendAsPatient(ctx, session.customerId, {
          threadId: request.body.thread_id,
          subject: request.body.subject,
          orderNumber: request.body.order_number,
          body: request.body.body,
        });
        return { status: 'SUCCESS' as const, message: 'Sent.', data: { message } };
      },
    );
    app.post(
      apiPaths.messagingRead,
      {
        schema: {
          tags,
          body: MarkReadSchema,
          response: { 200: z.object({ status: z.literal('SUCCESS'), message: z.string() }) },
        },
      },
      async (request) => {
        const session = requireOwnLeadsId(request, request.body.leads_id);
        await markThreadRead(ctx, session.customerId, request.body.thread_id);
        return { status: 'SUCCESS' as const, message: '' };
      },
    );

    // The care team's inbox, for operations staff: threads not about a visit. Audited like charts.
    app.post(
      apiPaths.staffInbox,
      { schema: { tags, body: z.strictObject({}), response: { 200: CareInboxResponseSchema } } },
      async (request) => {
        const staff = requireStaff(request, 'operations');
        const threads = await careInbox(ctx);
        await audit(ctx, staff, { action: 'view', subjectType: 'inbox', ip: request.ip });
        return { status: 'SUCCESS' as const, message: '', data: { threads } };
      },
    );
    app.post(
      apiPaths.staffInboxThread,
      {
        schema: {
          tags,
          body: CareThreadRequestSchema,
          response: { 200: CareThreadResponseSchema },
        },
      },
      async (request) => {
        const staff = requireStaff(request, 'operations');
        const data = await careThread(ctx, request.body.thread_id);
        await audit(ctx, staff, {
          action: 'view',
          subjectType: 'messages',
          subjectId: request.body.thread_id,
          customerId: data.patient.customer_id,
          ip: request.ip,
        });
        return { status: 'SUCCESS' as const, message: '', data };
      },
    );
    app.post(
      apiPaths.staffInboxReply,
      { schema: { tags, body: CareReplySchema, response: { 200: SentResponseSchema } } },
      async (request) => {
        const staff = requireStaff(request, 'operations');
        const { message, customerId } = await careReply(
          ctx,
          staff.staff.id,
          request.body.thread_id,
          request.body.body,
        );
        await audit(ctx, staff, {
          action: 'message',
          subjectType: 'thread',
          subjectId: request.body.thread_id,
          customerId,
          ip: request.ip,
        });
        return { status: 'SUCCESS' as const, message: 'Sent.', data: { message } };
      },
    );
  };
