import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';

export async function insertClick(
  db: Kysely<Database>,
  click: {
    id: string;
    params: string;
    url: string;
    referrer: string | null;
    userAgent: string;
    deviceType: string;
    ipAddress: string;
    now: string;
  },
): Promise<void> {
  await db
    .insertInto('clicks')
    .values({
      id: click.id,
      params: click.params,
      url: click.url,
      referrer: click.referrer,
      user_agent: click.userAgent,
      device_type: click.deviceType,
      ip_address: click.ipAddress,
      created_at: click.now,
    })
    .execute();
}

export async function clickExists(db: Kysely<Database>, id: string): Promise<boolean> {
  const row = await db.selectFrom('clicks').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}
