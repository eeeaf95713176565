import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';

/** One item of a Sentry envelope: its header (`type`: event, transaction, session…) and payload. */
export interface EnvelopeItem {
  type: string;
  payload: unknown;
}

export interface SentryCapture {
  /** A DSN that sends to this endpoint: `http://public@127.0.0.1:<port>/1`. */
  dsn: string;
  /** Every envelope received, as the raw text that arrived (decompressed). */
  envelopes: () => string[];
  /** The items of every envelope received. */
  items: () => EnvelopeItem[];
  /** The error events received (items of type `event`). */
  events: () => Record<string, unknown>[];
  close: () => Promise<void>;
}

/**
 * A stand-in for Sentry's ingestion endpoint on a free loopback port: it accepts the envelopes a
 * real Sentry client (browser or server) posts to a DSN pointing at it, keeps them for the test to
 * read, and answers as Sentry does. It answers CORS, so a page on another port can post to it.
 */
export async function startSentryCapture(): Promise<SentryCapture> {
  const received: string[] = [];
  const server = http.createServer((request, response) => {
    response.setHeader('Access-Control-Allow-Origin', '*');
    response.setHeader('Access-Control-Allow-Headers', '*');
    response.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
    if (request.method === 'OPTIONS') {
      response.writeHead(204).end();
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const encoding = request.headers['content-encoding'];
      const text = (
        encoding === 'gzip'
          ? zlib.gunzipSync(body)
          : encoding === 'deflate'
            ? zlib.inflateSync(body)
            : body
      ).toString('utf8');
      if (/\/api\/\d+\/envelope\/?/.test(request.url ?? '')) received.push(text);
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const items = () =>
    received.flatMap((envelope) => {
      // Line 1 is the envelope's header; then each item is a header line and a payload line.
      const lines = envelope.split('\n').filter((line) => line.length > 0);
      const out: EnvelopeItem[] = [];
      for (let i = 1; i + 1 < lines.length; i += 2) {
        const header = JSON.parse(lines[i] ?? '{}') as { type?: string };
        let payload: unknown = lines[i + 1];
        try {
          payload = JSON.parse(lines[i + 1] ?? '');
        } catch {
          // An attachment or other non-JSON payload: kept as text.
        }
        out.push({ type: header.type ?? '', payload });
      }
      return out;
    });

  return {
    dsn: `http://public@127.0.0.1:${port}/1`,
    envelopes: () => [...received],
    items,
    events: () =>
      items()
        .filter((item) => item.type === 'event')
        .map((item) => item.payload as Record<string, unknown>),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
