import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import type { PharmacyEvent, PharmacyEventType, PharmacyMessage } from '#shared/pharmacy.ts';

/**
 * Issue 29: the pharmacy that fills our prescriptions (decision 022). `send` hands it one message
 * (NewRx, a refill, CancelRx) under the message's id as its idempotency key, so the same message
 * sent again after a crash is one message there. What happens next comes back as callbacks.
 */
export type PharmacySendResult =
  | { ok: true; ref: string }
  /** `retry`: the pharmacy could not be reached or was busy; false: it refused the message. */
  | { ok: false; retry: boolean; error: string };

export interface Pharmacy {
  kind: 'simulator' | 'partner';
  send(message: PharmacyMessage): Promise<PharmacySendResult>;
  /** The built-in pharmacy only: its callbacks, made in-process as time passes. */
  simulated?: SimulatedPharmacy;
}

/** A simulated prescription's callbacks that are due, and how to mark them made. */
export interface SimulatedCallbacks {
  messageId: string;
  events: PharmacyEvent[];
  /** Marks these made once they have been applied (applying one twice changes nothing). */
  done(): Promise<void>;
}

export interface SimulatedPharmacy {
  due(now: Date, limit: number): Promise<SimulatedCallbacks[]>;
}

/** The steps the simulator goes through, one every `delaySeconds` from when it accepted a fill. */
const SIMULATED_STEPS: PharmacyEventType[] = ['received', 'filled', 'shipped', 'delivered'];

/**
 * The built-in pharmacy (the default, as the payment simulator is): it accepts each message once by
 * its id, then receives it at once, fills it after `delaySeconds`, ships it (with a USPS-shaped
 * tracking number) after twice that and delivers it after three times. A refill of a prescription
 * it was told to cancel is rejected. Its book is a table, so a restart loses nothing.
 */
export function createSimulatorPharmacy(
  db: Kysely<Database>,
  options: { delaySeconds: number; now: () => Date },
): Pharmacy {
  const { delaySeconds } = options;
  return {
    kind: 'simulator',
    async send(message) {
      const now = options.now().toISOString();
      if (message.type === 'CancelRx') {
        await db
          .updateTable('simulator_pharmacy')
          .set({ cancelled_at: now })
          .where('message_key', '=', message.new_rx_message_id)
          .where('cancelled_at', 'is', null)
          .execute();
      }
      await db
        .insertInto('simulator_pharmacy')
        .values({
          message_key: message.message_id,
          kind: message.type,
          payload: JSON.stringify(message),
          accepted_at: now,
          // A CancelRx has no steps of its own.
          steps_sent: message.type === 'CancelRx' ? SIMULATED_STEPS.length : 0,
          next_step_at: message.type === 'CancelRx' ? null : now,
          cancelled_at: null,
        })
        .onConflict((oc) => oc.column('message_key').doNothing())
        .execute();
      return { ok: true, ref: `sim_${message.message_id}` };
    },
    simulated: {
      async due(now, limit) {
        const rows = await db
          .selectFrom('simulator_pharmacy')
          .select(['message_key', 'kind', 'payload', 'accepted_at', 'steps_sent'])
          .where('next_step_at', '<=', now.toISOString())
          .orderBy('next_step_at')
          .orderBy('message_key')
          .limit(limit)
          .execute();
        const batches: SimulatedCallbacks[] = [];
        for (const row of rows) {
          const accepted = Date.parse(row.accepted_at);
          const rejection =
            row.kind === 'Refill' ? await cancelledRefill(db, row.payload, row.accepted_at) : null;
          const reached = rejection
            ? SIMULATED_STEPS.length
            : Math.min(
                SIMULATED_STEPS.length,
                Math.floor((now.getTime() - accepted) / (delaySeconds * 1000)) + 1,
              );
          if (reached <= row.steps_sent) continue;
          const events: PharmacyEvent[] = rejection
            ? [
                {
                  id: `sim_${row.message_key}_rejected`,
                  message_id: row.message_key,
                  type: 'rejected',
                  occurred_at: row.accepted_at,
                  reason: rejection,
                },
              ]
            : SIMULATED_STEPS.slice(row.steps_sent, reached).map((type, i) => {
                const at = new Date(accepted + (row.steps_sent + i) * delaySeconds * 1000);
                return {
                  id: `sim_${row.message_key}_${type}`,
                  message_id: row.message_key,
                  type,
                  occurred_at: at.toISOString(),
                  ...(type === 'shipped'
                    ? { tracking_number: trackingNumberFor(row.message_key), carrier: 'USPS' }
                    : {}),
                };
              });
          const from = row.steps_sent;
          batches.push({
            messageId: row.message_key,
            events,
            async done() {
              const next =
                reached < SIMULATED_STEPS.length
                  ? new Date(accepted + reached * delaySeconds * 1000).toISOString()
                  : null;
              await db
                .updateTable('simulator_pharmacy')
                .set({ steps_sent: reached, next_step_at: next })
                .where('message_key', '=', row.message_key)
                .where('steps_sent', '=', from)
                .execute();
            },
          });
        }
        return batches;
      },
    },
  };
}

