import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '#server/context.ts';
import { readDeviceToken, setDeviceCookie } from '#server/plugins/device-cookie.ts';
import { clearSessionCookie, requireSession, setSessionCookie } from '#server/plugins/session.ts';
import {
  ChangePasswordSchema,
  LoginResultSchema,
  LoginSchema,
  PasswordUpdateSchema,
  ResetRequestSchema,
  RevokeSessionsResultSchema,
  SessionListSchema,
  UnlockConfirmSchema,
  UnlockRequestSchema,
} from '#shared/accounts.ts';
import { apiPaths, v1Success } from '#shared/api.ts';
import { messages } from '#shared/messages.ts';
import { VerifyAuthResultSchema } from '#shared/session.ts';
import {
  changePassword,
  endOtherSessions,
  endSession,
  listSessions,
  login,
  requestPasswordReset,
  sessionUser,
  unlockRecipient,
  updatePasswordWithToken,
} from './auth.service.ts';
import { confirmLoginUnlock, requestLoginUnlock } from './auth.devices.ts';

const Empty = z.strictObject({}).optional();
const Ok = z.object({ status: z.literal('SUCCESS'), message: z.string() });
const tags = ['auth'];

export const unlockRequested =
  'If that address has an account whose log-ins are paused, we have emailed it a link. Open it on this device within 30 minutes to log in.';

export function requestMeta(request: FastifyRequest) {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? '' };
}

export const authRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      apiPaths.login,
      { schema: { tags, body: LoginSchema, response: { 200: v1Success(LoginResultSchema) } } },
      async (request, reply) => {
        // A new token at every log-in (no session fixation); the old one, if any, ends then, and
        // only then: a refused attempt changes nothing.
        const result = await login(ctx, request.body, {
          ...requestMeta(request),
          deviceToken: readDeviceToken(request, ctx.env),
        });
        if (request.session) await endSession(ctx, request.session.tokenHash);
        setSessionCookie(reply, ctx.env, result.token, result.maxAgeSeconds);
        setDeviceCookie(reply, ctx.env, result.device);
        return {
          status: 'SUCCESS' as const,
          message: '',
          data: { leads_id: result.user.leads_id, user: result.user },
        };
      },
    );

    app.post(
      apiPaths.loginUnlock,
      { schema: { tags, body: UnlockRequestSchema, response: { 200: Ok } } },
      async (request) => {
        await requestLoginUnlock(ctx, 'customer', request.body.email, request.ip, () =>
          unlockRecipient(ctx, request.body.email),
        );
        // The same answer whether or not the address has an account, or is limited.
        return { status: 'SUCCESS' as const, message: unlockRequested };
      },
    );

    app.post(
      apiPaths.loginUnlockConfirm,
      { schema: { tags, body: UnlockConfirmSchema, response: { 200: Ok } } },
      async (request, reply) => {
        const device = await confirmLoginUnlock(
          ctx,
          'customer',
          request.body.token,
          readDeviceToken(request, ctx.env),
        );
        setDeviceCookie(reply, ctx.env, device);
        return {
          status: 'SUCCESS' as const,
          message: 'This device can log in now. Log in with your email and password.',
        };
      },
    );

    app.post(
      apiPaths.logout,
      { schema: { tags, body: Empty, response: { 200: Ok } } },
      async (request, reply) => {
        if (request.session) await endSession(ctx, request.session.tokenHash);
        clearSessionCookie(reply, ctx.env);
        return { status: 'SUCCESS' as const, message: 'You have been logged out.' };
      },
    );

    app.post(
      apiPaths.verifyAuthentication,
      { schema: { tags, body: Empty, response: { 200: v1Success(VerifyAuthResultSchema) } } },
      async (request) => {
        const user = request.session ? await sessionUser(ctx, request.session.customerId) : null;
        return {
          status: 'SUCCESS' as const,
          message: '',
          data: { authenticated: user !== null, user },
        };
      },
    );

    app.post(
      apiPaths.reset,
      { schema: { tags, body: ResetRequestSchema, response: { 200: Ok } } },
      async (request) => {
        // The link in the e-mail comes from configuration only (lib/links.ts), never this request.
        await requestPasswordReset(ctx, request.body.email, requestMeta(request));
        // The same answer whether or not the address has an account (DESIGN §5).
        return { status: 'SUCCESS' as const, message: messages.resetRequested };
      },
    );

    app.post(
      apiPaths.passwordUpdate,
      { schema: { tags, body: PasswordUpdateSchema, response: { 200: Ok } } },
      async (request, reply) => {
        await updatePasswordWithToken(ctx, request.body);
        clearSessionCookie(reply, ctx.env);
        return {
          status: 'SUCCESS' as const,
          message: 'Your password has been updated. Please log in with your new password.',
        };
      },
    );

    app.post(
      apiPaths.changePassword,
      { schema: { tags, body: ChangePasswordSchema, response: { 200: Ok } } },
      async (request) => {
        await changePassword(ctx, requireSession(request), request.body);
        return {
          status: 'SUCCESS' as const,
          message: 'Your password has been changed. Other devices were logged out.',
        };
      },
    );

    app.post(
      apiPaths.sessions,
      { schema: { tags, body: Empty, response: { 200: v1Success(SessionListSchema) } } },
      async (request) => {
        const session = requireSession(request);
        return {
          status: 'SUCCESS' as const,
          message: '',
          data: { sessions: await listSessions(ctx, session.customerId, session.tokenHash) },
        };
      },
    );

    app.post(
      apiPaths.sessionsRevoke,
      { schema: { tags, body: Empty, response: { 200: v1Success(RevokeSessionsResultSchema) } } },
      async (request) => {
        const session = requireSession(request);
        const ended = await endOtherSessions(ctx, session.customerId, session.tokenHash);
        return { status: 'SUCCESS' as const, message: '', data: { ended } };
      },
    );
  };
