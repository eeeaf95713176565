import {
  callApi,
  decodeSettings,
  type ElementReply,
  type ElementRequest,
  type FrameMessage,
  type FrameSettings,
  type ParentMessage,
  type PaymentMethodResult,
  type StripeJsError,
} from './fake-stripe-js-protocol.ts';

/**
 * The Payment Element's card form, in its own frame on the fake's origin as Stripe's is on
 * js.stripe.com: the card's number never reaches the merchant's page, which only hears whether the
 * form is complete and, when it asks, the PaymentMethod made from it. The fields, their order and
 * their messages are those of Stripe's Payment Element for a US card
 * (https://docs.stripe.com/payments/payment-element); the validation codes are Stripe.js's
 * `validation_error` codes (https://docs.stripe.com/js/elements_object/submit).
 */

type FieldName = 'number' | 'expiry' | 'cvc' | 'zip';
const fieldNames: FieldName[] = ['number', 'expiry', 'cvc', 'zip'];

interface Problem {
  code: string;
  message: string;
  /** An incomplete field is said only when the customer leaves it or submits; an invalid one at once. */
  incomplete: boolean;
}

const settings = decodeSettings<FrameSettings>(location.hash);

function input(name: FieldName): HTMLInputElement {
  const found = document.getElementById(name);
  if (!(found instanceof HTMLInputElement)) throw new Error(`The card form has no ${name} field`);
  return found;
}

const digits = (value: string) => value.replace(/\D/g, '');

function brandOf(number: string): 'amex' | 'other' {
  return /^3[47]/.test(number) ? 'amex' : 'other';
}

