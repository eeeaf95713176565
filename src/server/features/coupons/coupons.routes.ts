import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '#server/context.ts';
import { enforceAddressLimit } from '#server/features/auth/auth.service.ts';
import { AppError } from '#server/lib/errors.ts';
import { apiPaths, v1Success } from '#shared/api.ts';
import { CouponCheckResultSchema, CouponCheckSchema } from '#shared/cart.ts';
import { evaluateCoupon } from './coupons.service.ts';

export const couponsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    // v1 `/coupon/code`: would this code apply? For a visitor's browser cart, before log-in.
    app.post(
      apiPaths.couponCode,
      {
        schema: {
          tags: ['cart'],
          body: CouponCheckSchema,
          response: { 200: v1Success(CouponCheckResultSchema) },
        },
      },
      async (request) => {
        await enforceAddressLimit(ctx, `coupon:ip:${request.ip}`, 60, 60 * 60_000);
        const verdict = await evaluateCoupon(
          ctx,
          request.body.code,
          request.body.subtotal_cents ?? 0,
          request.session?.customerId ?? null,
        );
        if (!verdict.ok)
          throw new AppError(400, 'COUPON_REFUSED', verdict.message, { code: verdict.message });
        return {
          status: 'SUCCESS' as const,
          message: verdict.description,
          data: {
            code: verdict.code,
            description: verdict.description,
            discount_cents: verdict.discountCents,
          },
        };
      },
    );
  };
