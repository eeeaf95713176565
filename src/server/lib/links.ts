import type { Env } from '#server/env.ts';

/**
 * The origin every link we send (email, text messages) points to. Only configuration decides it,
 * never a request's Host or X-Forwarded-Host header: a link built from those could be pointed at
 * someone else's site by whoever sends the request (reset-link poisoning). Production requires
 * PUBLIC_URL (env.ts); in development the configured HOST and PORT stand in for it.
 */
export function publicUrl(env: Env): string {
  if (env.PUBLIC_URL) return env.PUBLIC_URL.replace(/\/+$/, '');
  // A wildcard bind address is not somewhere a browser can go; the same machine is.
  const host = env.HOST === '0.0.0.0' || env.HOST === '::' ? 'localhost' : env.HOST;
  const shown = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${shown}:${env.PORT}`;
}

/** `path` (starting with `/`, with its query already encoded) on the public origin. */
export function absoluteLink(env: Env, path: string): string {
  return `${publicUrl(env)}${path}`;
}
