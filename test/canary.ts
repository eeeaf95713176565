import fs from 'node:fs';
import path from 'node:path';
import { outboxDir } from '#server/adapters/mailer.ts';
import type { TestApp } from './app.ts';
import { everythingStored } from './database.ts';

/**
 * Canary scans (DESIGN §7): drive the app with distinctive secrets, then look for them everywhere
 * the app writes. A finding names the secret and the place, so a failure says what leaked where.
 */

export interface Place {
  name: string;
  text: string;
}

/** Where the app writes: its database (every row; on SQLite the files too), its log, its outbox. */
export async function placesTheAppWrites(t: TestApp): Promise<Place[]> {
  // Whatever is still queued is sent first, so its email is searched too.
  await t.app.ctx.jobs.drain('outbox');
  const dir = outboxDir(t.dataDir);
  const outbox = fs.existsSync(dir)
    ? fs.readdirSync(dir).map((file) => ({
        name: `outbox/${file}`,
        text: fs.readFileSync(path.join(dir, file)).toString('utf8'),
      }))
    : [];
  return [
    { name: 'database', text: await everythingStored(t) },
    { name: 'logs', text: t.logs() },
    ...outbox,
  ];
}

/**
 * `name in place: …where…` for every secret found in every place (the first place it shows in
 * each); empty when nothing leaked.
 */
export function secretsIn(places: Place[], secrets: Record<string, string | RegExp>): string[] {
  const found: string[] = [];
  for (const [name, secret] of Object.entries(secrets)) {
    if (secret === '') throw new Error(`the canary ${name} is empty`);
    for (const place of places) {
      const at =
        typeof secret === 'string' ? place.text.indexOf(secret) : place.text.search(secret);
      if (at >= 0)
        found.push(
          `${name} in ${place.name}: …${place.text.slice(Math.max(0, at - 60), at + 40)}…`,
        );
    }
  }
  return found;
}

/** The value of a session cookie in a response's `name=value` form. */
export function cookieValue(cookie: string): string {
  const value = cookie.split('=')[1];
  if (!value) throw new Error(`no value in ${cookie}`);
  return value;
}