function luhnValid(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

const numberLength = (number: string) => (brandOf(number) === 'amex' ? 15 : 16);
const cvcLength = () => (brandOf(digits(input('number').value)) === 'amex' ? 4 : 3);

/** Groups as printed on the card: 4-6-5 for American Express, fours otherwise. */
function formatNumber(raw: string): string {
  const number = digits(raw).slice(0, numberLength(digits(raw)));
  const groups = brandOf(number) === 'amex' ? [4, 6, 5] : [4, 4, 4, 4];
  const parts: string[] = [];
  let at = 0;
  for (const size of groups) {
    if (at >= number.length) break;
    parts.push(number.slice(at, at + size));
    at += size;
  }
  return parts.join(' ');
}

/** MM / YY, as Stripe writes it; a first digit above 1 can only be a month 0X. */
function formatExpiry(raw: string, deleting: boolean): string {
  let value = digits(raw);
  if (/^[2-9]/.test(value)) value = `0${value}`;
  value = value.slice(0, 4);
  if (value.length < 2) return value;
  if (value.length === 2) return deleting ? value : `${value} / `;
  return `${value.slice(0, 2)} / ${value.slice(2)}`;
}

function problemOf(name: FieldName): Problem | null {
  const value = digits(input(name).value);
  if (name === 'number') {
    if (value.length < numberLength(value)) {
      return {
        code: 'incomplete_number',
        message: 'Your card number is incomplete.',
        incomplete: true,
      };
    }
    return luhnValid(value)
      ? null
      : { code: 'invalid_number', message: 'Your card number is invalid.', incomplete: false };
  }
  if (name === 'expiry') {
    if (value.length < 4) {
      return {
        code: 'incomplete_expiry',
        message: "Your card's expiration date is incomplete.",
        incomplete: true,
      };
    }
    const month = Number(value.slice(0, 2));
    const year = 2000 + Number(value.slice(2));
    const today = new Date();
    if (month < 1 || month > 12) {
      return {
        code: 'invalid_expiry_month',
        message: "Your card's expiration date is invalid.",
        incomplete: false,
      };
    }
    if (year < today.getFullYear()) {
      return {
        code: 'invalid_expiry_year_past',
        message: "Your card's expiration year is in the past.",
        incomplete: false,
      };
    }
    if (year === today.getFullYear() && month < today.getMonth() + 1) {
      return {
        code: 'invalid_expiry_month_past',
        message: "Your card's expiration date is in the past.",
        incomplete: false,
      };
    }
    if (year > today.getFullYear() + 50) {
      return {
        code: 'invalid_expiry_year',
        message: "Your card's expiration year is invalid.",
        incomplete: false,
      };
    }
    return null;
  }
  if (name === 'cvc') {
    return value.length < cvcLength()
      ? {
          code: 'incomplete_cvc',
          message: "Your card's security code is incomplete.",
          incomplete: true,
        }
      : null;
  }
  return value.length < 5
    ? { code: 'incomplete_zip', message: 'Your ZIP is incomplete.', incomplete: true }
    : null;
}

/** Shows the field's message, or clears it; the message is the field's accessible description. */
function show(name: FieldName, problem: Problem | null): void {
  const field = input(name);
  const error = document.getElementById(`${name}-error`);
  if (!error) throw new Error(`The card form has no message for ${name}`);
  error.textContent = problem?.message ?? '';
  error.hidden = !problem;
  field.setAttribute('aria-invalid', problem ? 'true' : 'false');
  if (problem) field.setAttribute('aria-describedby', error.id);
  else field.removeAttribute('aria-describedby');
}

function post(message: FrameMessage): void {
  window.parent.postMessage(message, settings.parentOrigin);
}

let lastState = '';
function reportChange(): void {
  const complete = fieldNames.every((name) => problemOf(name) === null);
  const empty = fieldNames.every((name) => input(name).value === '');
  const state = `${complete}/${empty}`;
  if (state === lastState) return;
  lastState = state;
  post({ channel: settings.channel, type: 'change', complete, empty });
}

/** Checks every field as a submission does: says each problem and focuses the first. */
function validateAll(): StripeJsError | null {
  let first: { name: FieldName; problem: Problem } | null = null;
  for (const name of fieldNames) {
    const problem = problemOf(name);
    show(name, problem);
    if (problem && !first) first = { name, problem };
  }
  if (!first) return null;
  input(first.name).focus();
  return { type: 'validation_error', code: first.problem.code, message: first.problem.message };
}

async function createPaymentMethod(
  billingDetails: Record<string, unknown> | undefined,
): Promise<ElementReply> {
  const error = validateAll();
  if (error) return { error };
  const expiry = digits(input('expiry').value);
  const answer = await callApi<PaymentMethodResult>(
    location.origin,
    settings.publishableKey,
    'POST',
    '/v1/payment_methods',
    {
      type: 'card',
      card: {
        number: digits(input('number').value),
        exp_month: Number(expiry.slice(0, 2)),
        exp_year: 2000 + Number(expiry.slice(2)),
        cvc: digits(input('cvc').value),
      },
      billing_details: {
        ...billingDetails,
        address: {
          ...(billingDetails?.address as Record<string, unknown> | undefined),
          country: 'US',
          postal_code: digits(input('zip').value),
        },
      },
    },
  );
  return answer.error ? { error: answer.error } : { paymentMethod: answer.body };
}

async function handle(request: ElementRequest): Promise<ElementReply> {
  switch (request.action) {
    case 'submit': {
      const error = validateAll();
      return error ? { error } : {};
    }
    case 'createPaymentMethod':
      return createPaymentMethod(request.billingDetails);
    case 'focus':
      input('number').focus();
      return {};
    case 'clear':
      for (const name of fieldNames) {
        input(name).value = '';
        show(name, null);
      }
      reportChange();
      return {};
  }
}

for (const name of fieldNames) {
  const field = input(name);
  field.addEventListener('input', (event) => {
    const deleting = (event as InputEvent).inputType?.startsWith('delete') ?? false;
    if (name === 'number') field.value = formatNumber(field.value);
    else if (name === 'expiry') field.value = formatExpiry(field.value, deleting);
    else field.value = digits(field.value).slice(0, name === 'cvc' ? cvcLength() : 5);
    // While typing, only a value that cannot become right is called out; a message already shown
    // goes as soon as the value is right.
    const problem = problemOf(name);
    show(name, problem && !problem.incomplete ? problem : null);
    if (name === 'number' && input('cvc').value) {
      const cvc = input('cvc');
      cvc.value = digits(cvc.value).slice(0, cvcLength());
    }
    reportChange();
  });
  field.addEventListener('blur', () => {
    if (field.value !== '') show(name, problemOf(name));
    post({ channel: settings.channel, type: 'blur' });
  });
  field.addEventListener('focus', () => post({ channel: settings.channel, type: 'focus' }));
}

document.getElementById('card')?.addEventListener('submit', (event) => event.preventDefault());

window.addEventListener('message', (event: MessageEvent<ParentMessage>) => {
  if (event.origin !== settings.parentOrigin || event.source !== window.parent) return;
  const { channel, id, request } = event.data;
  if (channel !== settings.channel) return;
  void handle(request).then((reply) => post({ channel, type: 'reply', id, reply }));
});

// The merchant's page sizes the frame to the form, so that messages push the page down as they
// would inside the page itself.
new ResizeObserver(() => {
  post({
    channel: settings.channel,
    type: 'resize',
    height: Math.ceil(document.documentElement.getBoundingClientRect().height),
  });
}).observe(document.documentElement);

post({ channel: settings.channel, type: 'ready' });
