import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '#server/db/client.ts';
import { migrations } from './index.ts';

/**
 * Migration 0020 on a database that already has conversations: a visit's stays its provider's
 * (clinical), one about an order is about the order, every other one stays the care team's. None
 * is assigned to a provider. SQLite only: the data steps are the same on both databases, and every
 * suite on PostgreSQL runs the whole migration on an empty schema.
 */
describe('migration 0020: message topics', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pairwell-m0020-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('gives existing threads the topic of who answered them', async () => {
    const handle = openDatabase({ dataDir: dir });
    try {
      const migrator = new Migrator({
        db: handle.db,
        provider: { getMigrations: () => Promise.resolve(migrations) },
      });
      const before = Object.keys(migrations).filter((name) => name < '0020');
      expect((await migrator.migrateTo(before.at(-1)!)).error).toBeUndefined();
      const now = '2026-01-01T00:00:00.000Z';
      const db = handle.db;
      const customer = await db
        .insertInto('customers')
        .values({
          leads_id: 'Lm0020',
          email: 'm0020@example.test',
          first_name: 'Mia',
          last_name: 'Grant',
          password_hash: 'x',
          dob: '1985-05-05',
          phone: '5035550142',
          created_at: now,
          updated_at: now,
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      const visit = await db
        .insertInto('visits')
        .values({
          customer_id: customer.id,
          category: 'ed',
          status: 'PENDING_REVIEW',
          step: 'checkout',
          questionnaire_id: 'ed-intake',
          questionnaire_version: '1',
          created_at: now,
          updated_at: now,
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      const order = await db
        .insertInto('orders')
        .values({
          order_number: 'PW-M0020',
          customer_id: customer.id,
          kind: 'store',
          status: 'PROCESSING',
          payment_status: 'PAID',
          subtotal_cents: 100,
          discount_cents: 0,
          total_cents: 100,
          ship_address: '5 Oak St',
          ship_address2: '',
          ship_city: 'Portland',
          ship_state: 'OR',
          ship_zip: '97201',
          ship_country: 'US',
          created_at: now,
          updated_at: now,
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      const thread = (values: Record<string, unknown>) =>
        db
          .insertInto('message_threads')
          .values({
            customer_id: customer.id,
            created_at: now,
            updated_at: now,
            ...values,
          } as never)
          .returning('id')
          .executeTakeFirstOrThrow();
      const aboutVisit = await thread({ visit_id: visit.id, subject: 'Your online visit' });
      const aboutOrder = await thread({ order_id: order.id, subject: 'Order PW-M0020' });
      const other = await thread({ subject: 'Changing my address' });

      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const rows = await db
        .selectFrom('message_threads')
        .select(['id', 'topic', 'provider_id'])
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        { id: aboutVisit.id, topic: 'treatment', provider_id: null },
        { id: aboutOrder.id, topic: 'order', provider_id: null },
        { id: other.id, topic: 'other', provider_id: null },
      ]);
    } finally {
      await handle.close();
    }
  });
});
