import { readOutbox, type OutboxEntry } from '#server/adapters/mailer.ts';
import { site } from '#shared/site.ts';
import type { TestApp } from './app.ts';

/**
 * Everything the app has sent, once its outbox job has sent all that was due: what a person would
 * find at /dev/outbox after the worker's next run. Tests read mail through this, never the folder
 * alone, so a message queued a moment ago is there deterministically.
 */
export async function sentMessages(t: Pick<TestApp, 'app' | 'dataDir'>): Promise<OutboxEntry[]> {
  await t.app.ctx.jobs.drain('outbox');
  return readOutbox(t.dataDir);
}

/**
 * Every sign-up is welcomed by email, and asked to confirm its address (issue 26); a test about
 * another email to the same person looks past those two.
 */
export function notWelcome(message: { subject: string }): boolean {
  return (
    message.subject !== `Welcome to ${site.name}` &&
    message.subject !== 'Confirm your email address'
  );
}
