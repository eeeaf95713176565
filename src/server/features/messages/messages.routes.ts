import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '#server/context.ts';
import { route } from '#server/lib/route.ts';
import { operationsApi } from '#shared/operations.ts';
import { messagesApi } from '#shared/messages.ts';
import { reviewsApi } from '#shared/reviews.ts';
import {
  careInbox,
  careReply,
  careThread,
  handToProvider,
  markThreadRead,
  patientThread,
  providerReply,
  providerThread,
  providerThreads,
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

    // The care team's inbox, for operations staff: threads not about a visit and not clinical
    // (those are listed without their subject). Audited like charts.
    route(
      app,
      operationsApi.inbox,
      {
        tag: 'operations',
        summary: "The care team's inbox: threads not about a visit",
        audit: () => ({ subjectType: 'inbox' }),
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
          subjectType: 'messages',
          subjectId: body.thread_id,
          customerId: patient.customer_id,
        }),
      },
      ({ body }) => careThread(ctx, body.thread_id, body.cursor),
    );
    // A reply or a hand-off is audited by the service, in the transaction that makes it.
    route(
      app,
      operationsApi.inboxReply,
      { tag: 'operations', summary: "Answer the patient in a thread of the care team's inbox" },
      async ({ session, body, request }) => ({
        message: await careReply(
          ctx,
          { staffId: session.staff.id, ip: request.ip },
          body.thread_id,
          body.body,
        ),
      }),
    );
    route(
      app,
      operationsApi.inboxHandOff,
      {
        tag: 'operations',
        summary: 'Hand a thread of the inbox to a provider: it becomes clinical and theirs',
      },
      async ({ session, body, request }) => {
        await handToProvider(
          ctx,
          { staffId: session.staff.id, ip: request.ip },
          body.thread_id,
          body.provider_id,
        );
      },
    );

    // A provider's patient messages: clinical threads not about a visit, theirs or open to the
    // providers licensed in the patient's state. Audited like charts.
    route(
      app,
      reviewsApi.patientMessages,
      {
        tag: 'reviews',
        summary: "Patients' clinical questions this provider may answer",
        audit: () => ({ subjectType: 'patient_messages' }),
      },
      async ({ session }) => ({ threads: await providerThreads(ctx, session) }),
    );
    route(
      app,
      reviewsApi.patientThread,
      {
        tag: 'reviews',
        summary: "A patient's clinical thread; the patient's messages are now read",
        audit: ({ body }, { patient }) => ({
          subjectType: 'messages',
          subjectId: body.thread_id,
          customerId: patient.customer_id,
        }),
      },
      ({ session, body }) => providerThread(ctx, session, body.thread_id, body.cursor),
    );
    route(
      app,
      reviewsApi.patientReply,
      {
        tag: 'reviews',
        summary: "Answer a patient's clinical thread; an open one becomes this provider's",
      },
      async ({ session, body, request }) => ({
        message: await providerReply(ctx, session, body.thread_id, body.body, request.ip),
      }),
    );
  };
