import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '#server/context.ts';
import { confirmLoginUnlock } from '#server/features/auth/auth.devices.ts';
import { route } from '#server/lib/route.ts';
import { readDeviceToken, setDeviceCookie } from '#server/plugins/device-cookie.ts';
import { clearStaffCookie, setStaffCookie } from '#server/plugins/staff-session.ts';
import { staffApi } from '#shared/staff.ts';
import { endStaffSession, requestStaffUnlock, staffLogin } from './staff.service.ts';

const tag = 'staff';

export const staffRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    route(
      app,
      staffApi.login,
      { tag, summary: 'Log in to the staff console' },
      async ({ body, request, reply }) => {
        // The old session ends only when the new one starts: a refused attempt changes nothing.
        const result = await staffLogin(ctx, body, {
          ip: request.ip,
          deviceToken: readDeviceToken(request, ctx.env),
        });
        if (request.staffSession) await endStaffSession(ctx, request.staffSession.tokenHash);
        setStaffCookie(reply, ctx.env, result.token, result.maxAgeSeconds);
        setDeviceCookie(reply, ctx.env, result.device);
        return { staff: result.staff };
      },
    );

    route(
      app,
      staffApi.unlock,
      { tag, summary: 'Email a link that lets this device log in while log-ins are paused' },
      async ({ body, request }) => {
        // The same answer whether or not the address has an account, or is limited.
        await requestStaffUnlock(ctx, body.email, request.ip);
      },
    );

    route(
      app,
      staffApi.unlockConfirm,
      { tag, summary: "Let this device log in with the emailed link's token" },
      async ({ body, request, reply }) => {
        const device = await confirmLoginUnlock(
          ctx,
          'staff',
          body.token,
          readDeviceToken(request, ctx.env),
        );
        setDeviceCookie(reply, ctx.env, device);
      },
    );

    route(
      app,
      staffApi.logout,
      { tag, summary: 'Log out of the staff console' },
      async ({ request, reply }) => {
        if (request.staffSession) await endStaffSession(ctx, request.staffSession.tokenHash);
        clearStaffCookie(reply, ctx.env);
      },
    );

    route(
      app,
      staffApi.me,
      { tag, summary: 'Who is logged in to the staff console' },
      async ({ request }) => ({
        authenticated: request.staffSession !== null,
        staff: request.staffSession?.staff ?? null,
      }),
    );
  };
