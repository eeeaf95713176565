import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { signPharmacyCallback } from '#server/adapters/pharmacy.ts';
import type { PharmacyEvent, PharmacyMessage } from '#shared/pharmacy.ts';

/**
 * A partner pharmacy as decision 022 defines its side of the protocol, for tests: it takes
 * messages at `POST /messages` with the API key as a bearer token and the message's id as its
 * Idempotency-Key, keeps one message per key (a repeated key answers as the first time), and can
 * be told to refuse the next message or to keep it and drop the answer (a crash or a cut
 * connection between its accepting and our hearing it).
 */
export interface FakePharmacy {
  url: string;
  apiKey: string;
  /** The messages it holds, by id, in the order first received. */
  messages: Map<string, PharmacyMessage>;
  /** How many times each message id was delivered. */
  deliveries: Map<string, number>;
  /** Every request's authorization header and idempotency key. */
  requests: { authorization: string | undefined; idempotencyKey: string | undefined }[];
  /** The next message is kept but its answer never sent (the socket is destroyed). */
  dropNextAnswer(): void;
  /** The next message is refused with this status and error code. */
  refuseNext(status: number, code: string): void;
  close(): Promise<void>;
}

export async function startFakePharmacy(
  apiKey = 'pk_pharmacy_test_0123456789',
): Promise<FakePharmacy> {
  const messages = new Map<string, PharmacyMessage>();
  const deliveries = new Map<string, number>();
  const refs = new Map<string, string>();
  const requests: FakePharmacy['requests'] = [];
  let drop = false;
  let refuse: { status: number; code: string } | null = null;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const authorization = request.headers.authorization;
      const key = request.headers['idempotency-key'];
      const idempotencyKey = typeof key === 'string' ? key : undefined;
      requests.push({ authorization, idempotencyKey });
      const answer = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (request.method !== 'POST' || request.url !== '/messages')
        return answer(404, { error: { code: 'not_found' } });
      if (authorization !== `Bearer ${apiKey}`)
        return answer(401, { error: { code: 'unauthorized' } });
      let message: PharmacyMessage;
      try {
        message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as PharmacyMessage;
      } catch {
        return answer(400, { error: { code: 'invalid_json' } });
      }
      if (!idempotencyKey || idempotencyKey !== message.message_id)
        return answer(400, { error: { code: 'idempotency_key_mismatch' } });
      if (refuse) {
        const { status, code } = refuse;
        refuse = null;
        return answer(status, { error: { code, message: 'Patient Jane Doe: refused' } });
      }
      deliveries.set(idempotencyKey, (deliveries.get(idempotencyKey) ?? 0) + 1);
      const fresh = !messages.has(idempotencyKey);
      if (fresh) {
        messages.set(idempotencyKey, message);
        refs.set(idempotencyKey, `ph_${messages.size}`);
      }
      if (drop) {
        drop = false;
        response.socket?.destroy();
        return;
      }
      answer(fresh ? 201 : 200, { id: refs.get(idempotencyKey) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    messages,
    deliveries,
    requests,
    dropNextAnswer: () => {
      drop = true;
    },
    refuseNext: (status, code) => {
      refuse = { status, code };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Posts a callback to the app as the pharmacy would, signed with `secret` (or as given). */
export function sendCallback(
  app: FastifyInstance,
  event: PharmacyEvent | Record<string, unknown>,
  options: { secret: string; signature?: string; at?: Date; body?: string },
) {
  const body = options.body ?? JSON.stringify(event);
  const at = Math.floor((options.at ?? app.ctx.clock.now()).getTime() / 1000);
  return app.inject({
    method: 'POST',
    url: '/lapi/webhooks/pharmacy',
    headers: {
      'content-type': 'application/json',
      'pharmacy-signature': options.signature ?? signPharmacyCallback(options.secret, body, at),
    },
    payload: body,
  });
}
