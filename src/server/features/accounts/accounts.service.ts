import crypto from 'node:crypto';
import { cardExpired } from '#server/adapters/payments.ts';
import type { AppContext } from '#server/context.ts';
import {
  confirmCurrentPassword,
  endOtherSessions,
  enforceAddressLimit,
  enforceRateLimit,
  secureAccount,
  sessionUser,
  startSession,
  type ActiveSession,
} from '#server/features/auth/auth.service.ts';
import { rememberDevice, type DeviceCookie } from '#server/features/auth/auth.devices.ts';
import { hashPassword, passwordProblem } from '#server/features/auth/passwords.ts';
import {
  queueEmail,
  queueSms,
  SECRET_SLOT,
  sendQueuedSoon,
} from '#server/features/outbox/outbox.service.ts';
import { emailHtml, emailSignature } from '#server/lib/email-layout.ts';
import { absoluteLink } from '#server/lib/links.ts';
import { hashToken, randomToken, wellFormedToken } from '#server/lib/tokens.ts';
import { AppError } from '#server/lib/errors.ts';
import type {
  AccountData,
  AccountUpdate,
  AddressPayload,
  CardPayload,
  CardSummary,
  PaymentMethodPayload,
  Signup,
} from '#shared/accounts.ts';
import type { CheckoutPayment } from '#shared/checkout.ts';
import { messages } from '#shared/wording.ts';
import { formatPhone, normalizePhone } from '#shared/accounts.ts';
import type { SessionUser } from '#shared/session.ts';
import { dobProblem, isoDate, parseUsDate, usDateFromIso } from '#shared/dates.ts';
import { site } from '#shared/site.ts';
import { prescriptionShipsOnlyTo } from '#shared/us-states.ts';
import { paths } from '#shared/paths.ts';
import * as q from './accounts.queries.ts';

const ONE_HOUR = 60 * 60_000;
const SMS_CODE_TTL_MS = 10 * 60_000;
const SMS_MAX_ATTEMPTS = 5;

export const emailTaken =
  'An account with this email already exists. Log in or reset your password.';

function newLeadsId(): string {
  return `L${crypto.randomBytes(9).toString('hex')}`;
}

/** The date of birth again with the server's clock (the schema used the caller's), stored as ISO. */
function checkedDob(ctx: AppContext, dob: string): string {
  const problem = dobProblem(dob, ctx.clock.now());
  const parsed = parseUsDate(dob);
  if (problem || !parsed) {
    const message = problem ?? 'Invalid date';
    throw new AppError('VALIDATION', message, { dob: message });
  }
  return isoDate(parsed);
}

function checkedPhone(phone: string, field: string): string {
  const digits = normalizePhone(phone);
  if (!digits)
    throw new AppError('VALIDATION', 'Enter a 10-digit US phone number', {
      [field]: 'Enter a 10-digit US phone number',
    });
  return digits;
}

// --- Sign-up -------------------------------------------------------------------------------------

/** Creates the account and logs it in. An email already in use gets a clear message and no second account. */
export async function createAccount(
  ctx: AppContext,
  input: Signup,
  meta: { ip: string; userAgent: string; deviceToken: string | undefined },
): Promise<{ token: string; maxAgeSeconds: number; user: SessionUser; device: DeviceCookie }> {
  await enforceAddressLimit(ctx, `signup:ip:${meta.ip}`, 20, ONE_HOUR);
  const dob = checkedDob(ctx, input.dob);
  const phone = checkedPhone(input.phoneNo, 'phoneNo');
  const problem = passwordProblem(input.password, input.email);
  if (problem) throw new AppError('WEAK_PASSWORD', problem, { password: problem });

  const passwordHash = await hashPassword(input.password);
  // The account and its welcome email appear together, or neither does.
  const customerId = await ctx.db.transaction().execute(async (trx) => {
    const id = await q.insertCustomer(trx, {
      leadsId: newLeadsId(),
      email: input.email,
      firstName: input.first_name,
      lastName: input.last_name,
      passwordHash,
      dob,
      phone,
      clicksId: input.clicks_id === undefined ? null : String(input.clicks_id),
      now: ctx.clock.now().toISOString(),
    });
    if (id !== undefined) {
      await queueWelcome({ ...ctx, db: trx }, input.email, input.first_name);
      // Nothing waits on it: the account works at once; only what rests on the address does.
      await queueEmailVerification(
        { ...ctx, db: trx },
        { customerId: id, to: input.email, firstName: input.first_name, change: false },
      );
    }
    return id;
  });
  if (customerId === undefined)
    throw new AppError('EMAIL_TAKEN', emailTaken, { email: emailTaken });
  sendQueuedSoon(ctx);
  // Signing up is the first log-in: this browser is the account's first known device.
  const device = await rememberDevice(ctx, 'customer', customerId, meta.deviceToken);
  const session = await startSession(ctx, customerId, meta);
  return { ...session, device, user: await sessionUser(ctx, customerId) };
}

