import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStaff } from '#server/db/seed-demo.ts';
import type { UsStateCode } from '#shared/us-states.ts';
import { type Chart, reviewsApi } from '#shared/reviews.ts';
import { visitsApi } from '#shared/visits.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs, malformed } from '#test/contract.ts';
import { insertCustomer, multipartBody, staffCookie, type TestCustomer } from '#test/factories.ts';
import { edVisitAtCheckout, insertProvider, jpegWithGps, visitCheckoutBody } from '#test/visits.ts';

const provider = demoStaff.find((s) => s.role === 'provider')!;
const operations = demoStaff.find((s) => s.role === 'operations')!;

/**
 * Issue 11, finding 6 (decision 005): a photo ID is seen by the patient who uploaded it and by a
 * provider licensed in the visit's state while the visit waits for review; by nobody else. It is
 * named by an opaque id, and every staff request for one is audited, refused ones too.
 */
describe(`photo IDs: least privilege (${testDialect})`, () => {
  let t: TestApp;
  let providerCookie: string;
  let opsCookie: string;

  beforeAll(async () => {
    // Arizona is offered, and another provider is licensed there, but not the demo provider.
    t = await buildTestApp({
      env: { SEED_DEMO: 'true', STATES_ALLOWED: 'CA,FL,NY,OR,TX,WA,AZ' },
    });
    await insertProvider(t.app, ['AZ']);
    providerCookie = await staffCookie(t, provider);
    opsCookie = await staffCookie(t, operations);
  });
  afterAll(() => t.close());

  /** A visit at checkout in `state`, with its photo ID's public id. */
  async function visitWithPhoto(c: TestCustomer, state: UsStateCode = 'OR') {
    const visitId = await edVisitAtCheckout(t.app, c, state);
    const upload = await t.app.db
      .selectFrom('uploads')
      .innerJoin('visits', 'visits.photo_upload_id', 'uploads.id')
      .select(['uploads.public_id'])
      .where('visits.id', '=', visitId)
      .executeTakeFirstOrThrow();
    return { visitId, key: upload.public_id ?? '' };
  }
  const submit = async (c: TestCustomer, visitId: number, state: UsStateCode = 'OR') => {
    const response = await callAs(
      t.app,
      visitsApi.checkout,
      visitCheckoutBody(visitId, undefined, state),
      c.cookie,
    );
    expect(response.statusCode, response.body).toBe(200);
  };
  const photo = (key: string, cookie?: string) =>
    callAs(t.app, visitsApi.photoId, undefined, cookie, { params: { id: key } });
  const auditFor = (key: string) =>
    t.app.db
      .selectFrom('audit_log')
      .innerJoin('staff_users', 'staff_users.id', 'audit_log.staff_id')
      .select(['staff_users.role', 'audit_log.action', 'audit_log.customer_id'])
      .where('audit_log.subject_type', '=', 'upload')
      .where('audit_log.subject_id', '=', key)
      .orderBy('audit_log.id')
      .execute();
  const chartOf = async (visitId: number) =>
    (await callAs(t.app, reviewsApi.chart, { visit_id: visitId }, providerCookie)).json<{
      data: { chart: Chart };
    }>().data.chart;

  it('names a photo by a random id, never by the row number', async () => {
    const c = await insertCustomer(t.app);
    const first = await visitWithPhoto(c);
    const second = await visitWithPhoto(c);
    for (const key of [first.key, second.key]) expect(key).toMatch(/^[\w-]{22}$/);
    expect(first.key).not.toBe(second.key);
    const row = await t.app.db
      .selectFrom('uploads')
      .select('id')
      .where('public_id', '=', first.key)
      .executeTakeFirstOrThrow();
    expect((await photo(first.key, c.cookie)).statusCode).toBe(200);
    expect((await photo(String(row.id), c.cookie)).statusCode).toBe(404);
  });

  it('shows the photo to a licensed provider while the visit waits for review, and audits the view', async () => {
    const c = await insertCustomer(t.app);
    const { visitId, key } = await visitWithPhoto(c);
    // Not yet submitted: nothing to review.
    expect((await photo(key, providerCookie)).statusCode).toBe(404);
    await submit(c, visitId);
    const chart = await chartOf(visitId);
    expect(chart).toMatchObject({ photo_uploaded: true, photo_upload_key: key });
    const seen = await photo(key, providerCookie);
    expect(seen.statusCode).toBe(200);
    expect(seen.headers['content-type']).toBe('image/jpeg');
    expect(await auditFor(key)).toEqual([
      { role: 'provider', action: 'view_refused', customer_id: c.customerId },
      { role: 'provider', action: 'view', customer_id: c.customerId },
    ]);
  });

  it('refuses operations staff exactly as for a photo that does not exist, and audits the refusal', async () => {
    const c = await insertCustomer(t.app);
    const { visitId, key } = await visitWithPhoto(c);
    await submit(c, visitId);
    const refused = await photo(key, opsCookie);
    const ghost = await photo('AAAAAAAAAAAAAAAAAAAAAA', opsCookie);
    expect(refused.statusCode).toBe(404);
    const { requestId: _a, ...body } = refused.json<Record<string, unknown>>();
    const { requestId: _b, ...ghostBody } = ghost.json<Record<string, unknown>>();
    expect(body).toEqual(ghostBody);
    expect(await auditFor(key)).toEqual([
      { role: 'operations', action: 'view_refused', customer_id: c.customerId },
    ]);
    expect(await auditFor('AAAAAAAAAAAAAAAAAAAAAA')).toEqual([
      { role: 'operations', action: 'view_refused', customer_id: null },
    ]);
  });

  it("refuses a provider not licensed in the visit's state", async () => {
    const c = await insertCustomer(t.app);
    const { visitId, key } = await visitWithPhoto(c, 'AZ');
    await submit(c, visitId, 'AZ');
    expect((await photo(key, providerCookie)).statusCode).toBe(404);
    expect((await photo(key, c.cookie)).statusCode).toBe(200);
    expect(await auditFor(key)).toEqual([
      { role: 'provider', action: 'view_refused', customer_id: c.customerId },
    ]);
  });

  it('stops showing it once the visit is decided, and never shows a photo the patient replaced', async () => {
    const c = await insertCustomer(t.app);
    const { visitId, key: replaced } = await visitWithPhoto(c);
    // A second photo for the same visit replaces the first.
    const body = multipartBody(
      { visit_id: String(visitId) },
      { field: 'fileToUpload', filename: 'id.jpg', contentType: 'image/jpeg', bytes: jpegWithGps },
    );
    // Form data, not JSON: the bytes as multipart encodes them, whatever the form's schema says.
    const again = await callAs(t.app, visitsApi.uploadImage, malformed(body.payload), c, {
      headers: body.headers,
    });
    expect(again.statusCode, again.body).toBe(200);
    const current = again.json<{ data: { upload_id: string } }>().data.upload_id;
    await callAs(t.app, visitsApi.consent, { visit_id: visitId, consent: true }, c.cookie);
    await submit(c, visitId);
    expect((await photo(replaced, providerCookie)).statusCode).toBe(404);
    expect((await photo(current, providerCookie)).statusCode).toBe(200);

    const declined = await callAs(
      t.app,
      reviewsApi.decline,
      { visit_id: visitId, reason: 'Not a good fit for this treatment today.' },
      providerCookie,
    );
    expect(declined.statusCode, declined.body).toBe(200);
    expect(await chartOf(visitId)).toMatchObject({ photo_uploaded: true, photo_upload_key: null });
    expect((await photo(current, providerCookie)).statusCode).toBe(404);
    // The patient still sees their own photos.
    expect((await photo(current, c.cookie)).statusCode).toBe(200);
    expect((await photo(replaced, c.cookie)).statusCode).toBe(200);
  });

  it('refuses other customers and visitors without telling them anything, unaudited (no staff)', async () => {
    const c = await insertCustomer(t.app);
    const other = await insertCustomer(t.app);
    const { key } = await visitWithPhoto(c);
    for (const cookie of [other.cookie, undefined]) {
      const response = await photo(key, cookie);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ message: 'We could not find that file.' });
    }
    expect(await auditFor(key)).toEqual([]);
  });
});
