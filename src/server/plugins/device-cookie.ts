import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Env } from '#server/env.ts';
import type { DeviceCookie } from '#server/features/auth/auth.devices.ts';

/**
 * The known-device cookie (decision 004): a random token that says "this browser has logged in
 * here before". Read only by the log-in calls; `__Host-` in production like the session cookie.
 */
export function deviceCookieName(env: Env): string {
  return env.NODE_ENV === 'production' ? '__Host-pw_device' : 'pw_device';
}

export function readDeviceToken(request: FastifyRequest, env: Env): string | undefined {
  return request.cookies[deviceCookieName(env)];
}

export function setDeviceCookie(reply: FastifyReply, env: Env, device: DeviceCookie): void {
  reply.setCookie(deviceCookieName(env), device.token, {
    path: '/',
    httpOnly: true,
    // Only our own log-in calls need it; no other site's page can make the browser send it.
    sameSite: 'strict',
    secure: env.NODE_ENV === 'production',
    maxAge: device.maxAgeSeconds,
  });
}
