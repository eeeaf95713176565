import {
  callApi,
  encodeSettings,
  type ElementReply,
  type ElementRequest,
  type FrameMessage,
  type ParentMessage,
  type PaymentMethodResult,
  type StripeJsError,
} from './fake-stripe-js-protocol.ts';

/**
 * A stand-in for Stripe.js (https://docs.stripe.com/js), served by the fake Stripe at `/v3/` as
 * Stripe serves it at https://js.stripe.com/v3/: `Stripe(publishableKey)`, `elements()`, the
 * Payment Element (a card form in a frame on the fake's origin), `createPaymentMethod`,
 * `confirmPayment`, `confirmSetup`, `handleNextAction` and the 3-D Secure challenge, with Stripe.js's
 * result shapes (`{ paymentIntent }`, `{ setupIntent }`, `{ paymentMethod }` or `{ error }`).
 * Mistakes in the integration throw, as Stripe.js's IntegrationError does.
 */

const script = document.currentScript;
if (!(script instanceof HTMLScriptElement)) {
  throw new Error('Load the fake Stripe.js with a <script src> tag, as Stripe.js is loaded.');
}
/** The fake serves both the script and the API, as js.stripe.com and api.stripe.com. */
const stripeOrigin = new URL(script.src).origin;

class IntegrationError extends Error {
  override name = 'IntegrationError';
}

type Handler = (event: Record<string, unknown>) => void;
type Intent = { id: string; object: string; status: string; client_secret: string } & Record<
  string,
  unknown
>;
type IntentKind = 'payment' | 'setup';

interface ElementsOptions {
  mode?: 'payment' | 'setup' | 'subscription';
  amount?: number;
  currency?: string;
  paymentMethodCreation?: 'manual';
  clientSecret?: string;
  [option: string]: unknown;
}

let frameCount = 0;
const newChannel = () => `fake-stripe-${Date.now().toString(36)}-${++frameCount}`;

/** Sends what the frame on Stripe's origin says to its own listener, and nothing else. */
function listen(frame: HTMLIFrameElement, channel: string, on: (message: FrameMessage) => void) {
  const listener = (event: MessageEvent<FrameMessage>) => {
    if (event.origin !== stripeOrigin || event.source !== frame.contentWindow) return;
    if (event.data?.channel !== channel) return;
    on(event.data);
  };
  window.addEventListener('message', listener);
  return () => window.removeEventListener('message', listener);
}

function createPaymentElement(publishableKey: string) {
  const handlers = new Map<string, Set<Handler>>();
  const pending = new Map<number, (reply: ElementReply) => void>();
  let frame: HTMLIFrameElement | null = null;
  let stopListening: (() => void) | null = null;
  let channel = '';
  let requests = 0;
  let ready: Promise<void> = Promise.resolve();
  let markReady = () => {};
  let complete = false;
  let destroyed = false;

  function emit(type: string, event: Record<string, unknown>) {
    for (const handler of handlers.get(type) ?? []) handler(event);
  }

  function receive(message: FrameMessage) {
    if (!frame) return;
    switch (message.type) {
      case 'ready':
        markReady();
        emit('ready', { elementType: 'payment' });
        break;
      case 'change':
        complete = message.complete;
        // https://docs.stripe.com/js/element/events/on_change?type=paymentElement
        emit('change', {
          elementType: 'payment',
          complete: message.complete,
          empty: message.empty,
          collapsed: false,
          value: { type: 'card' },
        });
        break;
      case 'focus':
      case 'blur':
        emit(message.type, { elementType: 'payment' });
        break;
      case 'resize':
        frame.style.height = `${message.height}px`;
        break;
      case 'reply': {
        const resolve = pending.get(message.id);
        pending.delete(message.id);
        resolve?.(message.reply);
        break;
      }
      case 'authentication-finished':
        break;
    }
  }

  const element = {
    /** https://docs.stripe.com/js/element/mount: a CSS selector or a DOM element. */
    mount(target: string | HTMLElement) {
      if (destroyed) throw new IntegrationError('This Element has been destroyed.');
      if (frame) throw new IntegrationError('This Element is already mounted.');
      const container = typeof target === 'string' ? document.querySelector(target) : target;
      if (!(container instanceof HTMLElement)) {
        throw new IntegrationError(
          `The selector you specified (${String(target)}) applies to no DOM elements that are currently on the page.`,
        );
      }
      channel = newChannel();
      ready = new Promise((resolve) => {
        markReady = resolve;
      });
      frame = document.createElement('iframe');
      frame.name = `__privateStripeFrame${frameCount}`;
      // Stripe's own title for the Payment Element's frame.
      frame.title = 'Secure payment input frame';
      frame.setAttribute('allow', 'payment *');
      frame.style.cssText = 'border:0;width:100%;display:block;height:260px;overflow:hidden';
      frame.src = `${stripeOrigin}/elements/payment#${encodeSettings({
        channel,
        parentOrigin: location.origin,
        publishableKey,
      })}`;
      stopListening = listen(frame, channel, receive);
      container.replaceChildren(frame);
      return element;
    },
    unmount() {
      stopListening?.();
      frame?.remove();
      frame = null;
      complete = false;
      return element;
    },
    destroy() {
      element.unmount();
      destroyed = true;
    },
    on(type: string, handler: Handler) {
      const set = handlers.get(type) ?? new Set<Handler>();
      set.add(handler);
      handlers.set(type, set);
      return element;
    },
    once(type: string, handler: Handler) {
      const wrapper: Handler = (event) => {
        element.off(type, wrapper);
        handler(event);
      };
      return element.on(type, wrapper);
    },
    off(type: string, handler?: Handler) {
      if (handler) handlers.get(type)?.delete(handler);
      else handlers.delete(type);
      return element;
    },
    focus() {
      void request({ action: 'focus' });
      return element;
    },
    clear() {
      void request({ action: 'clear' });
      return element;
    },
    update() {
      return element;
    },
  };

  /** Asks the card form, once it has loaded, and waits for its answer. */
  async function request(asked: ElementRequest): Promise<ElementReply> {
    if (!frame) {
      throw new IntegrationError(
        'The Payment Element is not mounted: mount it before submitting or confirming.',
      );
    }
    await ready;
    const target = frame.contentWindow;
    if (!target) throw new IntegrationError('The Payment Element was unmounted.');
    const id = ++requests;
    const message: ParentMessage = { channel, id, request: asked };
    return new Promise((resolve) => {
      pending.set(id, resolve);
      target.postMessage(message, stripeOrigin);
    });
  }

  return { element, request, isComplete: () => complete };
}

