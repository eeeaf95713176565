import type { Kysely } from 'kysely';
import type { AppContext } from '#server/context.ts';
import { reusable } from '#server/db/reusable.ts';
import type { Database } from '#server/db/schema.ts';
import { createBodyCache, type BodyCache } from './body-cache.ts';

/**
 * A customer's own answers (orders details), kept as bytes while the customer's data is unchanged
 * (issue 14, decision 017). The database raises a version of each customer's data whenever a row
 * such an answer reads changes, whoever writes it (migration 0028's triggers), and the key of a kept
 * answer holds the version read before the answer was: a request reads the version (one statement)
 * and sends what is kept under the key it makes, or reads the rest and keeps it. A write that
 * commits after the version was read makes the next key different, so nothing older than the last
 * commit is sent, on any instance. The key names the customer, so no one is sent another's answer.
 */

/**
 * How many answers an instance keeps, and how many bytes of them (the least recently used goes
 * first): orders details' first page is a few KB, a page of 50 orders up to 100 KB.
 */
export const OWN_ANSWERS_KEPT = 2_000;
export const OWN_ANSWERS_BYTES = 8 * 1024 * 1024;
/** An answer no one asked for in this long goes, whatever its version. */
export const OWN_ANSWER_TTL_MS = 10 * 60_000;
/**
 * Brotli's quality for a kept own answer: orders details' 3.4 KB in about 55 µs (954 bytes), where
 * quality 11 takes about 30 times as long for 825.
 */
const OWN_ANSWER_BROTLI_QUALITY = 5;

export function createOwnAnswers(): BodyCache {
  return createBodyCache({
    max: OWN_ANSWERS_KEPT,
    maxBytes: OWN_ANSWERS_BYTES,
    ttlMs: OWN_ANSWER_TTL_MS,
    brotliQuality: OWN_ANSWER_BROTLI_QUALITY,
  });
}

const versionQuery = reusable((db: Kysely<Database>, customerId: number) =>
  db.selectFrom('customer_versions').select('version').where('customer_id', '=', customerId),
);

/** The version of the customer's data: 0 until a row of theirs was first written. */
export async function customerVersion(db: Kysely<Database>, customerId: number): Promise<number> {
  const [row] = await versionQuery(db, customerId);
  return row?.version ?? 0;
}

/**
 * The key of a customer's kept answer: the customer, the version of their data, the day in UTC
 * (an answer's card flags change with it) and what the call asked for.
 */
export async function ownAnswerKey(
  ctx: AppContext,
  customerId: number,
  asked: readonly unknown[],
): Promise<string> {
  const version = await customerVersion(ctx.db, customerId);
  const day = ctx.clock.now().toISOString().slice(0, 10);
  return JSON.stringify([customerId, version, day, ...asked]);
}
