import { sql, type Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';

type Db = Kysely<Database>;

export interface CouponRow {
  code: string;
  description: string;
  kind: 'percent' | 'fixed';
  value: number;
  minSubtotalCents: number | null;
  expiresAt: string | null;
  usageLimit: number | null;
  usedCount: number;
  firstOrderOnly: boolean;
  active: boolean;
}

export async function selectCoupon(db: Db, code: string): Promise<CouponRow | undefined> {
  const row = await db
    .selectFrom('coupons')
    .select([
      'code',
      'description',
      'kind',
      'value',
      'min_subtotal_cents',
      'expires_at',
      'usage_limit',
      'used_count',
      'first_order_only',
      'active',
    ])
    .where('code', '=', code)
    .executeTakeFirst();
  return (
    row && {
      code: row.code,
      description: row.description,
      kind: row.kind,
      value: row.value,
      minSubtotalCents: row.min_subtotal_cents,
      expiresAt: row.expires_at,
      usageLimit: row.usage_limit,
      usedCount: row.used_count,
      firstOrderOnly: row.first_order_only === 1,
      active: row.active === 1,
    }
  );
}

/** Counts one use, only while the limit allows: false when the last use was taken meanwhile. */
export async function claimCouponUse(db: Db, code: string): Promise<boolean> {
  const result = await db
    .updateTable('coupons')
    .set({ used_count: sql`used_count + 1` })
    .where('code', '=', code)
    .where((eb) =>
      eb.or([eb('usage_limit', 'is', null), eb('used_count', '<', eb.ref('usage_limit'))]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function releaseCouponUse(db: Db, code: string): Promise<void> {
  await db
    .updateTable('coupons')
    .set({ used_count: sql`used_count - 1` })
    .where('code', '=', code)
    .where('used_count', '>', 0)
    .execute();
}

export async function insertCoupons(
  db: Db,
  coupons: Omit<CouponRow, 'usedCount'>[],
): Promise<void> {
  for (const c of coupons) {
    await db
      .insertInto('coupons')
      .values({
        code: c.code,
        description: c.description,
        kind: c.kind,
        value: c.value,
        min_subtotal_cents: c.minSubtotalCents,
        expires_at: c.expiresAt,
        usage_limit: c.usageLimit,
        first_order_only: c.firstOrderOnly ? 1 : 0,
        active: c.active ? 1 : 0,
      })
      .onConflict((oc) => oc.column('code').doNothing())
      .execute();
  }
}
