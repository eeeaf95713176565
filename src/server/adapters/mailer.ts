import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { makePrivateDir, writePrivateFile } from '#server/lib/private-files.ts';
import { site } from '#shared/site.ts';

export interface MailMessage {
  /** The RFC 5322 Message-ID given when the message was queued: every retry carries the same one. */
  messageId: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends email. Bodies carry no health data, card data or passwords (DESIGN §7). */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export interface OutboxEntry {
  id: string;
  kind: 'email' | 'sms';
  /** An email's Message-ID: a retried message shows the same one again. */
  messageId?: string;
  to: string;
  subject: string;
  text: string;
  sentAt: string;
}

/** Where development email and SMS are written: one .eml (RFC 5322) or .txt each, plus a .json index. */
export function outboxDir(dataDir: string): string {
  return path.resolve(dataDir, 'outbox');
}

export function writeOutboxEntry(
  dataDir: string,
  entry: Omit<OutboxEntry, 'id'>,
  raw: Buffer | string,
  ext: string,
): OutboxEntry {
  const dir = outboxDir(dataDir);
  makePrivateDir(dir);
  const id = `${entry.sentAt.replace(/[:.]/g, '-')}-${entry.kind}-${crypto.randomBytes(4).toString('hex')}`;
  writePrivateFile(path.join(dir, `${id}.${ext}`), raw);
  const full = { id, ...entry };
  writePrivateFile(path.join(dir, `${id}.json`), JSON.stringify(full, null, 2));
  return full;
}

export function readOutbox(dataDir: string): OutboxEntry[] {
  const dir = outboxDir(dataDir);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as OutboxEntry)
    .sort((a, b) => b.sentAt.localeCompare(a.sentAt) || b.id.localeCompare(a.id));
}

/**
 * SMTP when SMTP_URL is set; otherwise the outbox folder, so a person trying Pairwell locally can
 * open a reset link at /dev/outbox.
 */
export function createMailer(options: {
  smtpUrl?: string | undefined;
  from: string;
  dataDir: string;
  now: () => Date;
}): Mailer {
  // From stays the no-reply sender; every reply goes to support, so "reply to this email" reaches
  // a person. Set here, once, for every email whichever transport sends it.
  const sender = { from: options.from, replyTo: site.supportEmail };
  if (options.smtpUrl) {
    // Bounded waits: the outbox job holds a claim on its batch for a limited time (its lease), and
    // nodemailer's defaults (two minutes to connect, ten of silence) would outlast it.
    const transport = nodemailer.createTransport({
      url: options.smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    return {
      async send(message) {
        await transport.sendMail({ ...sender, ...message });
      },
    };
  }
  const composer = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  return {
    async send(message) {
      const info = await composer.sendMail({ ...sender, ...message });
      writeOutboxEntry(
        options.dataDir,
        {
          kind: 'email',
          messageId: message.messageId,
          to: message.to,
          subject: message.subject,
          text: message.text,
          sentAt: options.now().toISOString(),
        },
        info.message as Buffer,
        'eml',
      );
    },
  };
}
