import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '#server/context.ts';
import { confirmLoginUnlock } from '#server/features/auth/auth.devices.ts';
import { readDeviceToken, setDeviceCookie } from '#server/plugins/device-cookie.ts';
import { clearStaffCookie, setStaffCookie } from '#server/plugins/staff-session.ts';
import { apiPaths, v1Success } from '#shared/api.ts';
import { UnlockConfirmSchema, UnlockRequestSchema } from '#shared/accounts.ts';
import { StaffLoginSchema, StaffMeSchema, StaffUserSchema } from '#shared/staff.ts';
import { endStaffSession, requestStaffUnlock, staffLogin } from './staff.service.ts';

const tags = ['staff'];
const Empty = z.strictObject({}).optional();
const Ok = z.object({ status: z.literal('SUCCESS'), message: z.string() });

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
        const result = await staffLogin(ctx, request.body, {
          ip: request.ip,
          deviceToken: readDeviceToken(request, ctx.env),
        });
        if (request.staffSession) await endStaffSession(ctx, request.staffSession.tokenHash);
        setStaffCookie(reply, ctx.env, result.token, result.maxAgeSeconds);
        setDeviceCookie(reply, ctx.env, result.device);
        return { status: 'SUCCESS' as const, message: '', data: { staff: result.staff } };
      },
    );

    app.post(
      apiPaths.staffLoginUnlock,
      { schema: { tags, body: UnlockRequestSchema, response: { 200: Ok } } },
      async (request) => {
        await requestStaffUnlock(ctx, request.body.email, request.ip);
        // The same answer whether or not the address has an account, or is limited.
        return {
          status: 'SUCCESS' as const,
          message:
            'If that address has a staff account whose log-ins are paused, we have emailed it a link. Open it on this device within 30 minutes to log in.',
        };
      },
    );

    app.post(
      apiPaths.staffLoginUnlockConfirm,
      { schema: { tags, body: UnlockConfirmSchema, response: { 200: Ok } } },
      async (request, reply) => {
        const device = await confirmLoginUnlock(
          ctx,
          'staff',
          request.body.token,
          readDeviceToken(request, ctx.env),
        );
        setDeviceCookie(reply, ctx.env, device);
        return {
          status: 'SUCCESS' as const,
          message: 'This device can log in now. Log in with your password and authenticator code.',
        };
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
