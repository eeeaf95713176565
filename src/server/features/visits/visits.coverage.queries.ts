import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';

type Db = Kysely<Database>;

/** The states each active provider is licensed in, one list a provider. */
export async function selectProviderLicences(db: Db): Promise<string[][]> {
  const providers = await db
    .selectFrom('staff_users')
    .select('licensed_states')
    .where('role', '=', 'provider')
    .where('active', '=', 1)
    .execute();
  return providers.map((p) => p.licensed_states.split(',').filter(Boolean));
}
