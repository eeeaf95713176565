import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '#server/context.ts';
import { route } from '#server/lib/route.ts';
import { orderByNumber } from './orders.history.ts';
import { ordersApi } from '#shared/orders.ts';

const tag = 'orders';

/** The orders details call (the lander) is the member area's, composed in member.routes.ts. */
export const ordersRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    route(
      app,
      ordersApi.order,
      { tag, summary: "One of the customer's orders by its number, on whatever page it is" },
      async ({ session, body }) => ({
        order: await orderByNumber(ctx, session.customerId, body.order_number),
      }),
    );
  };
