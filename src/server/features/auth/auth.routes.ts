import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AppContext } from '#server/context.ts';
import { route } from '#server/lib/route.ts';
import { readDeviceToken, setDeviceCookie } from '#server/plugins/device-cookie.ts';
import { clearSessionCookie, setSessionCookie } from '#server/plugins/session.ts';
import { authApi } from '#shared/auth.ts';
import { sessionApi } from '#shared/session.ts';
import {
  changePassword,
  endOtherSessions,
  endSessionOf,
  endSession,
  listSessions,
  login,
  requestPasswordReset,
  sessionUser,
  unlockRecipient,
  updatePasswordWithToken,
  checkPasswordResetLink,
} from './auth.service.ts';
import { confirmLoginUnlock, requestLoginUnlock } from './auth.devices.ts';

const tag = 'auth';

export function requestMeta(request: FastifyRequest) {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? '' };
}

export const authRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    route(
      app,
      authApi.login,
      { tag, summary: 'Log in with email and password' },
      async ({ body, session, request, reply }) => {
        // A new token at every log-in (no session fixation); the old one, if any, ends then, and
        // only then: a refused attempt changes nothing.
        const result = await login(ctx, body, {
          ...requestMeta(request),
          deviceToken: readDeviceToken(request, ctx.env),
        });
        if (session) await endSession(ctx, session);
        setSessionCookie(reply, ctx.env, result.token, result.maxAgeSeconds);
        setDeviceCookie(reply, ctx.env, result.device);
        return { leads_id: result.user.leads_id, user: result.user };
      },
    );

    route(
      app,
      authApi.loginUnlock,
      { tag, summary: 'Email a link that lets this device log in while log-ins are paused' },
      async ({ body, request }) => {
        await requestLoginUnlock(ctx, 'customer', body.email, request.ip, () =>
          unlockRecipient(ctx, body.email),
        );
      },
    );

    route(
      app,
      authApi.loginUnlockConfirm,
      { tag, summary: 'Let this device log in with the link from that email' },
      async ({ body, request, reply }) => {
        const device = await confirmLoginUnlock(
          ctx,
          'customer',
          body.token,
          readDeviceToken(request, ctx.env),
        );
        setDeviceCookie(reply, ctx.env, device);
      },
    );

    route(app, authApi.logout, { tag, summary: 'Log out' }, async ({ session, reply }) => {
      if (session) await endSession(ctx, session);
      clearSessionCookie(reply, ctx.env);
    });

    route(
      app,
      sessionApi.verifyAuthentication,
      { tag, summary: 'Whether this browser is logged in, and as whom' },
      async ({ session }) => {
        const user = session ? await sessionUser(ctx, session.customerId) : null;
        return { authenticated: user !== null, user };
      },
    );

    route(
      app,
      authApi.reset,
      { tag, summary: 'Email a password reset link' },
      async ({ body, request }) => {
        // The link in the email comes from configuration only (lib/links.ts), never this request.
        await requestPasswordReset(ctx, body.email, requestMeta(request));
      },
    );

    route(
      app,
      authApi.passwordUpdate,
      { tag, summary: 'Set a new password with a reset link' },
      async ({ body, reply }) => {
        await updatePasswordWithToken(ctx, body);
        clearSessionCookie(reply, ctx.env);
      },
    );

    route(
      app,
      authApi.passwordResetCheck,
      { tag, summary: 'Whether a password reset link can still be used (it is not spent)' },
      async ({ body, request }) => ({
        valid: await checkPasswordResetLink(ctx, body.token, requestMeta(request)),
      }),
    );

    route(
      app,
      authApi.changePassword,
      { tag, summary: 'Change the password, with the current one' },
      async ({ body, session }) => {
        await changePassword(ctx, session, body);
      },
    );

    route(
      app,
      authApi.sessions,
      { tag, summary: "The devices logged in to the customer's account" },
      async ({ session }) => ({
        sessions: await listSessions(ctx, session.customerId, session.tokenHash),
      }),
    );

    route(
      app,
      authApi.sessionEnd,
      { tag, summary: 'Log out one other device' },
      async ({ body, session }) => {
        await endSessionOf(ctx, session, body.id);
        return {};
      },
    );

    route(
      app,
      authApi.sessionsRevoke,
      { tag, summary: 'Log out every other device' },
      async ({ session }) => ({
        ended: await endOtherSessions(ctx, session.customerId, session.tokenHash),
      }),
    );
  };
