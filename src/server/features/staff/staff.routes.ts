import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '#server/context.ts';
import { clearStaffCookie, setStaffCookie } from '#server/plugins/staff-session.ts';
import { apiPaths, v1Success } from '#shared/api.ts';
import { StaffLoginSchema, StaffMeSchema, StaffUserSchema } from '#shared/staff.ts';
import { endStaffSession, staffLogin } from './staff.service.ts';

const tags = ['staff'];
const Empty = z.strictObject({}).optional();

export const staffRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      apiPaths.staffLogin,
      {
        schema: {
          tags,
          body: StaffLoginSchema,
          response: { 200: v1Success(z.object({ staff: StaffUserSchema })) },
        },
      },
      async (request, reply) => {
        // The old session ends only when the new one starts: a refused attempt changes nothing.
        const result = await staffLogin(ctx, request.body, request.ip);
        if (request.staffSession) await endStaffSession(ctx, request.staffSession.tokenHash);
        setStaffCookie(reply, ctx.env, result.token, result.maxAgeSeconds);
        return { status: 'SUCCESS' as const, message: '', data: { staff: result.staff } };
      },
    );

    app.post(apiPaths.staffLogout, { schema: { tags, body: Empty } }, async (request, reply) => {
      if (request.staffSession) await endStaffSession(ctx, request.staffSession.tokenHash);
      clearStaffCookie(reply, ctx.env);
      return { status: 'SUCCESS' as const, message: 'You have been logged out.' };
    });

    app.post(
      apiPaths.staffMe,
      { schema: { tags, body: Empty, response: { 200: v1Success(StaffMeSchema) } } },
      async (request) => ({
        status: 'SUCCESS' as const,
        message: '',
        data: {
          authenticated: request.staffSession !== null,
          staff: request.staffSession?.staff ?? null,
        },
      }),
    );
  };
