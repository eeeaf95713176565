import zlib from 'node:zlib';
import type { APIRequestContext } from '@playwright/test';
import { apiPaths } from '../src/shared/api.ts';
import {
  latestQuestionnaire,
  latestRenewalQuestionnaire,
} from '../src/shared/questionnaires/registry.ts';
import type { ScalpView } from '../src/shared/renewals.ts';
import type { QuestionState } from '../src/shared/visits.ts';
import { expect, provider, test, unexpectedProblems, watchConsole } from './fixtures.ts';
import { answerAllQuestions, idCardPng, safeAnswer } from './visit-helpers.ts';

/**
 * Issue 29, photos in the hair renewal (decision 023). A patient's Hair visit is approved with one
 * refill; Home says "Renew your prescription"; the patient answers the short renewal, and its send
 * step asks for three photos of the scalp: sending without them is refused in the page's alert, a
 * file that is not a photo is refused on its slot, one photo is taken from the keyboard (the
 * button opens the camera's file chooser) and the others chosen, one retaken. The renewal is sent;
 * the provider finds "Scalp photos" on the renewal's chart, the three current ones loaded, and
 * approves; the photos stay on the chart after the decision. Each screen is checked with axe and
 * photographed at 375 and 1280.
 */

const directions = 'Take one tablet by mouth once a day, with or without food.';
const renewal = latestRenewalQuestionnaire('hair');
const intake = latestQuestionnaire('hair');

/**
 * A small PNG of a head of hair seen from where each view is taken (so the thumbnails and the
 * chart show something to look at), made here: valid by its bytes, as the server checks.
 */
function scalpPng(view: ScalpView, size = 240): Buffer {
  const hair: [number, number, number] = [74, 52, 38];
  const scalp: [number, number, number] = [226, 190, 165];
  const backdrop: [number, number, number] = [228, 236, 242];
  const rows: Buffer[] = [];
  const c = size / 2;
  for (let y = 0; y < size; y += 1) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x += 1) {
      const dx = (x - c) / (size * 0.42);
      const dy = (y - c) / (size * 0.46);
      let rgb = backdrop;
      if (dx * dx + dy * dy <= 1) {
        rgb = hair;
        // Strands: a little texture, so it reads as hair rather than a flat disc.
        if ((x * 7 + y * 3) % 11 === 0) rgb = [96, 70, 52];
        if (view === 'top' && Math.abs(x - c) < 3) rgb = scalp; // the parting
        if (view === 'front' && y < c - size * 0.22 + Math.abs(x - c) * 0.25) rgb = scalp; // the hairline
        if (view === 'crown' && (x - c) ** 2 + (y - c) ** 2 < (size * 0.12) ** 2) rgb = scalp; // the crown
      }
      row.set(rgb, 1 + x * 3);
    }
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const photoOf = (view: ScalpView) => ({
  name: `scalp-${view}.png`,
  mimeType: 'image/png',
  buffer: scalpPng(view),
});

async function okData<T>(response: Awaited<ReturnType<APIRequestContext['post']>>): Promise<T> {
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { data: T }).data;
}

const post = (api: APIRequestContext, path: string, data: unknown) =>
  api.post(`/lapi${path}`, { data });

/**
 * A Hair visit in Oregon (finasteride) submitted for review by the patient logged in to `api`:
 * eligibility, questions, treatment, photo ID, consent and checkout. Its id.
 */
