import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';

type Db = Kysely<Database>;

export async function insertUpload(
  db: Db,
  upload: {
    customerId: number;
    visitId: number | null;
    publicId: string;
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
      public_id: upload.publicId,
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

export interface UploadRow {
  id: number;
  customerId: number;
  mimeType: string;
  storedName: string;
  /** The visit that has this upload as its photo ID now (a replaced photo has none). */
  visit: { status: string; state: string | null } | null;
}

/** An upload by its public id, with the visit it is the current photo ID of. */
export async function selectUploadByPublicId(
  db: Db,
  publicId: string,
): Promise<UploadRow | undefined> {
  const row = await db
    .selectFrom('uploads as u')
    .leftJoin('visits as v', (join) =>
      join.onRef('v.id', '=', 'u.visit_id').onRef('v.photo_upload_id', '=', 'u.id'),
    )
    .select([
      'u.id',
      'u.customer_id',
      'u.mime_type',
      'u.stored_name',
      'v.id as visit_id',
      'v.status',
      'v.state',
    ])
    .where('u.public_id', '=', publicId)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      customerId: row.customer_id,
      mimeType: row.mime_type,
      storedName: row.stored_name,
      visit: row.visit_id === null ? null : { status: row.status ?? '', state: row.state },
    }
  );
}

export async function selectPublicId(db: Db, id: number): Promise<string | null> {
  const row = await db
    .selectFrom('uploads')
    .select('public_id')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.public_id ?? null;
}
