import http from 'node:http';
import Stripe from 'stripe';

/** Attempts per event: Stripe retries a failed delivery for days; the fake, a few times at once. */
const ATTEMPTS = 3;

/**
 * Delivers events to the endpoint as Stripe does (https://docs.stripe.com/webhooks): a JSON POST
 * signed in the Stripe-Signature header, which `stripe.webhooks.constructEvent` verifies
 * (https://docs.stripe.com/webhooks#verify-events). One at a time and in order, off the API's
 * answer; a non-2xx answer is retried. The signature's timestamp is the wall clock's, not the fake's
 * clock, because the receiving server checks it against its own clock (5 minutes' tolerance).
 */
export function deliverWebhooks(options: {
  secret: string;
  deliveries: { eventId: string; status: number }[];
}) {
  let endpoint: string | null = null;
  const queue: { event: Stripe.Event; url: string }[] = [];
  let draining: Promise<void> | null = null;

  async function drain(): Promise<void> {
    while (queue.length > 0) {
      const { event, url } = queue.shift() as { event: Stripe.Event; url: string };
      const payload = JSON.stringify(event, null, 2);
      for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
        const header = Stripe.webhooks.generateTestHeaderString({
          payload,
          secret: options.secret,
        });
        const status = await post(url, payload, header);
        options.deliveries.push({ eventId: event.id, status });
        if (status >= 200 && status < 300) break;
      }
    }
    draining = null;
  }

  return {
    endpoint: () => endpoint,
    setEndpoint(url: string | null) {
      endpoint = url;
    },
    enqueue(event: Stripe.Event) {
      if (!endpoint) return;
      queue.push({ event, url: endpoint });
      draining ??= drain();
    },
    /** No more deliveries: the endpoint is forgotten and what waits is dropped. */
    stop() {
      endpoint = null;
      queue.length = 0;
    },
    async idle(): Promise<void> {
      while (draining) await draining;
    },
  };
}

/** The status the endpoint answered, or 0 when it did not answer. */
function post(url: string, payload: string, signature: string): Promise<number> {
  return new Promise((resolve) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        timeout: 10_000,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(payload),
          'stripe-signature': signature,
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(0));
    request.end(payload);
  });
}
