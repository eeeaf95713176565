import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '#server/context.ts';
import { route } from '#server/lib/route.ts';
import { messagesApi } from '#shared/messages.ts';
import {
  markThreadRead,
  patientThread,
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
      messagesApi.thread,
      { tag, summary: "One of the patient's conversations, a page at a time" },
      async ({ session, body }) => ({
        thread: await patientThread(ctx, session.customerId, body.thread_id, body.cursor),
      }),
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
          topic: body.topic,
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
  };
