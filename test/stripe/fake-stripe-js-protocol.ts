/**
 * What the fake Stripe.js (fake-stripe-js.browser.ts, in the merchant's page) and the frames the fake
 * serves (the Payment Element's card form, the 3-D Secure page) say to each other by postMessage,
 * and the API call they share. Bundled into each browser script; nothing here runs in Node.
 */

/** Stripe.js's error shape (https://docs.stripe.com/js/payment_intents/confirm_payment, "result.error"). */
export interface StripeJsError {
  type: string;
  code?: string;
  decline_code?: string;
  message: string;
  param?: string;
  payment_intent?: unknown;
  setup_intent?: unknown;
  payment_method?: unknown;
}

/** A card PaymentMethod as the API answers it; the page needs its id and what it may show. */
export interface PaymentMethodResult {
  id: string;
  card: { brand: string; last4: string; exp_month: number; exp_year: number };
}

/** The frame's settings, carried in its URL's fragment so they never reach a server's logs. */
export interface FrameSettings {
  /** Names one frame's conversation: a page may hold several. */
  channel: string;
  /** The merchant page's origin, the only one the frame talks to. */
  parentOrigin: string;
  publishableKey: string;
}

export interface ChallengeSettings extends FrameSettings {
  clientSecret: string;
}

export type ElementRequest =
  | { action: 'submit' }
  | { action: 'createPaymentMethod'; billingDetails: Record<string, unknown> | undefined }
  | { action: 'focus' }
  | { action: 'clear' };

export type ElementReply =
  { error: StripeJsError } | { error?: undefined; paymentMethod?: PaymentMethodResult };

/** Parent → Payment Element frame. */
export interface ParentMessage {
  channel: string;
  id: number;
  request: ElementRequest;
}

/** Payment Element frame or 3-D Secure page → parent. */
export type FrameMessage =
  | { channel: string; type: 'ready' }
  | { channel: string; type: 'change'; complete: boolean; empty: boolean }
  | { channel: string; type: 'focus' | 'blur' }
  | { channel: string; type: 'resize'; height: number }
  | { channel: string; type: 'reply'; id: number; reply: ElementReply }
  | { channel: string; type: 'authentication-finished' };

export function encodeSettings(settings: FrameSettings | ChallengeSettings): string {
  return encodeURIComponent(JSON.stringify(settings));
}

export function decodeSettings<T extends FrameSettings>(hash: string): T {
  return JSON.parse(decodeURIComponent(hash.replace(/^#/, ''))) as T;
}

/** Stripe's form encoding: nested objects as `a[b][c]=value`, as Stripe.js sends them. */
export function formEncode(
  values: Record<string, unknown>,
  into = new URLSearchParams(),
  prefix = '',
): URLSearchParams {
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === null) continue;
    const name = prefix ? `${prefix}[${key}]` : key;
    if (typeof value === 'object') formEncode(value as Record<string, unknown>, into, name);
    else into.append(name, String(value));
  }
  return into;
}

/**
 * One call to the fake's API as Stripe.js makes it: the publishable key travels as the `key`
 * parameter (not a header), so that a POST from the merchant's page is a simple cross-origin
 * request with no preflight. Answers `{ body }` or Stripe's `{ error }`.
 */
export async function callApi<T>(
  apiOrigin: string,
  publishableKey: string,
  method: 'GET' | 'POST',
  path: string,
  params: Record<string, unknown>,
): Promise<{ body: T; error?: undefined } | { error: StripeJsError }> {
  const form = formEncode({ ...params, key: publishableKey });
  let response: Response;
  try {
    response =
      method === 'GET'
        ? await fetch(`${apiOrigin}${path}?${form.toString()}`)
        : await fetch(`${apiOrigin}${path}`, { method: 'POST', body: form });
  } catch (failure) {
    // Stripe.js answers a network failure as an error result, not a rejection.
    const reason = failure instanceof Error ? failure.message : String(failure);
    return {
      error: {
        type: 'api_connection_error',
        message: `An error occurred with our connection to Stripe: ${reason}`,
      },
    };
  }
  const body = (await response.json()) as T | { error: StripeJsError };
  if (!response.ok) return { error: (body as { error: StripeJsError }).error };
  return { body: body as T };
}