/**
 * A refill of a prescription the simulator was told to cancel before the refill came: why it will
 * not fill it. One that came first is filled (it was paid for).
 */
async function cancelledRefill(
  db: Kysely<Database>,
  payload: string,
  acceptedAt: string,
): Promise<string | null> {
  const refill = JSON.parse(payload) as { new_rx_message_id?: string };
  if (!refill.new_rx_message_id) return null;
  const rx = await db
    .selectFrom('simulator_pharmacy')
    .select('cancelled_at')
    .where('message_key', '=', refill.new_rx_message_id)
    .executeTakeFirst();
  if (!rx) return 'We have no prescription on file for this refill.';
  return rx.cancelled_at !== null && rx.cancelled_at < acceptedAt
    ? 'The prescriber cancelled this prescription.'
    : null;
}

/** A USPS-shaped tracking number (22 digits), the same for the same message. */
function trackingNumberFor(messageId: string): string {
  const digits = BigInt(`0x${crypto.createHash('sha256').update(messageId).digest('hex')}`)
    .toString()
    .slice(0, 18);
  return `9400${digits}`;
}

/** How long one call to the partner may take before it is tried again later. */
const PARTNER_TIMEOUT_MS = 15_000;

/**
 * A partner pharmacy over HTTPS (decision 022): `POST <url>/messages` with the message as JSON,
 * `Authorization: Bearer <apiKey>` and `Idempotency-Key: <message id>`. A 2xx answer (`{ "id" }`)
 * is accepted; 409 (the same key still being handled), 408, 429, any 5xx or no answer are tried
 * again later; any other 4xx is a refusal, kept with its status and the pharmacy's error code for
 * operations. What the pharmacy answered in words is not kept: it may repeat the patient's data.
 */
export function createPartnerPharmacy(options: {
  url: string;
  apiKey: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}): Pharmacy {
  const send = options.fetch ?? fetch;
  const endpoint = new URL('messages', options.url.endsWith('/') ? options.url : `${options.url}/`);
  return {
    kind: 'partner',
    async send(message) {
      let response: Response;
      try {
        response = await send(endpoint, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${options.apiKey}`,
            'content-type': 'application/json',
            'idempotency-key': message.message_id,
          },
          body: JSON.stringify(message),
          signal: AbortSignal.timeout(options.timeoutMs ?? PARTNER_TIMEOUT_MS),
        });
      } catch (error) {
        const name = error instanceof Error ? error.name : 'Error';
        return {
          ok: false,
          retry: true,
          error:
            name === 'TimeoutError'
              ? 'The pharmacy did not answer in time.'
              : 'The pharmacy could not be reached.',
        };
      }
      const body = (await response.json().catch(() => null)) as {
        id?: unknown;
        error?: { code?: unknown };
      } | null;
      if (response.ok) {
        if (typeof body?.id === 'string' && body.id.length > 0) return { ok: true, ref: body.id };
        return { ok: false, retry: true, error: `HTTP ${response.status} without a message id` };
      }
      const code =
        typeof body?.error?.code === 'string' && /^[a-z0-9_.-]{1,60}$/i.test(body.error.code)
          ? `: ${body.error.code}`
          : '';
      const retry =
        response.status === 408 ||
        response.status === 409 ||
        response.status === 429 ||
        response.status >= 500 ||
        response.status === 401 ||
        response.status === 403;
      return { ok: false, retry, error: `HTTP ${response.status}${code}` };
    },
  };
}

/**
 * The signature of a callback: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` with the
 * webhook secret, the scheme Stripe's webhooks use. Verified over the exact bytes received, in
 * constant time, and refused when older (or newer) than `toleranceSeconds`.
 */
export function signPharmacyCallback(secret: string, body: string, unixSeconds: number): string {
  const mac = crypto.createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

export function verifyPharmacySignature(
  secret: string,
  header: string | undefined,
  body: Buffer,
  now: Date,
  toleranceSeconds: number,
): boolean {
  if (!header) return false;
  const parts = new Map<string, string[]>();
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key && value) parts.set(key, [...(parts.get(key) ?? []), value]);
  }
  const t = Number(parts.get('t')?.[0]);
  if (!Number.isInteger(t) || Math.abs(now.getTime() / 1000 - t) > toleranceSeconds) return false;
  const expected = crypto.createHmac('sha256', secret).update(`${t}.`).update(body).digest();
  return (parts.get('v1') ?? []).some((hex) => {
    const given = /^[0-9a-f]{64}$/i.test(hex) ? Buffer.from(hex, 'hex') : null;
    return given !== null && crypto.timingSafeEqual(given, expected);
  });
}