/**
 * The 3-D Secure challenge: Stripe.js lays the bank's page over the merchant's in a modal frame
 * (https://docs.stripe.com/payments/3d-secure/authentication-flow). Resolves when the card holder
 * has answered it; focus goes back where it was.
 */
function challenge(publishableKey: string, clientSecret: string): Promise<void> {
  const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const channel = newChannel();
  const overlay = document.createElement('div');
  overlay.setAttribute('role', 'dialog');
  overlay.setAttribute('aria-modal', 'true');
  overlay.setAttribute('aria-label', '3D Secure authentication');
  overlay.style.cssText =
    'position:fixed;inset:0;z-index:2147483647;display:flex;align-items:center;justify-content:center;background:rgba(0,0,0,0.5);padding:16px;box-sizing:border-box';
  const frame = document.createElement('iframe');
  frame.title = '3D Secure authentication';
  frame.style.cssText =
    'border:0;background:#fff;border-radius:8px;width:min(100%,500px);height:min(100%,600px)';
  frame.src = `${stripeOrigin}/3d_secure_2/challenge#${encodeSettings({
    channel,
    parentOrigin: location.origin,
    publishableKey,
    clientSecret,
  })}`;
  overlay.append(frame);
  document.body.append(overlay);
  frame.addEventListener('load', () => frame.focus(), { once: true });
  return new Promise((resolve) => {
    const stop = listen(frame, channel, (message) => {
      if (message.type !== 'authentication-finished') return;
      stop();
      overlay.remove();
      opener?.focus();
      resolve();
    });
  });
}

function kindOf(clientSecret: string): IntentKind {
  return clientSecret.startsWith('seti_') ? 'setup' : 'payment';
}

function intentPath(clientSecret: string): string {
  const id = clientSecret.split('_secret_')[0] ?? '';
  return `/v1/${kindOf(clientSecret)}_intents/${id}`;
}

type IntentResult =
  | { paymentIntent: Intent; error?: undefined }
  | { setupIntent: Intent; error?: undefined }
  | { error: StripeJsError };

/** What Stripe.js answers once an intent has moved: the intent, or its latest error. */
function resultOf(intent: Intent): IntentResult {
  const kind = intent.object === 'setup_intent' ? 'setup' : 'payment';
  const failure = intent[kind === 'setup' ? 'last_setup_error' : 'last_payment_error'] as
    StripeJsError | null | undefined;
  if (intent.status === 'requires_payment_method' && failure) {
    return { error: { ...failure, [`${kind}_intent`]: intent } };
  }
  return kind === 'setup' ? { setupIntent: intent } : { paymentIntent: intent };
}

