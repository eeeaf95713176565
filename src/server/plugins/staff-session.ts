import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '#server/context.ts';
import type { Env } from '#server/env.ts';
import type { StaffSession } from '#server/features/staff/staff.service.ts';
import type { StaffRole } from '#shared/staff.ts';
import { AppError } from '#server/lib/errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    staffSession: StaffSession | null;
  }
}

/** The console's own cookie, apart from customers' (a staff member may also be a customer). */
export function staffCookieName(env: Env): string {
  return env.NODE_ENV === 'production' ? '__Host-pw_staff' : 'pw_staff';
}

export function setStaffCookie(
  reply: FastifyReply,
  env: Env,
  token: string,
  maxAgeSeconds: number,
): void {
  reply.setCookie(staffCookieName(env), token, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: env.NODE_ENV === 'production',
    maxAge: maxAgeSeconds,
  });
}

export function clearStaffCookie(reply: FastifyReply, env: Env): void {
  reply.clearCookie(staffCookieName(env), {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: env.NODE_ENV === 'production',
  });
}

/**
 * Reads the console's cookie of every API request into `request.staffSession`. `resolve` is the
 * staff feature's, handed in by the app at start, so this plugin knows no feature.
 */
export function registerStaffSessions(
  app: FastifyInstance,
  ctx: AppContext,
  resolve: (ctx: AppContext, token: string) => Promise<StaffSession | null>,
): void {
  app.decorateRequest('staffSession', null);
  const cookieName = staffCookieName(ctx.env);
  // A callback hook, not an async one: a request without the cookie goes on without a promise.
  app.addHook('onRequest', (request, reply, done) => {
    const token = request.cookies[cookieName];
    if (!token) return done();
    resolve(ctx, token).then((session) => {
      request.staffSession = session;
      if (!session) clearStaffCookie(reply, ctx.env);
      done();
    }, done);
  });
}

/** The staff member's session, with the role the call needs, or 401/403. */
export function requireStaff(request: FastifyRequest, role?: StaffRole): StaffSession {
  const session = request.staffSession;
  if (!session) throw new AppError('STAFF_UNAUTHENTICATED', 'Please log in to the staff console.');
  if (role && session.staff.role !== role)
    throw new AppError('FORBIDDEN', 'Your role does not allow this.');
  return session;
}
