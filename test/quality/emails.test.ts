import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStaff } from '#server/db/seed-demo.ts';
import { runBilling } from '#server/features/billing/billing.service.ts';
import {
  RENEWAL_REMINDER_DAYS,
  RENEWAL_REMINDER_JOB,
} from '#server/features/subscriptions/subscriptions.emails.ts';
import { usDateFromIso } from '#shared/dates.ts';
import { site } from '#shared/site.ts';
import { addDays } from '#shared/subscriptions.ts';
import { programs, treatments } from '#shared/visits.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import {
  buildPlaceOrder,
  buildSignup,
  insertCustomer,
  insertSubscriber,
  post,
  randomLoopback,
  staffCookie,
  type TestCustomer,
} from '#test/factories.ts';
import { sentMessages } from '#test/outbox.ts';
import { TestSmtpServer } from '#test/smtp.ts';
import {
  approveWithPrescription,
  completeQuestions,
  setLicensedStates,
  submittedEdVisit,
} from '#test/visits.ts';
import { latestRenewalQuestionnaire } from '#shared/questionnaires/registry.ts';
import { offers } from '#shared/catalog.ts';

/**
 * Every email the product sends (docs/emails.md), triggered through the API or the job that sends
 * it, received over real SMTP and read as a mail client would: Reply-To, both parts, absolute links
 * that go where the news is, and nothing a stranger reading over the patient's shoulder should see.
 */

const PUBLIC_URL = 'https://care.pairwell.test';
/** The one link that leaves the site: the carrier's own tracking page. */
const CARRIER_TRACKING = 'https://tools.usps.com/go/TrackConfirmAction?tLabels=';
const DAY = 24 * 60 * 60_000;
const [provider, ops] = demoStaff as [(typeof demoStaff)[number], (typeof demoStaff)[number]];

/** Words that would tell the reader what the patient is treated for, or with. */
const healthWords: RegExp[] = [
  /\bED\b/,
  /erectile|dysfunction|impoten|hair loss|insomnia|sleep aid|viagra|cialis|prescri|diagnos/i,
  /\b\d+(\.\d+)?\s?mg\b/i,
  ...Object.values(programs).map((p) => new RegExp(escapeRegExp(p.headline), 'i')),
  ...treatments
    .flatMap((t) => [t.drug, t.drug.split('-')[0] ?? t.drug, t.label])
    .map((word) => new RegExp(escapeRegExp(word), 'i')),
];
/**
 * The test card, its expiry and CVV as every checkout here sends them (factories, visits); words,
 * not letters, since a random token in a link ("…TcVc32…") is not card data.
 */
const cardData: RegExp[] = [/4242/, /\b12\/30\b/, /\b123\b/, /\b(cvv|cvc)\b/i];
/** What a provider writes, or declines with: health information the email must not carry. */
const providerCanary = 'canary-provider-words about the dose';
const declineCanary = 'canary-decline-reason: your blood pressure needs an in-person check.';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// --- Reading a message as a mail client does ------------------------------------------------------

interface ReadMail {
  headers: Record<string, string>;
  subject: string;
  text: string;
  html: string;
  /** Every href of the HTML part, unescaped. */
  hrefs: string[];
  /** Every http(s) URL written in the text part. */
  textUrls: string[];
}

function splitEntity(raw: string): { headers: Record<string, string>; body: string } {
  const end = raw.indexOf('\n\n');
  const head = (end < 0 ? raw : raw.slice(0, end)).replace(/\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body: end < 0 ? '' : raw.slice(end + 2) };
}

