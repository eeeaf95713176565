import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '#server/context.ts';
import { enforceAddressLimit } from '#server/features/auth/auth.service.ts';
import { AppError } from '#server/lib/errors.ts';
import { answer, route } from '#server/lib/route.ts';
import { cartApi } from '#shared/cart.ts';
import { evaluateCoupon } from './coupons.service.ts';

export const couponsRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    route(
      app,
      cartApi.couponCode,
      { tag: 'cart', summary: 'Would this coupon apply to a subtotal? (before log-in)' },
      async ({ body, session, request }) => {
        await enforceAddressLimit(ctx, `coupon:ip:${request.ip}`, 60, 60 * 60_000);
        const verdict = await evaluateCoupon(
          ctx,
          body.code,
          body.subtotal_cents ?? 0,
          session?.customerId ?? null,
        );
        if (!verdict.ok)
          throw new AppError('COUPON_REFUSED', verdict.message, { code: verdict.message });
        return answer(verdict.description, {
          code: verdict.code,
          description: verdict.description,
          discount_cents: verdict.discountCents,
        });
      },
    );
  };
