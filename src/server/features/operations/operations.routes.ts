import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '#server/context.ts';
import {
  cancelOrder,
  markDelivered,
  refundOrder,
  shipOrder,
  staffOrder,
  staffOrders,
} from '#server/features/orders/orders.operations.ts';
import { audit } from '#server/features/staff/staff.service.ts';
import { requireStaff } from '#server/plugins/staff-session.ts';
import { apiPaths, v1Success } from '#shared/api.ts';
import {
  RefundOrderSchema,
  ShipOrderSchema,
  StaffOrderIdSchema,
  StaffOrderListRequestSchema,
  StaffOrderListSchema,
  StaffOrderResultSchema,
} from '#shared/staff.ts';

const tags = ['operations'];

/** The operations console: orders, fulfilment, refunds. Every view and change is audited. */
export const operationsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      apiPaths.staffOrders,
      {
        schema: {
          tags,
          body: StaffOrderListRequestSchema,
          response: { 200: v1Success(StaffOrderListSchema) },
        },
      },
      async (request) => {
        const session = requireStaff(request, 'operations');
        const orders = await staffOrders(ctx, request.body);
        await audit(ctx, session, { action: 'view', subjectType: 'order_list', ip: request.ip });
        return { status: 'SUCCESS' as const, message: '', data: { orders } };
      },
    );

    app.post(
      apiPaths.staffOrder,
      { schema: { tags, body: StaffOrderIdSchema, response: { 200: StaffOrderResultSchema } } },
      async (request) => {
        const session = requireStaff(request, 'operations');
        const order = await staffOrder(ctx, request.body.order_id);
        await audit(ctx, session, {
          action: 'view',
          subjectType: 'order',
          subjectId: order.orders_id,
          customerId: order.customer_id,
          ip: request.ip,
        });
        return { status: 'SUCCESS' as const, message: '', data: { order } };
      },
    );

    const change =
      <T extends { order_id: number }>(
        action: string,
        run: (body: T) => Promise<Awaited<ReturnType<typeof staffOrder>>>,
        message: string,
      ) =>
      async (request: { body: T; ip: string } & Parameters<typeof requireStaff>[0]) => {
        const session = requireStaff(request, 'operations');
        const order = await run(request.body);
        await audit(ctx, session, {
          action,
          subjectType: 'order',
          subjectId: order.orders_id,
          customerId: order.customer_id,
          ip: request.ip,
        });
        return { status: 'SUCCESS' as const, message, data: { order } };
      };

    app.post(
      apiPaths.staffShip,
      { schema: { tags, body: ShipOrderSchema, response: { 200: StaffOrderResultSchema } } },
      change(
        'ship',
        (body) => shipOrder(ctx, body.order_id, body.tracking_number),
        'Marked shipped; the customer was e-mailed the tracking link.',
      ),
    );
    app.post(
      apiPaths.staffDeliver,
      { schema: { tags, body: StaffOrderIdSchema, response: { 200: StaffOrderResultSchema } } },
      change('deliver', (body) => markDelivered(ctx, body.order_id), 'Marked delivered.'),
    );
    // Refunds and cancellations write their own audit entry, in the transaction that records the
    // gateway's answer: one entry per refund made, also when the reconciler finishes it.
    app.post(
      apiPaths.staffRefund,
      { schema: { tags, body: RefundOrderSchema, response: { 200: StaffOrderResultSchema } } },
      async (request) => {
        const session = requireStaff(request, 'operations');
        const order = await refundOrder(ctx, request.body.order_id, request.body.amount_cents, {
          staffId: session.staff.id,
          ip: request.ip,
        });
        return { status: 'SUCCESS' as const, message: 'Refunded.', data: { order } };
      },
    );
    app.post(
      apiPaths.staffCancel,
      { schema: { tags, body: StaffOrderIdSchema, response: { 200: StaffOrderResultSchema } } },
      async (request) => {
        const session = requireStaff(request, 'operations');
        const order = await cancelOrder(ctx, request.body.order_id, {
          staffId: session.staff.id,
          ip: request.ip,
        });
        return {
          status: 'SUCCESS' as const,
          message: 'Cancelled; any payment was refunded in full.',
          data: { order },
        };
      },
    );
  };
