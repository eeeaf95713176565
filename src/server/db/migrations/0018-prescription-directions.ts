import type { MigrationDb } from './helpers.ts';

/**
 * A prescription carries the provider's directions (the sig: how to take it), which the patient
 * reads on the visit's order and on Home. Prescriptions written before this have none (null).
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('prescriptions').addColumn('directions', 'text').execute();
}