/** The welcome email: what the account is for, where it lives, and a person to reply to. */
async function queueWelcome(ctx: AppContext, to: string, firstName: string): Promise<void> {
  const link = absoluteLink(ctx.env, paths.dashboard);
  const lines = [
    `Welcome to ${site.name}, ${firstName}. Your account is ready.`,
    'It keeps your orders, subscriptions, online visits and messages with your care team in one place. Sign in any time to see them.',
  ];
  const footnote = `Questions? Just reply to this email, or write to us at ${site.supportEmail}. If you did not create this account, let us know.`;
  await queueEmail(ctx, {
    to,
    subject: `Welcome to ${site.name}`,
    text: [...lines, '', `Go to your account: ${link}`, '', footnote, '', ...emailSignature].join(
      '\n',
    ),
    html: emailHtml(lines, { href: link, label: 'Go to your account' }, footnote),
  });
}

// --- What the member area shows ------------------------------------------------------------------

export type { AccountRow } from './accounts.queries.ts';

async function loadAccount(ctx: AppContext, customerId: number) {
  const account = await q.selectAccount(ctx.db, customerId);
  if (!account) throw new AppError('UNAUTHENTICATED', 'Please log in to continue.');
  return account;
}

function cardSummary(card: q.CardRow, now: Date): CardSummary {
  return {
    brand: card.brand,
    last4: card.last4,
    exp_month: card.expMonth,
    exp_year: card.expYear,
    expired: cardExpired(card.expMonth, card.expYear, now),
  };
}

export async function accountData(ctx: AppContext, session: ActiveSession): Promise<AccountData> {
  const account = await loadAccount(ctx, session.customerId);
  return {
    customer_id: account.customerId,
    leads_id: account.leadsId,
    email: account.email,
    first_name: account.firstName,
    last_name: account.lastName,
    dob: usDateFromIso(account.dob),
    phoneNo: formatPhone(account.phone),
    phone_verified: account.phoneVerified,
    email_verified: account.emailVerified,
    pending_email: await q.selectPendingEmail(
      ctx.db,
      account.customerId,
      account.email,
      ctx.clock.now().toISOString(),
    ),
    smsallow: account.smsAllow ? 1 : 0,
    shipping: account.shipping,
    billing: account.billing,
    card: account.card ? cardSummary(account.card, ctx.clock.now()) : null,
  };
}

// --- Changes -------------------------------------------------------------------------------------

/**
 * Name, email, phone and date of birth. A new email needs the current password and takes effect
 * only when the link mailed to it is opened (confirmEmail): until then the account keeps, and logs
 * in with, the address it has. A typed address proves nothing (decision 016).
 */
