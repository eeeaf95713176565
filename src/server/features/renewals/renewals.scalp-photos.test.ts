import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStaff } from '#server/db/seed-demo.ts';
import { latestRenewalQuestionnaire } from '#shared/questionnaires/registry.ts';
import {
  renewalsApi,
  scalpPhotosMissing,
  type ScalpView,
  type ScalpPhoto,
} from '#shared/renewals.ts';
import { reviewsApi } from '#shared/reviews.ts';
import { visitsApi, type ProgramCategory } from '#shared/visits.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { callAs, dataOf, malformed } from '#test/contract.ts';
import {
  asPatient,
  insertCustomer,
  multipartBody,
  staffCookie,
  type TestCustomer,
} from '#test/factories.ts';
import {
  approveWithPrescription,
  completeQuestions,
  jpegWithGps,
  submittedEdVisit,
  visitCheckoutBody,
} from '#test/visits.ts';

const provider = demoStaff.find((s) => s.role === 'provider')!;
const operations = demoStaff.find((s) => s.role === 'operations')!;

/**
 * Issue 29, photos in the hair renewal (decisions 005 and 023): a Hair renewal goes to the provider
 * with a photo of the top of the head, the hairline and the crown, stored as a photo ID is (checked
 * by its bytes, metadata stripped, an opaque id). The current photo of each view is the patient's
 * and, while the renewal waits for review and after it is decided, a licensed provider's; a
 * replaced one is the patient's alone; nobody else's, operations included.
 */
