import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '#server/context.ts';
import { expiringLicences } from '#server/features/staff/staff.service.ts';
import {
  cancelOrder,
  markDelivered,
  refundOrder,
  shipOrder,
  staffOrder,
  staffOrders,
} from './operations.orders.ts';
import {
  careInbox,
  careReply,
  careThread,
  handToProvider,
} from '#server/features/messages/messages.service.ts';
import { stateCoverage } from '#server/features/visits/visits.program.ts';
import { route } from '#server/lib/route.ts';
import { LICENCE_WARNING_DAYS, operationsApi, type StaffOrderDetail } from '#shared/operations.ts';

const tag = 'operations';

/**
 * The operations console: orders, fulfilment, refunds, provider coverage. Every view and change is
 * audited: a view here, a change in its own transaction.
 */
export const operationsRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    route(
      app,
      operationsApi.orders,
      {
        tag,
        summary: 'Orders, by status or by number, email or name',
        audit: () => ({ subjectType: 'order_list' }),
      },
      async ({ body }) => ({ orders: await staffOrders(ctx, body) }),
    );

    route(
      app,
      operationsApi.order,
      {
        tag,
        summary: 'One order, with what its status allows next',
        audit: (_, { order }) => orderOf(order),
      },
      async ({ body }) => ({ order: await staffOrder(ctx, body.order_id) }),
    );

    // A change is audited by its service, in the transaction that makes it (a refund's, with the
    // gateway's answer: one entry per refund made, also when the reconciler finishes it).
    route(
      app,
      operationsApi.ship,
      { tag, summary: 'Mark an order shipped and email the tracking link' },
      async ({ session, body, request }) => ({
        order: await shipOrder(ctx, body.order_id, body.tracking_number, {
          staffId: session.staff.id,
          ip: request.ip,
        }),
      }),
    );

    route(
      app,
      operationsApi.deliver,
      { tag, summary: 'Mark an order delivered' },
      async ({ session, body, request }) => ({
        order: await markDelivered(ctx, body.order_id, {
          staffId: session.staff.id,
          ip: request.ip,
        }),
      }),
    );

    route(
      app,
      operationsApi.refund,
      { tag, summary: 'Refund part or all of what is left of an order' },
      async ({ session, body, request }) => ({
        order: await refundOrder(ctx, body.order_id, body.amount_cents, body.reason, {
          staffId: session.staff.id,
          ip: request.ip,
        }),
      }),
    );

    route(
      app,
      operationsApi.cancel,
      { tag, summary: 'Cancel an order that has not shipped; any payment is refunded in full' },
      async ({ session, body, request }) => ({
        order: await cancelOrder(ctx, body.order_id, {
          staffId: session.staff.id,
          ip: request.ip,
        }),
      }),
    );

    // States offered with nobody licensed to review a visit there turn patients away: operations
    // see them here.
    route(
      app,
      operationsApi.coverage,
      {
        tag,
        summary:
          'Each offered state with its number of licensed providers, and licences expiring soon',
        audit: () => ({ subjectType: 'state_coverage' }),
      },
      async () => ({
        states: await stateCoverage(ctx),
        expiring_licences: (await expiringLicences(ctx, LICENCE_WARNING_DAYS)).map((l) => ({
          provider: l.name,
          state: l.state,
          number: l.number,
          expires_on: l.expires_on,
        })),
      }),
    );

    // The care team's inbox, for operations staff: threads not about a visit and not clinical
    // (those are listed without their subject). Audited like charts.
    route(
      app,
      operationsApi.inbox,
      {
        tag,
        summary: "The care team's inbox: threads not about a visit",
        audit: () => ({ subjectType: 'inbox' }),
      },
      async () => ({ threads: await careInbox(ctx) }),
    );
    route(
      app,
      operationsApi.inboxThread,
      {
        tag,
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
      { tag, summary: "Answer the patient in a thread of the care team's inbox" },
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
        tag,
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
  };

/** The audit subject of a call that answers with the order. */
const orderOf = (order: Pick<StaffOrderDetail, 'orders_id' | 'customer_id'>) => ({
  subjectType: 'order',
  subjectId: order.orders_id,
  customerId: order.customer_id,
});
