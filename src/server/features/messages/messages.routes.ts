import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '#server/context.ts';
import { route } from '#server/lib/route.ts';
import { operationsApi } from '#shared/operations.ts';
import { messagesApi } from '#shared/messages.ts';
import {
  careInbox,
  careReply,
  careThread,
  careThreadPatient,
  markThreadRead,
  recentMessages,
  sendAsPatient,
  threadsOf,
} from './messages.service.ts';

const tag = 'messages';

export const messagesRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    route(
      app,
      messagesApi.getAll,
      { tag, summary: "The patient's conversations with the care team" },
      async ({ session }) => threadsOf(ctx, session.customerId),
    );
    route(
      app,
      messagesApi.getRecent,
      { tag, summary: 'Messages to the patient since an instant (polling)' },
      async ({ session, body }) => recentMessages(ctx, session.customerId, body.since),
    );
    route(
      app,
      messagesApi.send,
      { tag, summary: 'Write to the care team: a reply, or a new conversation' },
      async ({ session, body }) => ({
        message: await sendAsPatient(ctx, session.customerId, {
          threadId: body.thread_id,
          subject: body.subject,
          orderNumber: body.order_number,
          body: body.body,
        }),
      }),
    );
    route(
      app,
      messagesApi.read,
      { tag, summary: 'Mark a conversation read' },
      async ({ session, body }) => {
        await markThreadRead(ctx, session.customerId, body.thread_id);
      },
    );

    // The care team's inbox, for operations staff: threads not about a visit. Audited like charts.
    route(
      app,
      operationsApi.inbox,
      {
        tag: 'operations',
        summary: "The care team's inbox: threads not about a visit",
        audit: () => ({ action: 'view', subjectType: 'inbox' }),
      },
      async () => ({ threads: await careInbox(ctx) }),
    );
    route(
      app,
      operationsApi.inboxThread,
      {
        tag: 'operations',
        summary: "A thread of the care team's inbox; the patient's messages are now read",
        audit: ({ body }, { patient }) => ({
          action: 'view',
          subjectType: 'messages',
          subjectId: body.thread_id,
          customerId: patient.customer_id,
        }),
      },
      ({ body }) => careThread(ctx, body.thread_id),
    );
    route(
      app,
      operationsApi.inboxReply,
      {
        tag: 'operations',
        summary: "Answer the patient in a thread of the care team's inbox",
        audit: async ({ body }) => ({
          action: 'message',
          subjectType: 'thread',
          subjectId: body.thread_id,
          customerId: await careThreadPatient(ctx, body.thread_id),
        }),
      },
      async ({ session, body }) => ({
        message: await careReply(ctx, session.staff.id, body.thread_id, body.body),
      }),
    );
  };
