import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readOutbox } from '#server/adapters/mailer.ts';
import type { AppContext } from '#server/context.ts';
import type { Env } from '#server/env.ts';
import { escapeHtml } from '#server/lib/email-layout.ts';
import { notFound } from '#server/lib/errors.ts';
import { site } from '#shared/site.ts';

/** Loopback addresses: only this machine can reach a server listening on one of them. */
function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^(::ffff:)?127(\.\d{1,3}){3}$/.test(h);
}

/**
 * Whether `/dev/outbox` is served (docs/decisions/013-fail-closed.md): only while the server
 * listens on a loopback address, and never in production. It lists every reset link, so it must
 * not rest on NODE_ENV alone, whose default is `development`: with the default HOST (0.0.0.0)
 * the whole network could read it.
 */
export function devOutboxAllowed(env: Pick<Env, 'NODE_ENV' | 'HOST'>): boolean {
  return env.NODE_ENV !== 'production' && isLoopback(env.HOST);
}

/** Headers a reverse proxy adds: a request that came through one did not start on this machine. */
const proxyHeaders = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

/**
 * `/dev/outbox` (see `devOutboxAllowed`): the email and text messages the app would have sent, so
 * a person trying Pairwell locally can open a password-reset link. `/dev/outbox.json` for tests.
 */
export const devOutboxRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    // A reverse proxy on the same machine also connects over loopback: what it relays is refused,
    // as if the outbox did not exist.
    app.addHook('onRequest', async (request) => {
      if (proxyHeaders.some((name) => request.headers[name] !== undefined)) throw notFound();
    });

    const page = (title: string, body: string) =>
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;color:#0f2533;max-width:48rem;margin:2rem auto;padding:0 1.25rem;line-height:1.5}a{color:#176c9b}li{margin:.75rem 0}pre{white-space:pre-wrap;background:#f6fafd;border:1px solid #dbe5ec;border-radius:12px;padding:1rem}small{color:#56697a}</style></head><body><main>${body}</main></body></html>`;

    app.get('/dev/outbox.json', { schema: { hide: true } }, async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return { messages: readOutbox(ctx.env.DATA_DIR) };
    });

    app.get('/dev/outbox', { schema: { hide: true } }, async (_request, reply) => {
      const entries = readOutbox(ctx.env.DATA_DIR);
      const list = entries.length
        ? `<ul>${entries
            .map(
              (e) =>
                `<li><a href="/dev/outbox/${encodeURIComponent(e.id)}">${escapeHtml(e.subject)}</a><br><small>${e.kind === 'sms' ? 'Text' : 'Email'} to ${escapeHtml(e.to)} · ${escapeHtml(e.sentAt)}</small></li>`,
            )
            .join('')}</ul>`
        : '<p>Nothing has been sent yet.</p>';
      reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8');
      return page(
        `Outbox — ${site.name}`,
        `<h1>Development outbox</h1><p>Messages are written here because no SMTP server is configured (<code>SMTP_URL</code>).</p>${list}`,
      );
    });

    app.get(
      '/dev/outbox/:id',
      {
        schema: {
          hide: true,
          params: z.object({
            id: z
              .string()
              .regex(/^[\w-]+$/)
              .max(100),
          }),
        },
      },
      async (request, reply) => {
        const entry = readOutbox(ctx.env.DATA_DIR).find((e) => e.id === request.params.id);
        if (!entry) throw notFound('No such message.');
        const text = escapeHtml(entry.text).replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>');
        reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8');
        return page(
          entry.subject,
          `<p><a href="/dev/outbox">← Outbox</a></p><h1>${escapeHtml(entry.subject)}</h1><p><small>To ${escapeHtml(entry.to)} · ${escapeHtml(entry.sentAt)}</small></p><pre>${text}</pre>`,
        );
      },
    );
  };
