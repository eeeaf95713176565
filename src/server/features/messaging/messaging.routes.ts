import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '#server/context.ts';
import { requireOwnLeadsId } from '#server/plugins/session.ts';
import { apiPaths } from '#shared/api.ts';
import {
  MarkReadSchema,
  MessagesRequestSchema,
  RecentMessagesRequestSchema,
  RecentResponseSchema,
  SendMessageSchema,
  SentResponseSchema,
  ThreadsResponseSchema,
} from '#shared/messaging.ts';
import { z } from 'zod';
import { markThreadRead, recentMessages, sendAsPatient, threadsOf } from './messaging.service.ts';

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
  };