export async function updateAccount(
  ctx: AppContext,
  session: ActiveSession,
  input: AccountUpdate,
): Promise<{ pendingEmail: string | null }> {
  const { prospect } = input;
  const phone = checkedPhone(prospect.phoneNo, 'prospect.phoneNo');
  const dob = checkedDob(ctx, prospect.dob);
  const account = await loadAccount(ctx, session.customerId);
  const emailChanged = prospect.email !== account.email;
  if (emailChanged) await confirmCurrentPassword(ctx, session, input.current_password);
  const now = ctx.clock.now().toISOString();
  const updated = await ctx.db.transaction().execute(async (trx) => {
    if (emailChanged) {
      const holder = await q.selectCustomerIdByEmail(trx, prospect.email);
      if (holder !== undefined && holder !== session.customerId) return false;
    }
    const saved = await q.updateProfile(trx, session.customerId, {
      firstName: prospect.first_name,
      lastName: prospect.last_name,
      email: account.email,
      phone,
      dob,
      now,
    });
    if (!saved || !emailChanged) return saved;
    // Only the latest requested address may become the account's.
    await q.revokeEmailVerifications(trx, session.customerId, now, account.email);
    await queueEmailVerification(
      { ...ctx, db: trx },
      {
        customerId: session.customerId,
        to: prospect.email,
        firstName: prospect.first_name,
        change: true,
      },
    );
    return true;
  });
  if (!updated)
    throw new AppError('EMAIL_TAKEN', 'An account with this email already exists.', {
      'prospect.email': 'An account with this email already exists.',
    });
  if (emailChanged) sendQueuedSoon(ctx);
  return { pendingEmail: emailChanged ? prospect.email : null };
}

// --- Proving the email address (issue 26, decision 016) ------------------------------------------

export const EMAIL_VERIFY_TTL_MS = 48 * 60 * 60_000;
export const EMAIL_VERIFY_SECRET = 'email-verify';
const EMAIL_VERIFY_PER_HOUR = 5;

export const emailVerifyInvalid =
  'This link has expired or has already been used. Log in and send yourself a new one.';

/**
 * The link that proves an address: the account's own (sign-up, "Send the link again") or the new
 * one an email change waits for. Its token is made as the email goes out (mintEmailVerification).
 */
async function queueEmailVerification(
  ctx: AppContext,
  link: { customerId: number; to: string; firstName: string; change: boolean },
): Promise<void> {
  const now = ctx.clock.now();
  const id = await q.insertEmailVerification(ctx.db, {
    customerId: link.customerId,
    email: link.to,
    now: now.toISOString(),
    expiresAt: new Date(now.getTime() + EMAIL_VERIFY_TTL_MS).toISOString(),
  });
  const href = absoluteLink(ctx.env, `${paths.verifyEmail}?id=${SECRET_SLOT}`);
  const lines = link.change
    ? [
        `Hello ${link.firstName},`,
        `You asked to use this address for your ${site.name} account. Your address changes when you open this link; until then the account keeps its current one.`,
        'The link works once, within 48 hours:',
      ]
    : [
        `Hello ${link.firstName},`,
        `Please confirm that this is your email address. Your ${site.name} account already works; confirming lets you see and accept partner invitations and share a couples' plan.`,
        'The link works once, within 48 hours:',
      ];
  const label = link.change ? 'Confirm your new address' : 'Confirm your email address';
  const footnote = `If you did not ask for this, ignore this email: nothing changes. Questions? Write to us at ${site.supportEmail}.`;
  await queueEmail(ctx, {
    to: link.to,
    secret: { purpose: EMAIL_VERIFY_SECRET, ref: String(id) },
    subject: link.change ? 'Confirm your new email address' : 'Confirm your email address',
    text: [...lines, '', href, '', footnote, '', ...emailSignature].join('\n'),
    html: emailHtml(lines, { href, label }, footnote),
  });
}

/** The outbox's minter for verification emails: a token while the link is unused and unexpired. */
export async function mintEmailVerification(ctx: AppContext, ref: string): Promise<string | null> {
  const id = Number(ref);
  if (!Number.isSafeInteger(id)) return null;
  const token = randomToken();
  const stored = await q.setEmailVerificationToken(
    ctx.db,
    id,
    hashToken(token),
    ctx.clock.now().toISOString(),
  );
  return stored ? token : null;
}

