import type { Kysely } from 'kysely';
import { reusable } from '#server/db/reusable.ts';
import type { Database } from '#server/db/schema.ts';
import type { Clock } from '#server/lib/clock.ts';

/**
 * How often an instance reads the catalogue's version (migration 0029) while it serves what it
 * keeps of the catalogue: a change shows on every instance within about this long.
 */
export const CATALOG_CHECK_MS = 1000;

/**
 * The catalogue's version as this instance last read it. What is kept of the catalogue (its
 * answers, the drawn pages: body-cache.ts) is kept under the version it was made at, so a new
 * version is a new key and what was made before it is never sent again (issue 14: "cached
 * catalogue and drawn-page bodies that a catalogue change invalidates").
 *
 * `current()` answers at once with the version last read, and when that read is a second old
 * starts the next one in the background (one at a time): a warm request runs no statement and
 * never waits on the database, and a version read while the database is unreachable simply fails
 * until it is back, the kept answers still served meanwhile (decision 013). Only the very first
 * call waits for its read.
 */
export interface CatalogVersion {
  current(): number | Promise<number>;
}

const versionQuery = reusable((db: Kysely<Database>, id: number) =>
  db.selectFrom('catalog_version').select('version').where('id', '=', id),
);

export function createCatalogVersion(
  db: Kysely<Database>,
  clock: Clock,
  onError: (error: unknown) => void,
): CatalogVersion {
  let known: number | undefined;
  let readAt = -Infinity;
  let reading: Promise<number> | undefined;
  const read = () => {
    readAt = clock.now().getTime();
    reading ??= versionQuery(db, 1)
      .then(([row]) => (known = row?.version ?? 0))
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };
  return {
    current() {
      if (known === undefined) return reading ?? read();
      if (clock.now().getTime() - readAt >= CATALOG_CHECK_MS)
        read().catch((error: unknown) => onError(error));
      return known;
    },
  };
}
