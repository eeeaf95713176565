import crypto from 'node:crypto';
import type { MigrationDb } from './helpers.ts';

/**
 * Photo IDs get an opaque public id: 16 random bytes, base64url. URLs and API answers name this,
 * never the sequential primary key, so one id says nothing about any other upload.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('uploads').addColumn('public_id', 'text').execute();
  const rows = (await db.selectFrom('uploads').select('id').execute()) as { id: number }[];
  for (const row of rows) {
    await db
      .updateTable('uploads')
      .set({ public_id: crypto.randomBytes(16).toString('base64url') })
      .where('id', '=', row.id)
      .execute();
  }
  await db.schema
    .createIndex('uploads_public_id')
    .on('uploads')
    .column('public_id')
    .unique()
    .execute();
}