/** "Send the link again": a new link to the account's address, unless it is already proved. */
export async function sendEmailVerification(
  ctx: AppContext,
  session: ActiveSession,
): Promise<{ sent_to: string; email_verified: boolean }> {
  await enforceRateLimit(
    ctx,
    `email-verify:${session.customerId}`,
    EMAIL_VERIFY_PER_HOUR,
    ONE_HOUR,
  );
  const account = await loadAccount(ctx, session.customerId);
  if (account.emailVerified) return { sent_to: account.email, email_verified: true };
  await ctx.db.transaction().execute(async (trx) => {
    const now = ctx.clock.now().toISOString();
    // The latest link for the address replaces the earlier ones; a pending change stays pending.
    const pending = await q.selectPendingEmail(trx, account.customerId, account.email, now);
    await q.revokeEmailVerifications(trx, account.customerId, now, pending ?? undefined);
    await queueEmailVerification(
      { ...ctx, db: trx },
      {
        customerId: account.customerId,
        to: account.email,
        firstName: account.firstName,
        change: false,
      },
    );
  });
  sendQueuedSoon(ctx);
  return { sent_to: account.email, email_verified: false };
}

const newEmailTaken =
  'Another account now uses this email address, so we could not change yours. Your address stays as it was.';

/**
 * Spends a verification link once. For the account's own address it marks it proved. For a new
 * one the account switches to it, proved; then, as before issue 26, the old address is told with
 * its one-time undo link and every other session ends (the opener's stays, if it is theirs).
 */
export async function confirmEmail(
  ctx: AppContext,
  token: string,
  session: ActiveSession | null,
): Promise<{ email: string; changed: boolean }> {
  if (!wellFormedToken(token)) throw new AppError('EMAIL_VERIFY_INVALID', emailVerifyInvalid);
  const now = ctx.clock.now();
  const result = await ctx.db.transaction().execute(async (trx) => {
    const link = await q.consumeEmailVerification(trx, hashToken(token), now.toISOString());
    if (!link) throw new AppError('EMAIL_VERIFY_INVALID', emailVerifyInvalid);
    const account = await loadAccount({ ...ctx, db: trx }, link.customerId);
    if (link.email === account.email) {
      await q.setVerifiedEmail(trx, account.customerId, account.email, now.toISOString());
      return { email: account.email, changed: false };
    }
    const holder = await q.selectCustomerIdByEmail(trx, link.email);
    if (holder !== undefined && holder !== account.customerId)
      throw new AppError('EMAIL_TAKEN', newEmailTaken);
    await q.setVerifiedEmail(trx, account.customerId, link.email, now.toISOString());
    await q.revokeEmailVerifications(trx, account.customerId, now.toISOString());
    const undoId = await q.insertEmailChangeUndo(trx, {
      customerId: account.customerId,
      oldEmail: account.email,
      newEmail: link.email,
      now: now.toISOString(),
      expiresAt: new Date(now.getTime() + EMAIL_UNDO_TTL_MS).toISOString(),
    });
    const own = session?.customerId === account.customerId ? session.tokenHash : undefined;
    await endOtherSessions({ ...ctx, db: trx }, account.customerId, own);
    await queueEmailChangedNotice(
      { ...ctx, db: trx },
      { to: account.email, firstName: account.firstName, newEmail: link.email, undoId },
    );
    return { email: link.email, changed: true };
  });
  if (result.changed) sendQueuedSoon(ctx);
  return result;
}

export const EMAIL_UNDO_TTL_MS = 7 * 24 * 60 * 60_000;
export const EMAIL_UNDO_SECRET = 'email-undo';

/** `r***@example.com`: enough for the owner to recognise an address, not to learn a stranger's. */
function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 1 ? '***' : `${email.slice(0, 1)}***${email.slice(at)}`;
}

async function queueEmailChangedNotice(
  ctx: AppContext,
  notice: { to: string; firstName: string; newEmail: string; undoId: number },
): Promise<void> {
  // The token is made when the email goes out (mintEmailUndo), so none waits in the outbox.
  const link = absoluteLink(ctx.env, `${paths.undoEmailChange}?id=${SECRET_SLOT}`);
  const lines = [
    `Hello ${notice.firstName},`,
    `The email address of your ${site.name} account was just changed to ${maskEmail(notice.newEmail)}, and every other device was logged out. From now on we write to the new address.`,
    'If you did not make this change, use this link within 7 days to put this address back. It works once and logs every device out:',
  ];
  const footnote = `If this was you, there is nothing more to do. If it was not, after putting your address back choose a new password, and write to us at ${site.supportEmail}.`;
  await queueEmail(ctx, {
    to: notice.to,
    secret: { purpose: EMAIL_UNDO_SECRET, ref: String(notice.undoId) },
    subject: `Your ${site.name} email address was changed`,
    text: [...lines, '', link, '', footnote, '', ...emailSignature].join('\n'),
    html: emailHtml(lines, { href: link, label: 'Undo this change' }, footnote),
  });
}

