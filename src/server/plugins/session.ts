import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '#server/context.ts';
import type { Env } from '#server/env.ts';
import type { ActiveSession } from '#server/features/auth/auth.service.ts';
import { messages } from '#shared/wording.ts';
import { AppError } from '#server/lib/errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    session: ActiveSession | null;
  }
}

/** `__Host-` in production: the cookie is then bound to this exact origin, over HTTPS only. */
export function sessionCookieName(env: Env): string {
  return env.NODE_ENV === 'production' ? '__Host-pw_session' : 'pw_session';
}

export function setSessionCookie(
  reply: FastifyReply,
  env: Env,
  token: string,
  maxAgeSeconds: number,
): void {
  reply.setCookie(sessionCookieName(env), token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: env.NODE_ENV === 'production',
    maxAge: maxAgeSeconds,
  });
}

export function clearSessionCookie(reply: FastifyReply, env: Env): void {
  reply.clearCookie(sessionCookieName(env), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: env.NODE_ENV === 'production',
  });
}

/**
 * How a cookie's token becomes a session: auth's, handed in by the app at start, so this plugin
 * knows no feature.
 */
export interface SessionLookup {
  /** A session read a moment ago (null: known to be gone), or undefined when none is kept. */
  kept(ctx: AppContext, token: string): ActiveSession | null | undefined;
  resolve(ctx: AppContext, token: string): Promise<ActiveSession | null>;
}

/** Reads the session cookie of every API request into `request.session` (null for a visitor). */
export function registerSessions(
  app: FastifyInstance,
  ctx: AppContext,
  sessions: SessionLookup,
): void {
  app.decorateRequest('session', null);
  const cookieName = sessionCookieName(ctx.env);
  // A callback hook, not an async one: a visitor without the cookie, and a session kept a moment
  // ago, go on without a promise.
  app.addHook('onRequest', (request, reply, done) => {
    const token = request.cookies[cookieName];
    if (!token) return done();
    const settle = (session: ActiveSession | null) => {
      request.session = session;
      if (!session) clearSessionCookie(reply, ctx.env);
      done();
    };
    const kept = sessions.kept(ctx, token);
    if (kept !== undefined) return settle(kept);
    sessions.resolve(ctx, token).then(settle, done);
  });
}

/** The logged-in customer's session, or 401. */
export function requireSession(request: FastifyRequest): ActiveSession {
  if (!request.session) throw new AppError('UNAUTHENTICATED', messages.unauthorized);
  return request.session;
}

/**
 * DESIGN §5: nothing a client sends is trusted for identity. A `leads_id` in a body must be the
 * session's own, or the call answers 403 and reveals nothing.
 */
export function requireOwnLeadsId(request: FastifyRequest, leadsId: string): ActiveSession {
  const session = requireSession(request);
  if (leadsId !== session.leadsId) throw new AppError('FORBIDDEN', messages.forbidden);
  return session;
}
