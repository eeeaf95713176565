import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';

type Db = Kysely<Database>;

export async function insertUpload(
  db: Db,
  upload: {
    customerId: number;
    visitId: number | null;
    mimeType: string;
    sizeBytes: number;
    storedName: string;
    now: string;
  },
): Promise<number> {
  const row = await db
    .insertInto('uploads')
    .values({
      customer_id: upload.customerId,
      visit_id: upload.visitId,
      kind: 'photo_id',
      mime_type: upload.mimeType,
      size_bytes: upload.sizeBytes,
      stored_name: upload.storedName,
      created_at: upload.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function selectUpload(db: Db, id: number) {
  const row = await db
    .selectFrom('uploads')
    .select(['id', 'customer_id', 'visit_id', 'mime_type', 'stored_name'])
    .where('id', '=', id)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      customerId: row.customer_id,
      visitId: row.visit_id,
      mimeType: row.mime_type,
      storedName: row.stored_name,
    }
  );
}