/**
 * The outbox's minter for the notice to the old address: the undo's token, made as the notice goes
 * out, and only while the undo is still unused and unexpired (none after the owner has used one).
 */
export async function mintEmailUndo(ctx: AppContext, ref: string): Promise<string | null> {
  const id = Number(ref);
  if (!Number.isSafeInteger(id)) return null;
  const token = randomToken();
  const stored = await q.setEmailUndoToken(
    ctx.db,
    id,
    hashToken(token),
    ctx.clock.now().toISOString(),
  );
  return stored ? token : null;
}

export const emailUndoInvalid =
  'This link has expired or has already been used. If someone else changed your email, please write to us.';
const oldEmailTaken =
  'Another account now uses your old email address, so we could not put it back. Please write to us and we will help.';

/**
 * Spends an undo link once: the old address comes back, every session ends, reset links still
 * unused stop working and every device must log in anew, so whoever changed it is out.
 */
export async function restoreEmail(ctx: AppContext, token: string): Promise<{ email: string }> {
  const now = ctx.clock.now().toISOString();
  if (!wellFormedToken(token)) throw new AppError('EMAIL_UNDO_INVALID', emailUndoInvalid);
  return ctx.db.transaction().execute(async (trx) => {
    const undo = await q.consumeEmailUndo(trx, hashToken(token), now);
    if (!undo) throw new AppError('EMAIL_UNDO_INVALID', emailUndoInvalid);
    const holder = await q.selectCustomerIdByEmail(trx, undo.oldEmail);
    if (holder !== undefined && holder !== undo.customerId)
      throw new AppError('EMAIL_TAKEN', oldEmailTaken);
    // The undo link reached the old address: that proves it as well as a verification link would.
    await q.setVerifiedEmail(trx, undo.customerId, undo.oldEmail, now);
    await q.revokeEmailUndos(trx, undo.customerId, now);
    await q.revokeEmailVerifications(trx, undo.customerId, now);
    await secureAccount({ ...ctx, db: trx }, undo.customerId);
    return { email: undo.oldEmail };
  });
}

export async function saveAddresses(
  ctx: AppContext,
  session: ActiveSession,
  input: AddressPayload,
): Promise<void> {
  const now = ctx.clock.now().toISOString();
  const phone = checkedPhone(input.phoneNo, 'phoneNo');
  // Refills ship to this address: it stays in the state the prescription is for.
  const pinned = (await q.selectPrescriptionStates(ctx.db, session.customerId)).find(
    (state) => state !== input.state,
  );
  if (pinned !== undefined) {
    const message = prescriptionShipsOnlyTo(pinned);
    throw new AppError('SHIPPING_STATE', message, { state: message });
  }
  await ctx.db.transaction().execute(async (trx) => {
    await q.upsertAddress(
      trx,
      session.customerId,
      'shipping',
      {
        address: input.address,
        address2: input.address2,
        city: input.city,
        state: input.state,
        zip: input.zip,
        country: 'US',
      },
      now,
    );
    await q.upsertAddress(
      trx,
      session.customerId,
      'billing',
      {
        address: input.billing_address,
        address2: input.billing_address2,
        city: input.billing_city,
        state: input.billing_state,
        zip: input.billing_zip,
        country: 'US',
      },
      now,
    );
    await q.updateContactPreferences(trx, session.customerId, phone, input.smsallow === 1, now);
  });
}

/**
 * Verifies the card with the gateway and keeps only its token, brand, last 4 and expiry. The
 * simulator takes the spec's card fields: the number and CVV exist only in this call's memory, and
 * nothing here logs them. A processor with its own card form (Stripe) takes the payment method it
 * made, saved on the account's own processor customer; when the card's bank asks for 3-D Secure,
 * the answer carries what the browser confirms, and the same card is sent again with the
 * SetupIntent the customer confirmed.
 */
