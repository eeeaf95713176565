import { writeOutboxEntry } from './mailer.ts';

/** Sends a text message. No SMS provider is configured by default: messages go to the outbox. */
export interface SmsSender {
  send(to: string, body: string): Promise<void>;
}

export function createSmsSender(options: { dataDir: string; now: () => Date }): SmsSender {
  return {
    async send(to, body) {
      const sentAt = options.now().toISOString();
      writeOutboxEntry(
        options.dataDir,
        { kind: 'sms', to, subject: 'Text message', text: body, sentAt },
        `To: ${to}\nDate: ${sentAt}\n\n${body}\n`,
        'txt',
      );
    },
  };
}
