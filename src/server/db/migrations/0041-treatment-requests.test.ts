import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { testDialect } from '#test/app.ts';
import { migrationDatabase } from '#test/migration-db.ts';

/**
 * Migration 0041 on a database that already has a prescription on a refill plan (SQLite rebuilds
 * the table): the prescription, the plan's key to it and the pharmacy's are kept, the keys still
 * hold, the kept-answer triggers still raise the customer's version, and a visit still has one
 * prescription of its own while a request may add more.
 */
describe(`migration 0041: treatment requests (${testDialect})`, () => {
  const database = migrationDatabase('m0041');

  it('keeps the prescriptions, their keys and triggers; a visit keeps one of its own', async () => {
    const handle = await database.open();
    try {
      const { db } = handle;
      const migrator = database.migratorFor(handle);
      expect((await migrator.migrateTo(database.before('0041'))).error).toBeUndefined();
      const now = '2026-01-01T00:00:00.000Z';
      const customer = await sql<{ id: number }>`
        insert into customers (leads_id, email, first_name, last_name, password_hash, dob, phone,
          created_at, updated_at)
        values ('Lm0041', 'm0041@example.test', 'Jo', 'Banks', 'x', '1985-05-05', '5035550142',
          ${now}, ${now}) returning id`.execute(db);
      const customerId = customer.rows[0]!.id;
      const staff = await sql<{ id: number }>`
        insert into staff_users (email, name, role, password_hash, totp_secret, created_at)
        values ('m0041@pairwell.test', 'Dr. M', 'provider', 'x', 'x', ${now}) returning id`.execute(
        db,
      );
      const staffId = staff.rows[0]!.id;
      const visit = await sql<{ id: number }>`
        insert into visits (customer_id, category, status, step, questionnaire_id,
          questionnaire_version, created_at, updated_at)
        values (${customerId}, 'ed', 'APPROVED', 'submitted', 'ed-intake', '1.0.0', ${now}, ${now})
        returning id`.execute(db);
      const visitId = visit.rows[0]!.id;
      const rx = await sql<{ id: number }>`
        insert into prescriptions (visit_id, customer_id, provider_id, drug, dosage, quantity,
          refills, valid_until, created_at, directions)
        values (${visitId}, ${customerId}, ${staffId}, 'sildenafil', '50mg', 6, 2, '2026-12-31',
          ${now}, 'One an hour before.') returning id`.execute(db);
      const rxId = rx.rows[0]!.id;
      await sql`
        insert into subscriptions (customer_id, frequency, quantity, unit_price_cents, status,
          next_billing_date, created_at, updated_at, prescription_id, refills_remaining)
        values (${customerId}, 'MONTHLY', 1, 3000, 'ACTIVE', '2026-02-01', ${now}, ${now},
          ${rxId}, 2)`.execute(db);
      const versionOf = async () =>
        (
          await sql<{ version: number }>`
            select version from customer_versions where customer_id = ${customerId}`.execute(db)
        ).rows[0]?.version ?? 0;

      expect((await migrator.migrateToLatest()).error).toBeUndefined();

      expect(
        await db
          .selectFrom('prescriptions')
          .select(['id', 'visit_id', 'dosage', 'directions', 'request_id'])
          .execute(),
      ).toEqual([
        {
          id: rxId,
          visit_id: visitId,
          dosage: '50mg',
          directions: 'One an hour before.',
          request_id: null,
        },
      ]);
      expect(await db.selectFrom('subscriptions').select('prescription_id').execute()).toEqual([
        { prescription_id: rxId },
      ]);

      // The keys still hold, both ways.
      const prescription = (over: Record<string, unknown>) =>
        db
          .insertInto('prescriptions')
          .values({
            visit_id: visitId,
            customer_id: customerId,
            provider_id: staffId,
            drug: 'sildenafil',
            dosage: '100mg',
            quantity: 6,
            refills: 1,
            valid_until: '2026-12-31',
            created_at: now,
            directions: 'One.',
            ...over,
          } as never)
          .returning('id')
          .executeTakeFirstOrThrow();
      await expect(prescription({ visit_id: 999_999 })).rejects.toThrow();
      await expect(db.deleteFrom('visits').where('id', '=', visitId).execute()).rejects.toThrow();
      // One prescription of its own per visit; a request's may join it.
      await expect(prescription({})).rejects.toThrow();
      const thread = await sql<{ id: number }>`
        insert into message_threads (customer_id, subject, topic, created_at, updated_at)
        values (${customerId}, 'Dose change request', 'treatment', ${now}, ${now})
        returning id`.execute(db);
      const subscription = await db
        .selectFrom('subscriptions')
        .select('id')
        .executeTakeFirstOrThrow();
      const request = await db
        .insertInto('treatment_requests')
        .values({
          customer_id: customerId,
          subscription_id: subscription.id,
          prescription_id: rxId,
          thread_id: thread.rows[0]!.id,
          kind: 'dose_change',
          reason: 'not_working',
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const version = await versionOf();
      const written = await prescription({ request_id: request.id });
      expect(written.id).toBeGreaterThan(rxId);
      // The kept-answer trigger on the rebuilt table still counts a write.
      expect(await versionOf()).toBeGreaterThan(version);
      // And one open request of a kind per plan.
      const thread2 = await sql<{ id: number }>`
        insert into message_threads (customer_id, subject, topic, created_at, updated_at)
        values (${customerId}, 'Dose change request', 'treatment', ${now}, ${now})
        returning id`.execute(db);
      await expect(
        db
          .insertInto('treatment_requests')
          .values({
            customer_id: customerId,
            subscription_id: subscription.id,
            prescription_id: rxId,
            thread_id: thread2.rows[0]!.id,
            kind: 'dose_change',
            reason: 'lower',
            created_at: now,
          })
          .execute(),
      ).rejects.toThrow();
    } finally {
      await handle.close();
    }
  });
});