export async function updateCard(
  ctx: AppContext,
  session: ActiveSession,
  input: CardPayload | PaymentMethodPayload,
): Promise<CardSummary> {
  const element = 'payment_method' in input;
  if (element !== (ctx.payments.cardEntry === 'element')) {
    const message = messages.cardEntryChanged;
    throw new AppError('CARD_ENTRY_CHANGED', message, {
      [element ? 'payment_method' : 'ccnum']: message,
    });
  }
  // Card testing protection: a handful of attempts an hour per customer. Finishing a card whose
  // bank asked for 3-D Secure is the same attempt, not another.
  if (!('setup_intent' in input && input.setup_intent))
    await enforceRateLimit(ctx, `card:${session.customerId}`, 10, ONE_HOUR);
  const now = ctx.clock.now();
  const customerRef = element ? await q.selectGatewayCustomer(ctx.db, session.customerId) : null;
  const result = element
    ? await ctx.payments.tokenize(
        {
          paymentMethodId: input.payment_method,
          customerRef,
          setupIntentId: input.setup_intent ?? null,
        },
        now,
      )
    : await ctx.payments.tokenize(cardInputOf(input), now);
  // The processor's customer is the account's from its first card on, saved or not.
  const madeFor = result.customerRef;
  if (madeFor && madeFor !== customerRef)
    await q.setGatewayCustomer(ctx.db, session.customerId, madeFor);
  if (!result.ok) {
    const field = element ? 'payment_method' : result.field;
    if (result.action)
      throw new AppError(
        'CARD_AUTHENTICATION',
        result.message,
        { [field]: result.message },
        { client_secret: result.action.clientSecret },
      );
    throw new AppError('CARD_DECLINED', result.message, { [field]: result.message });
  }
  const card = {
    gatewayToken: result.token,
    brand: result.brand,
    last4: result.last4,
    expMonth: result.expMonth,
    expYear: result.expYear,
  };
  await q.upsertCard(ctx.db, session.customerId, card, now.toISOString());
  if (input.shipping === 1) {
    const account = await loadAccount(ctx, session.customerId);
    if (account.shipping)
      await q.upsertAddress(
        ctx.db,
        session.customerId,
        'billing',
        account.shipping,
        now.toISOString(),
      );
  }
  return cardSummary(card, now);
}

function cardInputOf(input: CardPayload) {
  const [month, year] = input.ccexp.split('/').map(Number);
  return {
    number: input.ccnum,
    expMonth: month ?? 0,
    expYear: 2000 + (year ?? 0),
    cvc: input.cccvv,
  };
}

/**
 * A checkout's new card (the store's or a visit's), saved as the card on file before anything is
 * charged to it; the saved card needs nothing.
 */
export async function saveCheckoutCard(
  ctx: AppContext,
  session: ActiveSession,
  payment: CheckoutPayment,
): Promise<void> {
  if (payment.method === 'saved') return;
  await updateCard(
    ctx,
    session,
    payment.method === 'card'
      ? { ccnum: payment.ccnum, ccexp: payment.ccexp, cccvv: payment.cccvv, consent: true }
      : {
          payment_method: payment.payment_method,
          ...(payment.setup_intent ? { setup_intent: payment.setup_intent } : {}),
          consent: true,
        },
  );
}

// --- Phone verification --------------------------------------------------------------------------

function hashCode(customerId: number, code: string): string {
  return crypto.createHash('sha256').update(`${customerId}:${code}`).digest('hex');
}

function maskPhone(phone: string): string {
  return `(•••) •••-${phone.slice(-4)}`;
}

export async function sendPhoneCode(
  ctx: AppContext,
  session: ActiveSession,
): Promise<{ sent_to: string; phone_verified: boolean }> {
  await enforceRateLimit(ctx, `sms:${session.customerId}`, 5, ONE_HOUR);
  const account = await loadAccount(ctx, session.customerId);
  // The code is made when the text goes out (mintPhoneCode), so none waits in the outbox.
  await queueSms(ctx, {
    to: account.phone,
    text: `Your Pairwell verification code is ${SECRET_SLOT}. It expires in 10 minutes.`,
    secret: { purpose: PHONE_CODE_SECRET, ref: String(session.customerId) },
  });
  return { sent_to: maskPhone(account.phone), phone_verified: account.phoneVerified };
}