function StripeStandIn(publishableKey: unknown, _options?: Record<string, unknown>) {
  if (typeof publishableKey !== 'string' || publishableKey === '') {
    throw new IntegrationError(
      'Please call Stripe() with your publishable key. You used an empty string.',
    );
  }
  if (publishableKey.startsWith('sk_') || publishableKey.startsWith('rk_')) {
    throw new IntegrationError(
      'You should not use your secret key with Stripe.js. Please pass a publishable key instead.',
    );
  }
  const key = publishableKey;

  const retrieve = async (clientSecret: string) =>
    callApi<Intent>(stripeOrigin, key, 'GET', intentPath(clientSecret), {
      client_secret: clientSecret,
    });

  /** Runs the challenge an intent asks for, then reads where it stands. */
  async function settle(intent: Intent): Promise<IntentResult> {
    const nextAction = intent.next_action as { type?: string } | null;
    if (intent.status !== 'requires_action' || nextAction?.type !== 'use_stripe_sdk') {
      return resultOf(intent);
    }
    await challenge(key, intent.client_secret);
    const after = await retrieve(intent.client_secret);
    return after.error ? { error: after.error } : resultOf(after.body);
  }

  interface ConfirmOptions {
    elements?: ReturnType<typeof createElements>;
    clientSecret?: string;
    confirmParams?: {
      return_url?: string;
      payment_method?: string;
      payment_method_data?: { billing_details?: Record<string, unknown> };
      setup_future_usage?: string;
    };
    redirect?: 'always' | 'if_required';
  }

  async function confirm(kind: IntentKind, options: ConfirmOptions): Promise<IntentResult> {
    const method = kind === 'payment' ? 'confirmPayment' : 'confirmSetup';
    const { elements, confirmParams = {}, redirect = 'always' } = options;
    const clientSecret = options.clientSecret ?? elements?.clientSecret;
    if (!clientSecret) {
      throw new IntegrationError(
        `stripe.${method}(): pass the clientSecret of the ${kind === 'payment' ? 'PaymentIntent' : 'SetupIntent'}.`,
      );
    }
    if (kindOf(clientSecret) !== kind) {
      throw new IntegrationError(
        `stripe.${method}(): the clientSecret is not a ${kind === 'payment' ? 'PaymentIntent' : 'SetupIntent'}'s.`,
      );
    }
    if (redirect === 'always' && !confirmParams.return_url) {
      throw new IntegrationError(
        `stripe.${method}(): the \`confirmParams.return_url\` argument is required unless passing \`redirect: 'if_required'\``,
      );
    }
    let paymentMethod = confirmParams.payment_method;
    if (!paymentMethod) {
      if (!elements) {
        throw new IntegrationError(
          `stripe.${method}(): pass \`elements\` or \`confirmParams.payment_method\`.`,
        );
      }
      if (!elements.clientSecret && !elements.submitted()) {
        throw new IntegrationError(
          `elements.submit() must be called before stripe.${method}(). Call elements.submit() as soon as your customer presses pay, prior to any asynchronous work.`,
        );
      }
      const created = await elements.createPaymentMethod(
        confirmParams.payment_method_data?.billing_details,
      );
      if (created.error) return { error: created.error };
      paymentMethod = created.paymentMethod.id;
    }
    const confirmed = await callApi<Intent>(
      stripeOrigin,
      key,
      'POST',
      `${intentPath(clientSecret)}/confirm`,
      {
        client_secret: clientSecret,
        payment_method: paymentMethod,
        return_url: confirmParams.return_url,
        setup_future_usage: confirmParams.setup_future_usage,
      },
    );
    if (confirmed.error) return { error: confirmed.error };
    const result = await settle(confirmed.body);
    if (result.error || redirect === 'if_required' || !confirmParams.return_url) return result;
    // https://docs.stripe.com/js/payment_intents/confirm_payment: with `redirect: 'always'` a
    // success leaves for return_url, naming the intent in the query string.
    const returnUrl = new URL(confirmParams.return_url, location.href);
    const intent = 'paymentIntent' in result ? result.paymentIntent : result.setupIntent;
    returnUrl.searchParams.set(`${kind}_intent`, intent.id);
    returnUrl.searchParams.set(`${kind}_intent_client_secret`, intent.client_secret);
    returnUrl.searchParams.set('redirect_status', intent.status);
    location.assign(returnUrl.toString());
    return new Promise<IntentResult>(() => {});
  }

  function createElements(options: ElementsOptions = {}) {
    let settings = { ...options };
    let payment: ReturnType<typeof createPaymentElement> | null = null;
    let submitted = false;
    if (!settings.clientSecret && !settings.mode) {
      throw new IntegrationError(
        'elements(): pass either `clientSecret` or `mode` (with `amount` and `currency` for payments).',
      );
    }
    const mounted = () => {
      if (!payment) {
        throw new IntegrationError(
          'Create and mount a Payment Element from this Elements group first.',
        );
      }
      return payment;
    };
    const elements = {
      clientSecret: settings.clientSecret,
      submitted: () => submitted,
      create(type: string, _elementOptions?: Record<string, unknown>) {
        if (type !== 'payment') {
          throw new IntegrationError(
            `The fake Stripe.js makes the Payment Element only, not "${type}".`,
          );
        }
        if (payment) throw new IntegrationError('Can only create one Element of type payment.');
        payment = createPaymentElement(key);
        return payment.element;
      },
      getElement(type: string) {
        return type === 'payment' ? (payment?.element ?? null) : null;
      },
      /** https://docs.stripe.com/js/elements_object/update, as the amount changes. */
      update(changes: ElementsOptions) {
        settings = { ...settings, ...changes };
      },
      /** https://docs.stripe.com/js/elements_object/submit: validates the form, says what is wrong. */
      async submit(): Promise<{ error?: StripeJsError }> {
        const reply = await mounted().request({ action: 'submit' });
        submitted = !reply.error;
        return reply.error ? { error: reply.error } : {};
      },
      async createPaymentMethod(
        billingDetails: Record<string, unknown> | undefined,
      ): Promise<
        { paymentMethod: PaymentMethodResult; error?: undefined } | { error: StripeJsError }
      > {
        const reply = await mounted().request({ action: 'createPaymentMethod', billingDetails });
        if (reply.error) return { error: reply.error };
        if (!reply.paymentMethod) throw new Error('The card form answered no PaymentMethod');
        return { paymentMethod: reply.paymentMethod };
      },
      get options() {
        return settings;
      },
    };
    return elements;
  }

  return {
    /** https://docs.stripe.com/js/elements_object/create */
    elements: createElements,

    /** https://docs.stripe.com/js/payment_methods/create_payment_method_elements */
    async createPaymentMethod(options: {
      elements: ReturnType<typeof createElements>;
      params?: { billing_details?: Record<string, unknown> };
    }) {
      const { elements } = options;
      if (elements.options.paymentMethodCreation !== 'manual') {
        throw new IntegrationError(
          "stripe.createPaymentMethod() with `elements` needs the Elements group created with `paymentMethodCreation: 'manual'`.",
        );
      }
      if (!elements.submitted()) {
        throw new IntegrationError(
          'elements.submit() must be called before stripe.createPaymentMethod(). Call elements.submit() as soon as your customer presses pay, prior to any asynchronous work.',
        );
      }
      return elements.createPaymentMethod(options.params?.billing_details);
    },

    /** https://docs.stripe.com/js/payment_intents/confirm_payment */
    confirmPayment: (options: ConfirmOptions) => confirm('payment', options),

    /** https://docs.stripe.com/js/setup_intents/confirm_setup */
    confirmSetup: (options: ConfirmOptions) => confirm('setup', options),

    /** https://docs.stripe.com/js/payment_intents/handle_next_action */
    async handleNextAction(options: { clientSecret: string }): Promise<IntentResult> {
      const found = await retrieve(options.clientSecret);
      if (found.error) return { error: found.error };
      if (found.body.status !== 'requires_action') {
        throw new IntegrationError(
          `handleNextAction: the intent has the status ${found.body.status}; only an intent with the status requires_action has a next action.`,
        );
      }
      return settle(found.body);
    },

    /** https://docs.stripe.com/js/payment_intents/retrieve_payment_intent */
    async retrievePaymentIntent(clientSecret: string) {
      const found = await retrieve(clientSecret);
      return found.error ? { error: found.error } : { paymentIntent: found.body };
    },

    /** https://docs.stripe.com/js/setup_intents/retrieve_setup_intent */
    async retrieveSetupIntent(clientSecret: string) {
      const found = await retrieve(clientSecret);
      return found.error ? { error: found.error } : { setupIntent: found.body };
    },
  };
}

Object.assign(window, { Stripe: Object.assign(StripeStandIn, { version: 3 }) });
