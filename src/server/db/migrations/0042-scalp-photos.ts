import { sql } from 'kysely';
import type { MigrationDb } from './helpers.ts';

/**
 * Issue 29, photos in the hair renewal (decisions 005 and 023): a second kind of upload, the
 * scalp photos a patient adds to a Hair renewal for the provider to see how treatment is working.
 * Stored, stripped and named exactly as photo IDs are; only who may see them differs.
 *
 * - `uploads.view`: the part of the scalp a `scalp_photo` shows (`top`, `front` or `crown`); null
 *   for a photo ID. A new photo of a view does not overwrite the old one: the newest upload of a
 *   visit and view is its current photo, and a replaced one stays the patient's alone.
 * - `uploads_visit_view_idx`: a visit's scalp photos by view, in upload order, so the current
 *   photo of each view (the chart, the send page, the check before sending, and whether a
 *   provider may open one) is read from one range of an index. Partial: photo IDs have no view.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('uploads').addColumn('view', 'text').execute();
  await db.schema
    .createIndex('uploads_visit_view_idx')
    .on('uploads')
    .columns(['visit_id', 'view', 'id'])
    .where(sql.ref('view'), 'is not', null)
    .execute();
}