export const PHONE_CODE_SECRET = 'phone-code';

/**
 * The outbox's minter for verification texts: a fresh code, valid 10 minutes from when it is sent,
 * while the account still has the number the text was queued for.
 */
export async function mintPhoneCode(
  ctx: AppContext,
  ref: string,
  recipient: string,
): Promise<string | null> {
  const customerId = Number(ref);
  if (!Number.isSafeInteger(customerId)) return null;
  const account = await q.selectAccount(ctx.db, customerId);
  if (!account || account.phone !== recipient) return null;
  const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
  await q.upsertSmsCode(ctx.db, customerId, {
    hash: hashCode(customerId, code),
    phone: recipient,
    expiresAt: new Date(ctx.clock.now().getTime() + SMS_CODE_TTL_MS).toISOString(),
  });
  return code;
}

const wrongCode = 'That code is not right or has expired. Send a new code and try again.';

export async function verifyPhoneCode(
  ctx: AppContext,
  session: ActiveSession,
  code: string,
): Promise<{ phone_verified: boolean }> {
  const stored = await q.selectSmsCode(ctx.db, session.customerId);
  const now = ctx.clock.now().toISOString();
  if (!stored || stored.attempts >= SMS_MAX_ATTEMPTS || stored.expiresAt <= now) {
    throw new AppError('WRONG_CODE', wrongCode, { code: wrongCode });
  }
  const expected = Buffer.from(stored.hash, 'hex');
  const given = Buffer.from(hashCode(session.customerId, code), 'hex');
  if (!crypto.timingSafeEqual(expected, given)) {
    await q.countSmsAttempt(ctx.db, session.customerId);
    throw new AppError('WRONG_CODE', wrongCode, { code: wrongCode });
  }
  const verified = await q.markPhoneVerified(ctx.db, session.customerId, stored.phone, now);
  if (!verified) throw new AppError('WRONG_CODE', wrongCode, { code: wrongCode });
  return { phone_verified: true };
}

// --- For checkout --------------------------------------------------------------------------------

/** The gateway token of the card on file, if any. */
export async function cardOnFileToken(ctx: AppContext, customerId: number): Promise<string | null> {
  return (await q.selectCard(ctx.db, customerId))?.gatewayToken ?? null;
}

/** Checkout's addresses become the account's, as a customer expects next time. */
export async function rememberCheckoutAddresses(
  ctx: AppContext,
  customerId: number,
  shipping: q.AddressRow | null,
  billing: q.AddressRow | null,
  phone: string,
): Promise<void> {
  const now = ctx.clock.now().toISOString();
  // A shop order may ship anywhere, but refills ship to the account's address: it does not move
  // out of the state a prescription is for. Null: not the customer's own (the partner's, issue 16).
  const pinned = await q.selectPrescriptionStates(ctx.db, customerId);
  if (shipping && pinned.every((state) => state === shipping.state))
    await q.upsertAddress(ctx.db, customerId, 'shipping', shipping, now);
  if (billing) await q.upsertAddress(ctx.db, customerId, 'billing', billing, now);
  const digits = normalizePhone(phone);
  const account = await loadAccount(ctx, customerId);
  if (digits) await q.updateContactPreferences(ctx.db, customerId, digits, account.smsAllow, now);
}

/** Brand, last 4 and expiry of the card on file, if any. */
export async function cardSummaryOf(
  ctx: AppContext,
  customerId: number,
): Promise<CardSummary | null> {
  const card = await q.selectCard(ctx.db, customerId);
  return card ? cardSummary(card, ctx.clock.now()) : null;
}

/** One of the customer's addresses on file: where a gift they received ships (decision 018). */
export async function addressOf(
  ctx: AppContext,
  customerId: number,
  kind: 'shipping' | 'billing',
): Promise<q.AddressRow | null> {
  return (await q.selectAccount(ctx.db, customerId))?.[kind] ?? null;
}

/** The shipping address on file, for a renewal order. */
export async function shippingAddressOf(
  ctx: AppContext,
  customerId: number,
): Promise<q.AddressRow | null> {
  return (await q.selectAccount(ctx.db, customerId))?.shipping ?? null;
}