describe(`scalp photos in the hair renewal (${testDialect})`, () => {
  let t: TestApp;
  let providerCookie: string;
  let opsCookie: string;

  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
    providerCookie = await staffCookie(t, provider);
    opsCookie = await staffCookie(t, operations);
  });
  afterAll(() => t.close());

  const uploadsDir = () => path.join(t.dataDir, 'uploads');
  const storedFiles = () => (fs.existsSync(uploadsDir()) ? fs.readdirSync(uploadsDir()).length : 0);

  /** A Hair visit in Oregon approved with finasteride and one refill: due for renewal. */
  async function approvedHairVisit(c: TestCustomer): Promise<number> {
    const started = dataOf(
      visitsApi.startProgram,
      await callAs(t.app, visitsApi.startProgram, { leads_id: c.leadsId, new_category: 'hair' }, c),
    );
    const visitId = started.visit_id;
    await callAs(
      t.app,
      visitsApi.eligibility,
      { visit_id: visitId, state: 'OR', dob: '04/12/1985' },
      c,
    );
    await completeQuestions(t.app, c, visitId, 'hair');
    await callAs(t.app, visitsApi.hairPreferences, { visit_id: visitId, form: 'oral' }, c);
    await callAs(t.app, visitsApi.drug, { visit_id: visitId, drug: 'finasteride' }, c);
    await callAs(t.app, visitsApi.dosage, { visit_id: visitId, dosage: '1mg' }, c);
    await callAs(t.app, visitsApi.frequency, { visit_id: visitId, frequency: 'daily-30' }, c);
    const id = multipartBody(
      { visit_id: String(visitId) },
      { field: 'fileToUpload', filename: 'id.jpg', contentType: 'image/jpeg', bytes: jpegWithGps },
    );
    const photoId = await callAs(t.app, visitsApi.uploadImage, malformed(id.payload), c, {
      headers: id.headers,
    });
    expect(photoId.statusCode, photoId.body).toBe(200);
    await callAs(t.app, visitsApi.consent, { visit_id: visitId, consent: true }, c);
    const checkout = await callAs(t.app, visitsApi.checkout, visitCheckoutBody(visitId), c);
    expect(checkout.statusCode, checkout.body).toBe(200);
    const approved = await callAs(
      t.app,
      reviewsApi.approve,
      {
        visit_id: visitId,
        prescription: {
          drug: 'finasteride',
          dosage: '1mg',
          quantity: 30,
          refills: 1,
          valid_until: new Date(t.clock.now().getTime() + 180 * 86_400_000)
            .toISOString()
            .slice(0, 10),
          directions: 'Take one tablet by mouth once a day.',
        },
      },
      providerCookie,
    );
    expect(approved.statusCode, approved.body).toBe(200);
    return visitId;
  }

  /** Opens the program's renewal and answers it: it waits at its send step. */
  async function renewalAtSend(c: TestCustomer, category: ProgramCategory): Promise<number> {
    const opened = dataOf(
      renewalsApi.startRenewal,
      await asPatient(t, c, () => callAs(t.app, renewalsApi.startRenewal, { category }, c)),
    );
    await completeQuestions(t.app, c, opened.visit_id, category, {
      questionnaire: latestRenewalQuestionnaire(category),
    });
    const review = dataOf(
      visitsApi.reviewAnswers,
      await callAs(t.app, visitsApi.reviewAnswers, { visit_id: opened.visit_id }, c),
    );
    expect(review.destination).toBe(`/visit/${category}/send`);
    return opened.visit_id;
  }

  /** A scalp photo as the send page posts it: form data, the renewal, the view and the file. */
  const upload = (
    who: TestCustomer | undefined,
    fields: { visit_id: number; view?: string },
    file: { bytes: Buffer; contentType?: string } | null = { bytes: jpegWithGps },
  ) => {
    const body = multipartBody(
      {
        visit_id: String(fields.visit_id),
        ...(fields.view === undefined ? {} : { view: fields.view }),
      },
      file
        ? {
            field: 'fileToUpload',
            filename: 'scalp.jpg',
            contentType: file.contentType ?? 'image/jpeg',
            bytes: file.bytes,
          }
        : undefined,
    );
    // The form's bytes as the browser sends them (the declaration's body only names its fields).
    return callAs(t.app, renewalsApi.uploadScalpPhoto, malformed(body.payload), who, {
      headers: body.headers,
    });
  };
  const added = async (c: TestCustomer, visitId: number, view: ScalpView): Promise<string> => {
    const response = await upload(c, { visit_id: visitId, view });
    expect(response.statusCode, response.body).toBe(200);
    const photo = dataOf(renewalsApi.uploadScalpPhoto, response);
    expect(photo.view).toBe(view);
    // Named by an opaque id, never the row's number (decision 005).
    expect(photo.upload_id).toMatch(/^[\w-]{22}$/);
    return photo.upload_id;
  };
  const photosOf = async (c: TestCustomer, visitId: number): Promise<ScalpPhoto[]> =>
    dataOf(
      renewalsApi.scalpPhotos,
      await callAs(t.app, renewalsApi.scalpPhotos, { visit_id: visitId }, c),
    ).photos;
  const send = (c: TestCustomer, visitId: number) =>
    callAs(t.app, renewalsApi.sendRenewal, { visit_id: visitId, confirm: true }, c);
  const photo = (key: string, who?: TestCustomer | string) =>
    callAs(t.app, visitsApi.photoId, undefined, who, { params: { id: key } });
  const auditFor = (key: string) =>
    t.app.db
      .selectFrom('audit_log')
      .innerJoin('staff_users', 'staff_users.id', 'audit_log.staff_id')
      .select(['staff_users.role', 'audit_log.action'])
      .where('audit_log.subject_type', '=', 'upload')
      .where('audit_log.subject_id', '=', key)
      .orderBy('audit_log.id')
      .execute();
  const chartOf = async (visitId: number) =>
    dataOf(
      reviewsApi.chart,
      await callAs(t.app, reviewsApi.chart, { visit_id: visitId }, providerCookie),
    ).chart;

  it('a hair renewal is sent with its three views, a retake replacing one; the provider sees the current ones before and after the decision', async () => {
    const c = await insertCustomer(t.app);
    await approvedHairVisit(c);
    const visitId = await renewalAtSend(c, 'hair');
    expect(await photosOf(c, visitId)).toEqual([]);

    // Not without its photos: none, then two of three.
    const bare = await send(c, visitId);
    expect(bare.statusCode).toBe(409);
    expect(bare.json()).toMatchObject({ code: 'VISIT_STEP', message: scalpPhotosMissing });
    const firstTop = await added(c, visitId, 'top');
    const front = await added(c, visitId, 'front');
    const two = await send(c, visitId);
    expect(two.statusCode).toBe(409);
    expect(two.json()).toMatchObject({
      code: 'VISIT_STEP',
      message: 'Add the three photos of your scalp to send your check-in.',
    });

    // Only an image, by its bytes; a view and a photo must be named.
    const before = storedFiles();
    const pdf = await upload(
      c,
      { visit_id: visitId, view: 'crown' },
      { bytes: Buffer.from('%PDF-1.7 not a photo'), contentType: 'image/jpeg' },
    );
    expect(pdf.statusCode).toBe(415);
    expect(pdf.json()).toMatchObject({
      code: 'NOT_AN_IMAGE',
      fields: { fileToUpload: 'Please upload a photo of your scalp as a JPEG, PNG or WebP image.' },
    });
    const noView = await upload(c, { visit_id: visitId });
    expect(noView.statusCode).toBe(400);
    expect(noView.json()).toMatchObject({
      code: 'VALIDATION',
      fields: { view: 'Choose which photo this is' },
    });
    const elbow = await upload(c, { visit_id: visitId, view: 'elbow' });
    expect(elbow.json()).toMatchObject({ fields: { view: 'Choose which photo this is' } });
    const noFile = await upload(c, { visit_id: visitId, view: 'crown' }, null);
    expect(noFile.json()).toMatchObject({
      code: 'VALIDATION',
      fields: { fileToUpload: 'Choose a photo of your scalp.' },
    });
    expect(storedFiles()).toBe(before);

    // The third view, and a retake of the first: the newest of a view is its photo.
    const crown = await added(c, visitId, 'crown');
    const top = await added(c, visitId, 'top');
    expect(top).not.toBe(firstTop);
    expect(await photosOf(c, visitId)).toEqual([
      { view: 'top', upload_id: top },
      { view: 'front', upload_id: front },
      { view: 'crown', upload_id: crown },
    ]);
    // Stored without their metadata: the GPS canary does not survive.
    const rows = await t.app.db
      .selectFrom('uploads')
      .select(['stored_name', 'kind', 'view'])
      .where('visit_id', '=', visitId)
      .execute();
    expect(rows.map((r) => [r.kind, r.view])).toEqual(
      expect.arrayContaining([
        ['scalp_photo', 'top'],
        ['scalp_photo', 'front'],
        ['scalp_photo', 'crown'],
      ]),
    );
    expect(rows).toHaveLength(4);
    for (const row of rows)
      expect(
        fs.readFileSync(path.join(uploadsDir(), row.stored_name)).toString('latin1'),
      ).not.toContain('GPS canary');

    // Not yet sent: nothing for a provider to see.
    expect((await photo(top, providerCookie)).statusCode).toBe(404);
    const sent = await send(c, visitId);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(dataOf(renewalsApi.sendRenewal, sent).destination).toBe('/visit/hair/submitted');
    // Sent: its photos are what the provider reviews, no longer changed.
    const late = await upload(c, { visit_id: visitId, view: 'top' });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({
      code: 'VISIT_CLOSED',
      message: expect.stringContaining('already sent to your provider'),
    });

    // The provider's chart lists the current view of each, labelled, and each opens.
    const chart = await chartOf(visitId);
    expect(chart.renewal?.scalp_photos).toEqual([
      { view: 'top', label: 'Top of the head', upload_key: top },
      { view: 'front', label: 'Hairline, from the front', upload_key: front },
      { view: 'crown', label: 'Crown, from behind', upload_key: crown },
    ]);
    for (const key of [top, front, crown]) {
      const seen = await photo(key, providerCookie);
      expect(seen.statusCode).toBe(200);
      expect(seen.headers['content-type']).toBe('image/jpeg');
      expect(seen.headers['cache-control']).toBe('private, no-store');
      expect(seen.rawPayload.toString('latin1')).not.toContain('GPS canary');
    }
    // The photo the patient replaced is theirs alone; operations see none, as if none existed.
    expect((await photo(firstTop, providerCookie)).statusCode).toBe(404);
    expect((await photo(firstTop, c)).statusCode).toBe(200);
    const refused = await photo(top, opsCookie);
    const ghost = await photo('AAAAAAAAAAAAAAAAAAAAAA', opsCookie);
    expect(refused.statusCode).toBe(404);
    const { requestId: _a, ...refusedBody } = refused.json<Record<string, unknown>>();
    const { requestId: _b, ...ghostBody } = ghost.json<Record<string, unknown>>();
    expect(refusedBody).toEqual(ghostBody);

    // Decided, they stay on the chart: part of the record, unlike a photo ID.
    const approved = await callAs(
      t.app,
      reviewsApi.approve,
      {
        visit_id: visitId,
        prescription: {
          drug: 'finasteride',
          dosage: '1mg',
          quantity: 30,
          refills: 5,
          valid_until: new Date(t.clock.now().getTime() + 365 * 86_400_000)
            .toISOString()
            .slice(0, 10),
          directions: 'Take one tablet by mouth once a day.',
        },
      },
      providerCookie,
    );
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await chartOf(visitId)).renewal?.scalp_photos.map((p) => p.upload_key)).toEqual([
      top,
      front,
      crown,
    ]);
    expect((await photo(crown, providerCookie)).statusCode).toBe(200);
    expect((await photo(firstTop, providerCookie)).statusCode).toBe(404);
    expect((await photo(crown, opsCookie)).statusCode).toBe(404);
    expect((await photo(crown, c)).statusCode).toBe(200);

    // Every staff request is audited, the refused ones too.
    expect(await auditFor(top)).toEqual([
      { role: 'provider', action: 'view_refused' },
      { role: 'provider', action: 'view' },
      { role: 'operations', action: 'view_refused' },
    ]);
    expect(await auditFor(crown)).toEqual([
      { role: 'provider', action: 'view' },
      { role: 'provider', action: 'view' },
      { role: 'operations', action: 'view_refused' },
    ]);
    expect(await auditFor(firstTop)).toEqual([
      { role: 'provider', action: 'view_refused' },
      { role: 'provider', action: 'view_refused' },
    ]);
  });

  it("another patient can neither add to nor list a patient's photos, nor open one", async () => {
    const c = await insertCustomer(t.app);
    const other = await insertCustomer(t.app);
    await approvedHairVisit(c);
    const visitId = await renewalAtSend(c, 'hair');
    const key = await added(c, visitId, 'front');
    const before = storedFiles();

    const theirs = await upload(other, { visit_id: visitId, view: 'top' });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ message: 'We could not find that visit.' });
    const listed = await callAs(t.app, renewalsApi.scalpPhotos, { visit_id: visitId }, other);
    expect(listed.statusCode).toBe(404);
    expect(listed.json()).toMatchObject({ message: 'We could not find that visit.' });
    for (const who of [other, undefined]) {
      const response = await photo(key, who);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ message: 'We could not find that file.' });
    }
    expect(storedFiles()).toBe(before);
    expect(await photosOf(c, visitId)).toEqual([{ view: 'front', upload_id: key }]);
    // A visitor is asked to log in.
    expect((await upload(undefined, { visit_id: visitId, view: 'top' })).statusCode).toBe(401);
  });

  it('an ED renewal takes no scalp photos and is sent without them', async () => {
    const c = await insertCustomer(t.app);
    const { visitId: first } = await submittedEdVisit(t.app, c, 'OR');
    const approved = await approveWithPrescription(t.app, providerCookie, first, { refills: 1 });
    expect(approved.statusCode, approved.body).toBe(200);
    const visitId = await renewalAtSend(c, 'ed');
    const before = storedFiles();

    const refused = await upload(c, { visit_id: visitId, view: 'top' });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ message: 'We could not find that visit.' });
    expect(
      (await callAs(t.app, renewalsApi.scalpPhotos, { visit_id: visitId }, c)).statusCode,
    ).toBe(404);
    // Nor does a first visit.
    expect((await upload(c, { visit_id: first, view: 'top' })).statusCode).toBe(404);
    expect(storedFiles()).toBe(before);

    const sent = await send(c, visitId);
    expect(sent.statusCode, sent.body).toBe(200);
    expect((await chartOf(visitId)).renewal?.scalp_photos).toEqual([]);
  });
});
