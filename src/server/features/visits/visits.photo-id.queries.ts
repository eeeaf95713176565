import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database, UploadsTable } from '#server/db/schema.ts';

type Db = Kysely<Database>;

export type UploadKind = UploadsTable['kind'];
export type UploadView = NonNullable<UploadsTable['view']>;

export async function insertUpload(
  db: Db,
  upload: {
    customerId: number;
    visitId: number | null;
    kind: UploadKind;
    /** The part of the scalp a scalp photo shows; null for a photo ID. */
    view: UploadView | null;
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
      kind: upload.kind,
      view: upload.view,
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
  kind: UploadKind;
  mimeType: string;
  storedName: string;
  /**
   * The visit it was uploaded for, when it is that visit's current photo: its photo ID now
   * (`visits.photo_upload_id`), or the newest scalp photo of its view. A replaced photo has none.
   */
  visit: { status: string; state: string | null } | null;
}

/**
 * A newer upload of the same visit and view: the scalp photo `u` was replaced. (A photo ID has no
 * view, and null equals nothing, so this never holds for one.)
 */
function replaced(eb: ExpressionBuilder<Database & { u: UploadsTable }, 'u'>) {
  return eb.exists(
    eb
      .selectFrom('uploads as newer')
      .select('newer.id')
      .whereRef('newer.visit_id', '=', 'u.visit_id')
      .whereRef('newer.view', '=', 'u.view')
      .whereRef('newer.id', '>', 'u.id'),
  );
}

/** An upload by its public id, with the visit it is the current photo of (see `UploadRow`). */
export async function selectUploadByPublicId(
  db: Db,
  publicId: string,
): Promise<UploadRow | undefined> {
  const row = await db
    .selectFrom('uploads as u')
    .leftJoin('visits as v', (join) =>
      join
        .onRef('v.id', '=', 'u.visit_id')
        .on((eb) =>
          eb.or([
            eb.and([eb('u.kind', '=', 'photo_id'), eb('v.photo_upload_id', '=', eb.ref('u.id'))]),
            eb.and([eb('u.kind', '=', 'scalp_photo'), eb.not(replaced(eb))]),
          ]),
        ),
    )
    .select([
      'u.id',
      'u.customer_id',
      'u.kind',
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
      kind: row.kind,
      mimeType: row.mime_type,
      storedName: row.stored_name,
      visit: row.visit_id === null ? null : { status: row.status ?? '', state: row.state },
    }
  );
}

/** A visit's current scalp photos: the newest upload of each view, by its public id. */
export async function selectCurrentScalpPhotos(
  db: Db,
  visitId: number,
): Promise<{ view: UploadView; publicId: string }[]> {
  const rows = await db
    .selectFrom('uploads as u')
    .select(['u.view', 'u.public_id'])
    .where('u.visit_id', '=', visitId)
    .where('u.kind', '=', 'scalp_photo')
    .where('u.view', 'is not', null)
    .where((eb) => eb.not(replaced(eb)))
    .execute();
  return rows.flatMap((row) =>
    row.view && row.public_id ? [{ view: row.view, publicId: row.public_id }] : [],
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