async function submitHairVisit(api: APIRequestContext, leadsId: string): Promise<number> {
  const { visit_id: visitId } = await okData<{ visit_id: number }>(
    await post(api, apiPaths.startProgram, { leads_id: leadsId, new_category: 'hair' }),
  );
  await okData(
    await post(api, apiPaths.visitEligibility, {
      visit_id: visitId,
      state: 'OR',
      dob: '04/12/1985',
    }),
  );
  let state = await okData<QuestionState>(
    await post(api, apiPaths.v2QuestionNext, { visit_id: visitId }),
  );
  for (let guard = 0; state.item && guard < intake.items.length + 5; guard += 1) {
    const item = intake.items.find((i) => i.linkId === state.item?.linkId);
    if (!item) throw new Error(`Unknown question ${state.item.linkId}`);
    state = await okData<QuestionState>(
      item.type === 'display'
        ? await post(api, apiPaths.v2QuestionNext, { visit_id: visitId, linkId: item.linkId })
        : await post(api, apiPaths.v2QuestionSubmit, {
            visit_id: visitId,
            linkId: item.linkId,
            value: safeAnswer(item),
          }),
    );
  }
  expect(state.done).toBe(true);
  await okData(await post(api, apiPaths.hairPreferences, { visit_id: visitId, form: 'oral' }));
  await okData(await post(api, apiPaths.productDrug, { visit_id: visitId, drug: 'finasteride' }));
  await okData(await post(api, apiPaths.productDosage, { visit_id: visitId, dosage: '1mg' }));
  await okData(
    await post(api, apiPaths.productFrequency, { visit_id: visitId, frequency: 'daily-30' }),
  );
  await okData(
    await api.post(`/lapi${apiPaths.uploadImage}`, {
      multipart: {
        visit_id: String(visitId),
        fileToUpload: { name: 'id.png', mimeType: 'image/png', buffer: idCardPng() },
      },
    }),
  );
  await okData(await post(api, apiPaths.visitConsent, { visit_id: visitId, consent: true }));
  await okData(
    await post(api, apiPaths.visitCheckout, {
      visit_id: visitId,
      shipping: {
        address: '5 Oak Street',
        address2: '',
        city: 'Portland',
        state: 'OR',
        zip: '97201',
        phoneNo: '5035550142',
      },
      billing: null,
      payment: { method: 'card', ccnum: '4242 4242 4242 4242', ccexp: '12/30', cccvv: '123' },
      consent: true,
    }),
  );
  return visitId;
}

test('a hair patient renews with three scalp photos; the provider sees them on the chart and approves', async ({
  page,
  browser,
  request,
  screens,
  logIn,
  staffLogIn,
  newCustomer,
  consoleProblems,
}, testInfo) => {
  test.setTimeout(240_000);
  // A first name of its own: the provider's queue names patients by it (and a last initial).
  const firstName = `Hai${Array.from({ length: 5 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')}`;
  const patient = await newCustomer('hair-renewal', { firstName });
  const logIn1 = await request.post('/lapi/account/login/', {
    data: { email: patient.email, password: patient.password },
  });
  expect(logIn1.status(), await logIn1.text()).toBe(200);
  const firstVisit = await submitHairVisit(request, patient.leadsId);

  // --- The provider approves the first visit with one refill.
  const staffContext = await browser.newContext({
    viewport: testInfo.project.use.viewport ?? { width: 1280, height: 800 },
  });
  const staff = await staffContext.newPage();
  const staffProblems = watchConsole(staff);
  const staffScreens = screens.of(staff);
  await staffLogIn(provider, staff);
  await staff.goto(`/staff/visits/${firstVisit}`);
  await staff.getByRole('button', { name: 'Approve' }).click();
  const first = staff.getByRole('dialog', { name: /Approve/ });
  await expect(first.getByLabel('Drug')).toHaveValue('finasteride');
  await first.getByLabel('Refills').fill('1');
  await first.getByLabel('Directions (sig)').fill(directions);
  await first.getByRole('button', { name: 'Approve and prescribe' }).click();
  await expect(first).toBeHidden();

  // --- The patient: Home asks for the renewal; its questions, then the send step.
  await logIn(patient);
  const due = page.getByRole('region', { name: 'Renew your prescription' });
  await expect(due).toContainText('Finasteride');
  await screens.check('hair-renewal-home-due');
  await due.getByRole('link', { name: /Renew your prescription for/ }).click();
  await expect(page).toHaveURL(/\/visit\/hair\/questions$/);
  await answerAllQuestions(page, renewal, undefined, { stopAtReview: true });
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/visit\/hair\/send$/);

  const photos = page.getByRole('region', { name: 'Photos of your scalp' });
  await expect(photos).toContainText(
    'Your provider compares them with how your hair looked before, to see how treatment is working. Only your provider sees them.',
  );
  await expect(photos).toContainText('0 of 3 photos added');
  await screens.check('hair-renewal-photos-empty');

  // Sending without them: the server's refusal, in the page's alert.
  await page.getByRole('checkbox', { name: /My answers are true and complete/ }).check();
  await page.getByRole('button', { name: 'Send to my provider' }).click();
  await expect(page.getByRole('alert')).toContainText(
    'Add the three photos of your scalp to send your check-in.',
  );
  await screens.check('hair-renewal-send-refused');

  const top = photos.getByRole('group', { name: 'Top of the head' });
  const front = photos.getByRole('group', { name: 'Hairline, from the front' });
  const crown = photos.getByRole('group', { name: 'Crown, from behind' });

  // A file that is not a photo is refused on its slot, before anything is sent.
  await front.getByLabel('Choose a photo: Hairline, from the front').setInputFiles({
    name: 'notes.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.7 not a photo'),
  });
  await expect(front).toContainText('Please choose a JPEG, PNG or WebP photo.');
  await screens.check('hair-renewal-photo-refused');

  // From the keyboard: the focused button opens the camera's file chooser (the wrong photo first).
  const take = top.getByRole('button', { name: 'Take a photo', exact: true });
  await take.focus();
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Enter');
  await (await chooser).setFiles(photoOf('crown'));
  await expect(top.getByRole('img', { name: 'Scalp photo: top of the head' })).toBeVisible();
  // The same button, now Retake, keeps the focus.
  await expect(top.getByRole('button', { name: 'Retake', exact: true })).toBeFocused();

  await front
    .getByLabel('Choose a photo: Hairline, from the front')
    .setInputFiles(photoOf('front'));
  await expect(
    front.getByRole('img', { name: 'Scalp photo: hairline, from the front' }),
  ).toBeVisible();
  await expect(front).not.toContainText('Please choose');
  await crown.getByLabel('Choose a photo: Crown, from behind').setInputFiles(photoOf('crown'));
  await expect(crown.getByRole('img', { name: 'Scalp photo: crown, from behind' })).toBeVisible();
  // The first top photo was the wrong one: retaken.
  const firstTop = await top.getByRole('img').getAttribute('src');
  await top.getByLabel('Take a photo: Top of the head').setInputFiles(photoOf('top'));
  await expect(top.getByRole('img')).not.toHaveAttribute('src', firstTop ?? '');
  await expect(photos).toContainText('3 of 3 photos added');
  // The refusal went with the first photo added.
  await expect(page.getByRole('alert')).toHaveCount(0);
  for (const img of await photos.getByRole('img').all())
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(240);
  await screens.check('hair-renewal-photos-added');

  await page.getByRole('button', { name: 'Send to my provider' }).click();
  await expect(
    page.getByRole('heading', { level: 2, name: 'Your answers are with your provider' }),
  ).toBeVisible();
  await screens.check('hair-renewal-submitted');

  // --- The provider: the renewal's chart shows the three current photos, before and after.
  await staff.goto('/staff');
  const queue = staff.getByRole('region', { name: /^Renewals/ });
  await expect(queue).toContainText(firstName);
  await queue
    .getByRole('link', { name: new RegExp(firstName) })
    .first()
    .click();
  const scalp = staff.getByRole('region', { name: 'Scalp photos' });
  const images = scalp.getByRole('img');
  await expect(images).toHaveCount(3);
  for (const [i, name] of [
    'Scalp photo: top of the head',
    'Scalp photo: hairline, from the front',
    'Scalp photo: crown, from behind',
  ].entries()) {
    await expect(images.nth(i)).toHaveAccessibleName(name);
    await expect
      .poll(() => images.nth(i).evaluate((el: HTMLImageElement) => el.naturalWidth))
      .toBe(240);
  }
  // The current top photo, not the one replaced.
  expect(await images.first().getAttribute('src')).not.toBe(firstTop);
  await staffScreens.check('hair-renewal-chart');
  await staff.getByRole('button', { name: 'Approve' }).click();
  const approve = staff.getByRole('dialog', { name: /Approve .*'s renewal\?/ });
  await expect(approve.getByLabel('Directions (sig)')).toHaveValue(directions);
  await approve.getByLabel('Refills').fill('5');
  await approve.getByRole('button', { name: 'Approve and prescribe' }).click();
  await expect(approve).toBeHidden();
  await expect(staff.getByRole('region', { name: 'Approved' })).toContainText('Decided by');
  // Part of the record: still there once decided.
  await staff.reload();
  await expect(images).toHaveCount(3);
  for (let i = 0; i < 3; i += 1)
    await expect
      .poll(() => images.nth(i).evaluate((el: HTMLImageElement) => el.naturalWidth))
      .toBe(240);
  await staffScreens.check('hair-renewal-chart-approved');

  // The send refused on purpose, before the photos.
  expect(unexpectedProblems(consoleProblems, [409])).toEqual([]);
  expect(unexpectedProblems(staffProblems, [])).toEqual([]);
  await staffContext.close();
});