function decodeQuotedPrintable(body: string): string {
  const soft = body.replace(/=\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const hex = soft.slice(i + 1, i + 3);
    if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(soft[i] ?? '', 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeBody(headers: Record<string, string>, body: string): string {
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  if (encoding === 'base64')
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`), as a non-ASCII subject is sent. */
function decodeHeader(value: string): string {
  return value.replace(/=\?utf-8\?([QB])\?([^?]*)\?=\s*/gi, (_all, kind: string, text: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}

/** The leaf parts of a MIME entity, by content type. */
function leafParts(raw: string): { type: string; body: string }[] {
  const { headers, body } = splitEntity(raw);
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.toLowerCase().startsWith('multipart/') || !boundary)
    return [
      { type: type.split(';')[0]?.trim().toLowerCase() ?? '', body: decodeBody(headers, body) },
    ];
  const marker = `--${boundary}`;
  return body
    .split(marker)
    .slice(1)
    .filter((part) => !part.startsWith('--'))
    .flatMap((part) => leafParts(part.replace(/^\n/, '').replace(/\n$/, '')));
}

function readMail(raw: string): ReadMail {
  const normal = raw.replace(/\r\n/g, '\n');
  const { headers } = splitEntity(normal);
  const parts = leafParts(normal);
  const text = parts
    .filter((p) => p.type === 'text/plain')
    .map((p) => p.body)
    .join('\n');
  const html = parts
    .filter((p) => p.type === 'text/html')
    .map((p) => p.body)
    .join('\n');
  const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) =>
    (m[1] ?? '').replace(/&amp;/g, '&'),
  );
  const textUrls = [...text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]);
  return { headers, subject: decodeHeader(headers.subject ?? ''), text, html, hrefs, textUrls };
}

// --- The checks every email passes ---------------------------------------------------------------

interface Expected {
  /** Where the email's link must go (a path on PUBLIC_URL, or the carrier's page). */
  link: RegExp;
  /** The email exists to carry a one-time token in that link. */
  oneTime?: boolean;
  /** Secrets of the recipient's that must not appear (session cookie, leads id…). */
  secrets?: string[];
}

/** A string that looks like a random token: long, and mixing letters with digits. */
const tokenLike = /(?=[\w-]*[A-Za-z])(?=[\w-]*\d)[\w-]{20,}/g;

function expectSafeEmail(mail: ReadMail, expected: Expected): void {
  // Replies go to a person; the sender stays the no-reply address it always was.
  expect(mail.headers['reply-to']).toBe(site.supportEmail);
  expect(mail.headers.from).toContain('no-reply@');

  expect(mail.text.trim().length).toBeGreaterThan(40);
  expect(mail.html).toMatch(/<html[\s\S]*<\/html>/);

  const links = [...new Set([...mail.hrefs, ...mail.textUrls])];
  expect(links.length).toBeGreaterThan(0);
  for (const link of links) {
    const onSite = link.startsWith(`${PUBLIC_URL}/`);
    expect(onSite || link.startsWith(CARRIER_TRACKING), `${link} is not absolute on the site`).toBe(
      true,
    );
    expect(link.replace(PUBLIC_URL, '').replace(CARRIER_TRACKING, '')).toMatch(expected.link);
  }
  // The same links in both parts: a text-only reader loses nothing.
  expect([...new Set(mail.textUrls)].sort()).toEqual([...new Set(mail.hrefs)].sort());

  const words = [mail.subject, mail.text, mail.html].join('\n');
  for (const pattern of [...healthWords, ...cardData])
    expect(words, `${mail.subject}: ${pattern}`).not.toMatch(pattern);
  for (const canary of [providerCanary, declineCanary, 'canary-'])
    expect(words).not.toContain(canary);
  for (const secret of expected.secrets ?? []) expect(words).not.toContain(secret);
  expect(words).not.toContain('[[outbox-secret]]');

  // No token but the one-time link's (and that one only inside its link).
  const oneTimeTokens = expected.oneTime
    ? links
        .map((l) => /[?&](?:id|invite|partnerInvite)=([\w-]+)/.exec(l)?.[1])
        .filter((t): t is string => !!t)
    : [];
  expect(oneTimeTokens.length).toBe(expected.oneTime ? links.length : 0);
  let rest = words;
  for (const link of links)
    rest = rest.replaceAll(link, '').replaceAll(link.replace(/&/g, '&amp;'), '');
  expect(rest.match(tokenLike) ?? [], mail.subject).toEqual([]);
}

// --- The emails ----------------------------------------------------------------------------------

describe(`every email the product sends (${testDialect})`, () => {
  const smtp = new TestSmtpServer();
  let t: TestApp;
  /** The name (docs/emails.md's first column) of every email checked here. */
  const checked = new Set<string>();

  beforeAll(async () => {
    await smtp.start();
    t = await buildTestApp({ env: { SEED_DEMO: 'true', SMTP_URL: smtp.url, PUBLIC_URL } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  /** The email to `to` whose subject matches, once the outbox has sent everything due. */
  async function received(to: string, subject: string | RegExp): Promise<ReadMail> {
    await t.app.ctx.jobs.drain('outbox');
    const mails = smtp.accepted
      .filter((m) => m.to.includes(to))
      .map((m) => readMail(m.raw))
      .filter((m) =>
        typeof subject === 'string' ? m.subject === subject : subject.test(m.subject),
      );
    expect(mails, `no email "${String(subject)}" to ${to}`).toHaveLength(1);
    return mails[0] as ReadMail;
  }

  function check(name: string, mail: ReadMail, expected: Expected): void {
    expectSafeEmail(mail, expected);
    checked.add(name);
  }

  const secretsOf = (c: TestCustomer) => [
    c.cookie.split('=')[1] ?? c.cookie,
    c.leadsId,
    c.password,
  ];
  const login = (email: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/lapi/account/login/',
      payload: { email, password },
      remoteAddress: randomLoopback(),
    });

  let storeOrder: { id: number; number: string; customer: TestCustomer };

  it('Order confirmation links to the order on Orders', async () => {
    const c = await insertCustomer(t.app);
    await post(
      t.app,
      '/lapi/v2/ecom/add-product',
      { product_id: offers.sleep.oneTime, quantity: 2 },
      c.cookie,
    );
    const placed = await post(t.app, '/lapi/v2/ecom/place-order', buildPlaceOrder(), c.cookie);
    expect(placed.statusCode, placed.body).toBe(200);
    const { orders_id: id, order_number: number } = placed.json<{
      data: { orders_id: number; order_number: string };
    }>().data;
    storeOrder = { id, number, customer: c };
    const mail = await received(c.email, `Your ${site.name} order ${number}`);
    check('Order confirmation', mail, {
      link: new RegExp(`^/orders#${escapeRegExp(number)}$`),
      secrets: secretsOf(c),
    });
    expect(mail.html).toContain('Just reply to this email');
    // An itemised receipt, in both parts: the line, then the sums.
    for (const row of ['Sleep Gummies', 'Subtotal', 'Shipping', 'Tax', 'Total charged'])
      expect(mail.text).toContain(row);
    expect(mail.text).toContain('Sleep Gummies — 2 bottles, 2 × $24.99: $49.98');
    expect(mail.html).toContain('<table role="presentation"');
    expect(mail.html).toContain('2 bottles, 2 × $24.99');
  });

  it('Welcome links to the account, and a new customer gets exactly one', async () => {
    const c = await insertCustomer(t.app);
    const mail = await received(c.email, `Welcome to ${site.name}`);
    check('Welcome', mail, { link: /^\/dashboard$/, secrets: secretsOf(c) });
    expect(mail.text).toContain('Just reply to this email');
    // An address already in use makes no second account and no second welcome.
    const again = await t.app.inject({
      method: 'POST',
      url: '/lapi/account/create/',
      payload: buildSignup({ email: c.email }),
      remoteAddress: randomLoopback(),
    });
    expect(again.statusCode).toBe(409);
    await received(c.email, `Welcome to ${site.name}`);
  });

  it('Order shipped links to the carrier tracking page', async () => {
    const cookie = await staffCookie(t, ops);
    const shipped = await post(
      t.app,
      '/lapi/staff/orders/ship/',
      { order_id: storeOrder.id, tracking_number: '9400111899223197428490' },
      cookie,
    );
    expect(shipped.statusCode, shipped.body).toBe(200);
    const mail = await received(storeOrder.customer.email, /has shipped$/);
    check('Order shipped', mail, { link: /^9400111899223197428490$/ });
  });

  it('Order delivered links to the order on Orders', async () => {
    const cookie = await staffCookie(t, ops);
    const delivered = await post(
      t.app,
      '/lapi/staff/orders/deliver/',
      { order_id: storeOrder.id },
      cookie,
    );
    expect(delivered.statusCode, delivered.body).toBe(200);
    const mail = await received(storeOrder.customer.email, /has been delivered$/);
    check('Order delivered', mail, {
      link: new RegExp(`^/orders#${escapeRegExp(storeOrder.number)}$`),
      secrets: secretsOf(storeOrder.customer),
    });
  });

  it('Refund receipt links to the order and says the amount, never the reason', async () => {
    const cookie = await staffCookie(t, ops);
    const refunded = await post(
      t.app,
      '/lapi/staff/orders/refund/',
      { order_id: storeOrder.id, amount_cents: 1000, reason: 'canary-refund-reason' },
      cookie,
    );
    expect(refunded.statusCode, refunded.body).toBe(200);
    const mail = await received(
      storeOrder.customer.email,
      `Your ${site.name} refund for order ${storeOrder.number}`,
    );
    check('Refund receipt', mail, {
      link: new RegExp(`^/orders#${escapeRegExp(storeOrder.number)}$`),
      secrets: [...secretsOf(storeOrder.customer), 'canary-refund-reason'],
    });
    expect(mail.text).toContain(`We refunded $10.00 of your order ${storeOrder.number}`);
  });

  let patient: TestCustomer & { visitId: number; orderNumber: string };

  it('Visit received links to the visit order on Orders, where the decision will be', async () => {
    const c = await insertCustomer(t.app);
    const visit = await submittedEdVisit(t.app, c);
    patient = { ...c, ...visit };
    const mail = await received(c.email, 'We received your online visit');
    check('Visit received', mail, {
      link: new RegExp(`^/orders#${escapeRegExp(visit.orderNumber)}$`),
      secrets: secretsOf(c),
    });
    expect(mail.text).toContain('on the Orders page');
  });

  it('Care team message links to Messages and leaves the words out', async () => {
    const cookie = await staffCookie(t, provider);
    const sent = await post(
      t.app,
      '/lapi/staff/messages/send/',
      { visit_id: patient.visitId, body: providerCanary },
      cookie,
    );
    expect(sent.statusCode, sent.body).toBe(200);
    const mail = await received(patient.email, 'You have a new message from your care team');
    check('Care team message', mail, { link: /^\/messages$/, secrets: secretsOf(patient) });
  });

  it('Visit approved links to the order (the prescription) and to Messages when the provider wrote, and says what was charged', async () => {
    const cookie = await staffCookie(t, provider);
    const approved = await post(
      t.app,
      '/lapi/staff/visits/approve/',
      {
        visit_id: patient.visitId,
        prescription: {
          drug: 'sildenafil',
          dosage: '50mg',
          quantity: 6,
          refills: 5,
          valid_until: '2027-06-01',
          directions: `${providerCanary}: take one an hour before.`,
        },
      },
      cookie,
    );
    expect(approved.statusCode, approved.body).toBe(200);
    // The provider wrote to this patient before approving (the Care team message above).
    const approval = await received(patient.email, 'Your provider approved your treatment plan');
    check('Visit approved', approval, {
      link: new RegExp(`^(/orders#${escapeRegExp(patient.orderNumber)}|/messages)$`),
      secrets: secretsOf(patient),
    });
    expect(approval.textUrls).toEqual([
      `${PUBLIC_URL}/orders#${patient.orderNumber}`,
      `${PUBLIC_URL}/messages`,
    ]);
    expect(approval.text).toMatch(/held on your card has now been charged/);
    expect(approval.text).toContain('Sign in to see the details');

    // A provider who did not write: the approval links to the order only.
    const quiet = await insertCustomer(t.app);
    const quietVisit = await submittedEdVisit(t.app, quiet);
    const quietApproved = await post(
      t.app,
      '/lapi/staff/visits/approve/',
      {
        visit_id: quietVisit.visitId,
        prescription: {
          drug: 'sildenafil',
          dosage: '50mg',
          quantity: 6,
          refills: 0,
          valid_until: '2027-06-01',
          directions: 'Take one an hour before.',
        },
      },
      cookie,
    );
    expect(quietApproved.statusCode, quietApproved.body).toBe(200);
    const quietMail = await received(quiet.email, 'Your provider approved your treatment plan');
    check('Visit approved', quietMail, {
      link: new RegExp(`^/orders#${escapeRegExp(quietVisit.orderNumber)}$`),
      secrets: secretsOf(quiet),
    });
  });

  it('Visit declined links to Messages, where the reason is, and to the order, without the reason', async () => {
    const cookie = await staffCookie(t, provider);
    const other = await insertCustomer(t.app);
    const visit = await submittedEdVisit(t.app, other);
    const declined = await post(
      t.app,
      '/lapi/staff/visits/decline/',
      { visit_id: visit.visitId, reason: declineCanary },
      cookie,
    );
    expect(declined.statusCode, declined.body).toBe(200);
    const decline = await received(other.email, 'Your provider has replied');
    check('Visit declined', decline, {
      link: new RegExp(`^(/messages|/orders#${escapeRegExp(visit.orderNumber)})$`),
      secrets: secretsOf(other),
    });
    // The first link (the button) is where the reason is.
    expect(decline.hrefs[0]).toBe(`${PUBLIC_URL}/messages`);
    expect(decline.text).toContain('read it in Messages');
    expect(decline.text).not.toContain('Orders page');
    expect(decline.text).toContain('you have not been charged');
  });

  it('Renewal due, received, approved and declined (issue 29) name nothing, and link to Home and Messages', async () => {
    const cookie = await staffCookie(t, provider);
    const renewing = async () => {
      const c = await insertCustomer(t.app);
      const visit = await submittedEdVisit(t.app, c);
      expect(
        (await approveWithPrescription(t.app, cookie, visit.visitId, { refills: 1 })).statusCode,
      ).toBe(200);
      return c;
    };
    const sendRenewal = async (c: TestCustomer) => {
      const opened = await post(t.app, '/lapi/visit/renew/', { category: 'ed' }, c.cookie);
      expect(opened.statusCode, opened.body).toBe(200);
      const visitId = opened.json<{ data: { visit_id: number } }>().data.visit_id;
      await completeQuestions(t.app, c, visitId, 'ed', {
        questionnaire: latestRenewalQuestionnaire('ed'),
      });
      await post(t.app, '/lapi/visit/questions/answers/', { visit_id: visitId }, c.cookie);
      const sent = await post(
        t.app,
        '/lapi/visit/renew/send/',
        { visit_id: visitId, confirm: true },
        c.cookie,
      );
      expect(sent.statusCode, sent.body).toBe(200);
      return visitId;
    };

    const renewed = await renewing();
    await t.app.ctx.jobs.drain('renewal-due');
    check('Renewal due', await received(renewed.email, 'Time for your check-in'), {
      link: /^\/dashboard$/,
      secrets: secretsOf(renewed),
    });
    const visitId = await sendRenewal(renewed);
    check('Renewal received', await received(renewed.email, 'We received your answers'), {
      link: /^\/messages$/,
      secrets: secretsOf(renewed),
    });
    const approved = await approveWithPrescription(t.app, cookie, visitId, { refills: 3 });
    expect(approved.statusCode, approved.body).toBe(200);
    const approval = await received(renewed.email, 'Your provider has replied');
    check('Renewal approved', approval, { link: /^\/messages$/, secrets: secretsOf(renewed) });
    expect(approval.text).toContain('approved your check-in');

    const refused = await renewing();
    const refusedVisit = await sendRenewal(refused);
    const declined = await post(
      t.app,
      '/lapi/staff/visits/decline/',
      { visit_id: refusedVisit, reason: declineCanary },
      cookie,
    );
    expect(declined.statusCode, declined.body).toBe(200);
    const decline = await received(refused.email, 'Your provider has replied');
    check('Visit declined', decline, { link: /^\/messages$/, secrets: secretsOf(refused) });
    expect(decline.text).toContain('decided not to continue your refills');
  });

  it('Password reset carries its one-time link and nothing else', async () => {
    const c = await insertCustomer(t.app);
    const asked = await t.app.inject({
      method: 'POST',
      url: '/lapi/account/reset/',
      payload: { email: c.email },
      remoteAddress: randomLoopback(),
    });
    expect(asked.statusCode).toBe(200);
    const mail = await received(c.email, `Reset your ${site.name} password`);
    check('Password reset', mail, {
      link: /^\/reset-password\?id=[\w-]{43}$/,
      oneTime: true,
      secrets: secretsOf(c),
    });
  });

  it('Password changed links to the page that sends a reset link', async () => {
    const c = await insertCustomer(t.app);
    const changed = await post(
      t.app,
      '/lapi/account/password/',
      { current_password: c.password, password: 'another passphrase here' },
      c.cookie,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    const mail = await received(c.email, `Your ${site.name} password was changed`);
    check('Password changed', mail, { link: /^\/reset-password$/, secrets: secretsOf(c) });
  });

  it('Email address changed goes to the old address with its one-time undo link', async () => {
    const c = await insertCustomer(t.app);
    const moved = `moved-${c.customerId}@example.test`;
    const updated = await post(
      t.app,
      '/lapi/account/update/',
      {
        leads_id: c.leadsId,
        prospect: {
          first_name: 'Riley',
          last_name: 'Morgan',
          email: moved,
          phoneNo: '(503) 555-0142',
          dob: '04/12/1990',
        },
        current_password: c.password,
      },
      c.cookie,
    );
    expect(updated.statusCode, updated.body).toBe(200);
    // The change takes effect when the link mailed to the new address is opened (issue 26).
    const confirm = await received(moved, 'Confirm your new email address');
    const token = /\/verify-email\?id=([\w-]{43})/.exec(confirm.text)?.[1];
    const opened = await post(t.app, '/lapi/account/email/verify/', { token }, c.cookie);
    expect(opened.statusCode, opened.body).toBe(200);
    const mail = await received(c.email, `Your ${site.name} email address was changed`);
    check('Email address changed', mail, {
      link: /^\/undo-email-change\?id=[\w-]{43}$/,
      oneTime: true,
      secrets: [...secretsOf(c), moved],
    });
  });

  it('Email confirmation carries its one-time link, sent at sign-up and again on request', async () => {
    const c = await insertCustomer(t.app, { verified: false });
    const mail = await received(c.email, 'Confirm your email address');
    check('Email confirmation', mail, {
      link: /^\/verify-email\?id=[\w-]{43}$/,
      oneTime: true,
      secrets: secretsOf(c),
    });
    const again = await post(t.app, '/lapi/account/email/verify/send/', {}, c.cookie);
    expect(again.statusCode, again.body).toBe(200);
    await t.app.ctx.jobs.drain('outbox');
    const sent = smtp.accepted
      .filter((m) => m.to.includes(c.email))
      .map((m) => readMail(m.raw))
      .filter((m) => m.subject === 'Confirm your email address');
    expect(sent).toHaveLength(2);
    expect(sent[1]?.text).not.toBe(sent[0]?.text);
  });

  it('Email change confirmation goes to the new address with its one-time link; the old one is not told yet', async () => {
    const c = await insertCustomer(t.app);
    const moved = `pending-${c.customerId}@example.test`;
    const updated = await post(
      t.app,
      '/lapi/account/update/',
      {
        leads_id: c.leadsId,
        prospect: {
          first_name: 'Riley',
          last_name: 'Morgan',
          email: moved,
          phoneNo: '(503) 555-0142',
          dob: '04/12/1990',
        },
        current_password: c.password,
      },
      c.cookie,
    );
    expect(updated.statusCode, updated.body).toBe(200);
    const mail = await received(moved, 'Confirm your new email address');
    check('Email change confirmation', mail, {
      link: /^\/verify-email\?id=[\w-]{43}$/,
      oneTime: true,
      secrets: [...secretsOf(c), c.email],
    });
    expect(
      smtp.accepted.filter(
        (m) => m.to.includes(c.email) && readMail(m.raw).subject.includes('was changed'),
      ),
    ).toEqual([]);
  });

  it('New-device log-in link carries its one-time link', async () => {
    const c = await insertCustomer(t.app);
    for (let i = 0; i < 5; i++) await login(c.email, `guess ${i}!`);
    const asked = await t.app.inject({
      method: 'POST',
      url: '/lapi/account/login/unlock/',
      payload: { email: c.email },
      remoteAddress: randomLoopback(),
    });
    expect(asked.statusCode).toBe(200);
    const mail = await received(c.email, `Log in to ${site.name} on a new device`);
    check('New-device log-in link', mail, {
      link: /^\/login\/unlock\?id=[\w-]{43}$/,
      oneTime: true,
      secrets: secretsOf(c),
    });
  });

  it('the verification text message carries its code and no link or health data', async () => {
    const c = await insertCustomer(t.app, { phoneNo: '(503) 555-0177' });
    const sent = await post(t.app, '/lapi/account/smsauth/', { action: 'send' }, c.cookie);
    expect(sent.statusCode, sent.body).toBe(200);
    const sms = (await sentMessages(t)).find((m) => m.kind === 'sms' && m.to === '5035550177');
    expect(sms?.text).toMatch(
      new RegExp(`^Your ${site.name} verification code is \\d{6}\\. It expires in 10 minutes\\.$`),
    );
    for (const pattern of [...healthWords, ...cardData]) expect(sms?.text).not.toMatch(pattern);
  });

  it('Renewal reminder and Subscription cancelled link to Subscriptions; a refill is never named', async () => {
    // The patient's refill plan (the approval above) renews in two days; a supplement in three.
    await t.app.db
      .updateTable('subscriptions')
      .set({ next_billing_date: addDays(t.clock.now().toISOString().slice(0, 10), 2) })
      .where('customer_id', '=', patient.customerId)
      .execute();
    const supplement = await insertCustomer(t.app);
    await post(
      t.app,
      '/lapi/v2/ecom/add-product',
      { product_id: offers.sleep.monthly, quantity: 1 },
      supplement.cookie,
    );
    const placed = await post(
      t.app,
      '/lapi/v2/ecom/place-order',
      buildPlaceOrder(),
      supplement.cookie,
    );
    expect(placed.statusCode, placed.body).toBe(200);
    const renews = addDays(t.clock.now().toISOString().slice(0, 10), RENEWAL_REMINDER_DAYS);
    await t.app.db
      .updateTable('subscriptions')
      .set({ next_billing_date: renews, quantity: 2 })
      .where('customer_id', '=', supplement.customerId)
      .execute();
    await t.app.ctx.jobs.drain(RENEWAL_REMINDER_JOB);
    await t.app.ctx.jobs.drain(RENEWAL_REMINDER_JOB);
    const subscriptionsLink = { link: /^\/subscriptions$/ };

    const refill = await received(patient.email, /^Your Pairwell subscription renews on /);
    check('Renewal reminder', refill, { ...subscriptionsLink, secrets: secretsOf(patient) });
    expect(refill.text).toContain('for your refill to the card on file');
    const supplementMail = await received(
      supplement.email,
      `Your ${site.name} subscription renews on ${usDateFromIso(renews)}`,
    );
    check('Renewal reminder', supplementMail, {
      ...subscriptionsLink,
      secrets: secretsOf(supplement),
    });
    expect(supplementMail.text).toContain('$35.00 for Sleep Gummies (2 bottles a month)');
    expect(supplementMail.text).toContain('To skip this delivery');

    const { id } = await t.app.db
      .selectFrom('subscriptions')
      .select('id')
      .where('customer_id', '=', patient.customerId)
      .executeTakeFirstOrThrow();
    const cancelled = await post(
      t.app,
      '/lapi/subscription/update/',
      {
        leads_id: patient.leadsId,
        subscription_id: id,
        change: { action: 'cancel', reason: 'canary-cancel-reason' },
      },
      patient.cookie,
    );
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const cancel = await received(patient.email, `Your ${site.name} subscription is cancelled`);
    check('Subscription cancelled', cancel, { ...subscriptionsLink, secrets: secretsOf(patient) });
    expect(cancel.text).toContain('we have cancelled your refill plan');
    expect(cancel.text).toContain('We will not charge you for it again');
  });

  it("Renewal reminder of a couples' plan names both lines and its total, links to the partner page, and carries no address", async () => {
    const owner = await insertCustomer(t.app, { first_name: 'Planowner' });
    const partner = await insertCustomer(t.app, { first_name: 'Planpartner' });
    // A one-time order: the owner's card and address on file.
    await post(
      t.app,
      '/lapi/v2/ecom/add-product',
      { product_id: offers.sleep.oneTime, quantity: 1 },
      owner.cookie,
    );
    const placed = await post(t.app, '/lapi/v2/ecom/place-order', buildPlaceOrder(), owner.cookie);
    expect(placed.statusCode, placed.body).toBe(200);
    await post(t.app, '/lapi/partners/invite/', { email: partner.email }, owner.cookie);
    const waiting = await post(t.app, '/lapi/partners/', {}, partner.cookie);
    const invitationId = waiting.json<{ data: { received: { invitation_id: number }[] } }>().data
      .received[0]!.invitation_id;
    await post(
      t.app,
      '/lapi/partners/invite/accept/',
      { invitation_id: invitationId },
      partner.cookie,
    );
    const plan = await post(
      t.app,
      '/lapi/partners/plan/',
      {
        product_id: offers.sleep.monthly,
        quantity: 1,
        partner_product_id: offers.immunity.monthly,
        partner_quantity: 1,
      },
      owner.cookie,
    );
    expect(plan.statusCode, plan.body).toBe(200);
    const togetherId = plan.json<{ data: { item: { together_id: number } } }>().data.item
      .together_id;
    const accepted = await post(
      t.app,
      '/lapi/partners/together/accept/',
      { together_id: togetherId },
      partner.cookie,
    );
    expect(accepted.statusCode, accepted.body).toBe(200);
    const renews = addDays(t.clock.now().toISOString().slice(0, 10), RENEWAL_REMINDER_DAYS);
    await t.app.db
      .updateTable('subscriptions')
      .set({ next_billing_date: renews })
      .where('customer_id', '=', owner.customerId)
      .where('plan_partner_id', '=', partner.customerId)
      .execute();
    await t.app.ctx.jobs.drain(RENEWAL_REMINDER_JOB);
    const mail = await received(
      owner.email,
      `Your ${site.name} subscription renews on ${usDateFromIso(renews)}`,
    );
    check('Renewal reminder', mail, { link: /^\/accounts\/partner$/, secrets: secretsOf(owner) });
    expect(mail.text).toContain(
      "$31.50 for your couples' plan, Sleep Gummies (1 bottle a month) and Immunity Gummies (1 bottle a month)",
    );
    expect(mail.text).not.toContain('500 Market Street');
  });

  it('Payment receipt links to the order, says what was paid and names no card or address', async () => {
    const today = t.clock.now().toISOString().slice(0, 10);
    const subscriber = await insertSubscriber(t.app.db, {
      nextBillingDate: today,
      now: t.clock.now().toISOString(),
    });
    await runBilling(t.app.ctx);
    const order = await t.app.db
      .selectFrom('orders')
      .innerJoin('customers', 'customers.id', 'orders.customer_id')
      .select(['orders.order_number', 'customers.email'])
      .where('orders.customer_id', '=', subscriber.customerId)
      .executeTakeFirstOrThrow();
    const mail = await received(
      order.email,
      `Your ${site.name} receipt for order ${order.order_number}`,
    );
    check('Payment receipt', mail, {
      link: new RegExp(`^/orders#${escapeRegExp(order.order_number)}$`),
      secrets: ['1 Test Way', subscriber.leadsId],
    });
    expect(mail.text).toContain(
      `We charged $17.50 to your card on file on ${usDateFromIso(today)} for order ${order.order_number}: your subscription renewal of Sleep Gummies (1 bottle a month).`,
    );
  });

  it('Payment failed and Subscription paused link to the card page', async () => {
    const today = t.clock.now().toISOString().slice(0, 10);
    const subscriber = await insertSubscriber(t.app.db, {
      nextBillingDate: today,
      token: 'sim_fail_emails',
      now: t.clock.now().toISOString(),
    });
    const { email } = await t.app.db
      .selectFrom('customers')
      .select('email')
      .where('id', '=', subscriber.customerId)
      .executeTakeFirstOrThrow();
    const paused = `Your ${site.name} subscription is paused`;
    const retrying = async () =>
      (
        await t.app.db
          .selectFrom('orders')
          .select('next_retry_at')
          .where('customer_id', '=', subscriber.customerId)
          .executeTakeFirst()
      )?.next_retry_at !== null;
    // A day at a time, as the billing job runs, until the renewal failed and its last retry too.
    for (let day = 0; day < 12 && (day < 2 || (await retrying())); day++) {
      t.clock.advance(DAY);
      await runBilling(t.app.ctx);
    }
    const card = { link: /^\/accounts\/editPaymentMethod$/ };
    const failed = await received(email, `We couldn't process your ${site.name} payment`);
    check('Payment failed', failed, card);
    expect(failed.html).toContain('reply to this email');
    check('Subscription paused', await received(email, paused), card);
  });

  it('State opened links to Home, names no program, and is sent once', async () => {
    // Washington loses its only provider for a moment: it is offered, but nobody can see patients.
    const c = await insertCustomer(t.app);
    await setLicensedStates(t.app, provider.email, ['CA', 'FL', 'NY', 'OR', 'TX']);
    try {
      const started = await post(
        t.app,
        '/lapi/leads/startprogram',
        { leads_id: c.leadsId, new_category: 'ed' },
        c.cookie,
      );
      const visitId = started.json<{ data: { visit_id: number } }>().data.visit_id;
      const outcome = await post(
        t.app,
        '/lapi/visit/eligibility/',
        { visit_id: visitId, state: 'WA', dob: '04/12/1985' },
        c.cookie,
      );
      expect(outcome.json()).toMatchObject({ data: { eligible: false } });
      const join = await post(t.app, '/lapi/visit/waitlist/', { visit_id: visitId }, c.cookie);
      expect(join.statusCode, join.body).toBe(200);
      // A visitor leaves an address for Washington too, with no account (issue 29).
      const visitor = await post(t.app, '/lapi/visit/waitlist/visitor/', {
        state: 'WA',
        email: `visitor-${c.customerId}@example.test`,
      });
      expect(visitor.statusCode, visitor.body).toBe(200);
    } finally {
      await setLicensedStates(t.app, provider.email, provider.licensedStates);
    }
    // Covered again: the waitlist job tells the patient, once, however often it runs.
    await t.app.ctx.jobs.drain('state-waitlist');
    await t.app.ctx.jobs.drain('state-waitlist');
    const mail = await received(c.email, 'Online visits are now open in Washington');
    check('State opened', mail, { link: /^\/dashboard$/, secrets: secretsOf(c) });
    expect(mail.text).toContain('Washington');
    // The visitor has no account: the home page, greeted by no name.
    const toVisitor = await received(
      `visitor-${c.customerId}@example.test`,
      'Online visits are now open in Washington',
    );
    expectSafeEmail(toVisitor, { link: /^\/$/ });
    expect(toVisitor.text).toMatch(/^Hello,$/m);
  });

  it('Partner invitation names the inviter by first name only and carries its one-time link', async () => {
    const inviter = await insertCustomer(t.app, { first_name: 'Robin', last_name: 'Inviterlast' });
    const member = await insertCustomer(t.app);
    const newcomer = `newcomer-${inviter.customerId}@example.test`;
    const subject = `Robin invited you to link accounts on ${site.name}`;
    const invite = async (email: string) => {
      const sent = await post(t.app, '/lapi/partners/invite/', { email }, inviter.cookie);
      expect(sent.statusCode, sent.body).toBe(200);
      // Read before the next: a new invitation replaces one whose email has not gone yet.
      return received(email, subject);
    };
    // Someone with an account goes to their partner page; anyone else to sign-up, which keeps it.
    const toMember = await invite(member.email);
    const toNewcomer = await invite(newcomer);
    const secrets = [...secretsOf(inviter), inviter.email, 'Inviterlast'];
    check('Partner invitation', toMember, {
      link: /^\/accounts\/partner\?invite=[\w-]{43}$/,
      oneTime: true,
      secrets,
    });
    check('Partner invitation', toNewcomer, {
      link: /^\/signup\?partnerInvite=[\w-]{43}$/,
      oneTime: true,
      secrets,
    });
  });

  it('Partner link ended says only that, and only when the one unlinking chose to tell', async () => {
    const a = await insertCustomer(t.app, { first_name: 'Sasha' });
    const b = await insertCustomer(t.app, { first_name: 'Toni' });
    const invited = await post(t.app, '/lapi/partners/invite/', { email: b.email }, a.cookie);
    expect(invited.statusCode, invited.body).toBe(200);
    const overview = await post(t.app, '/lapi/partners/', {}, b.cookie);
    const id = overview.json<{ data: { received: { invitation_id: number }[] } }>().data.received[0]
      ?.invitation_id;
    const accepted = await post(
      t.app,
      '/lapi/partners/invite/accept/',
      { invitation_id: id },
      b.cookie,
    );
    expect(accepted.statusCode, accepted.body).toBe(200);
    const unlinked = await post(t.app, '/lapi/partners/unlink/', { notify: true }, a.cookie);
    expect(unlinked.statusCode, unlinked.body).toBe(200);
    const mail = await received(b.email, `Your partner link on ${site.name} has ended`);
    check('Partner link ended', mail, {
      link: /^\/accounts\/partner$/,
      secrets: [...secretsOf(a), ...secretsOf(b), a.email],
    });
  });

  it('Staff new-device link carries its one-time link', async () => {
    // Last: it pauses the operations account's log-ins from new devices.
    for (let i = 0; i < 6; i++)
      await t.app.inject({
        method: 'POST',
        url: '/lapi/staff/login/',
        payload: { email: ops.email, password: `guess ${i}!`, code: '123456' },
        remoteAddress: randomLoopback(),
      });
    const asked = await post(t.app, '/lapi/staff/login/unlock/', { email: ops.email });
    expect(asked.statusCode).toBe(200);
    const mail = await received(ops.email, `Log in to ${site.name} Staff on a new device`);
    check('Staff new-device link', mail, {
      link: /^\/staff\/login\/unlock\?id=[\w-]{43}$/,
      oneTime: true,
      secrets: [ops.password, ops.totpSecret],
    });
  });

  it('docs/emails.md lists exactly the emails checked here', () => {
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/emails.md'), 'utf8');
    const section = doc.split('## Emails')[1]?.split('## ')[0] ?? '';
    const names = [...section.matchAll(/^\| ([^|]+?) +\|/gm)]
      .map((m) => m[1] ?? '')
      .filter((name) => name !== 'Name' && !name.startsWith('---'));
    expect(names.sort()).toEqual([...checked].sort());
  });
});
