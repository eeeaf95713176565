/* global process */
// The yardstick: a minimal Fastify app with one JSON route, in a process of its own (plain
// node, no TypeScript loader, so its memory is Fastify's and Node's alone). Every
// Pairwell figure in the bench is read against this one, measured in the same run on the same
// machine, so the ratio says what the app costs beyond Fastify and Node themselves.
import fastify from 'fastify';

const app = fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));
app.get('/bare', async () => ({ status: 'SUCCESS', message: 'hello', data: { id: 1 } }));

const shutdown = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });
