import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  messageId: string;
  to: string[];
  raw: string;
}

/**
 * A real SMTP server on a loopback port, for tests of the outbox: it can be stopped and started
 * again on the same port (an outage), refuse recipients with a permanent 550, and answer a chosen
 * message's first DATA with a temporary 451. It records every message it accepted and the
 * Message-ID of every DATA it saw, accepted or not.
 */
export class TestSmtpServer {
  readonly accepted: ReceivedMail[] = [];
  /** The Message-ID of every DATA received, in order, including refused ones. */
  readonly seen: string[] = [];
  /** Recipients refused at RCPT TO with 550 (the reply quotes the address, as real servers do). */
  readonly refuse = new Set<string>();
  /** Refuse the first DATA of every message with a 451, accept later ones. */
  deferFirstAttempt = false;
  private server: SMTPServer | null = null;
  private portNumber = 0;

  get port(): number {
    return this.portNumber;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.portNumber}`;
  }

  /** How many times a message with this Message-ID was accepted. */
  deliveries(messageId: string): number {
    return this.accepted.filter((m) => m.messageId === messageId).length;
  }

  /** Listens on the port it had before (or a free one the first time). */
  async start(): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      // Loopback only: a reverse DNS lookup per connection would only slow the tests down.
      disableReverseLookup: true,
      onRcptTo: (address, _session, callback) => {
        if (!this.refuse.has(address.address)) return callback();
        const error = new Error(`5.1.1 <${address.address}>: Recipient address rejected`);
        callback(Object.assign(error, { responseCode: 550 }));
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const messageId = /^Message-ID:\s*(<[^>\r\n]+>)/im.exec(raw)?.[1] ?? '';
          const firstTime = !this.seen.includes(messageId);
          this.seen.push(messageId);
          if (this.deferFirstAttempt && firstTime) {
            callback(Object.assign(new Error('4.3.0 Try again later'), { responseCode: 451 }));
            return;
          }
          this.accepted.push({
            messageId,
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(this.portNumber, '127.0.0.1', () => resolve());
    });
    this.portNumber = (server.server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
