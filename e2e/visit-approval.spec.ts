import { expect, ops, provider, test, watchConsole, unexpectedProblems } from './fixtures.ts';
import { submitEdVisit } from './visit-helpers.ts';

/**
 * Issue 13, finding 3: the patient is told their visit was approved. A patient's ED visit (made
 * through the API, as the visit journeys already walk its screens) waits on Home as "Under review by
 * a provider"; the provider approves it with directions (the quantity comes pre-filled from the
 * patient's choice); the patient then sees "Approved" and the prescription with its directions on
 * Home and on the order on Orders. Each screen is checked with axe and photographed at 375 and 1280.
 */

const directions = 'Take one tablet about an hour before sex, with water. No more than one a day.';

test('a provider approves a visit with directions; the patient sees "Approved" and the prescription on Home and Orders', async ({
  page,
  browser,
  request,
  screens,
  logIn,
  staffLogIn,
  newCustomer,
  consoleProblems,
}, testInfo) => {
  const patient = await newCustomer('approval');
  const logIn1 = await request.post('/lapi/account/login/', {
    data: { email: patient.email, password: patient.password },
  });
  expect(logIn1.status(), await logIn1.text()).toBe(200);
  const { visitId, orderNumber } = await submitEdVisit(request, patient.leadsId);

  // --- The patient, before the decision: Home says the visit is under review.
  await logIn(patient);
  const treatment = page.getByRole('region', { name: 'Your treatment' });
  await expect(treatment).toContainText('Under review by a provider');
  await expect(treatment).toContainText('charged only if they approve');
  await expect(treatment.getByRole('region', { name: 'Your prescription' })).toHaveCount(0);
  await screens.check('approval-home-under-review');

  // --- The provider, in a browser of their own: the chart, then the approval with directions.
  const staffContext = await browser.newContext({
    baseURL: testInfo.project.use.baseURL ?? '',
    viewport: testInfo.project.use.viewport ?? { width: 1280, height: 800 },
  });
  const staff = await staffContext.newPage();
  const staffProblems = watchConsole(staff);
  const staffScreens = screens.of(staff);
  await staffLogIn(provider, staff);
  await staff.goto(`/staff/visits/${visitId}`);
  await expect(staff.getByRole('heading', { name: 'Preferences' })).toBeVisible();
  await expect(
    staff.getByText('Sildenafil (generic Viagra®) · 50 mg · 6 doses a month'),
  ).toBeVisible();
  await expect(staff.getByText('04/12/1985 (age', { exact: false })).toBeVisible();
  await staffScreens.check('approval-chart');

  await staff.getByRole('button', { name: 'Approve' }).click();
  const approve = staff.getByRole('dialog', { name: /Approve/ });
  await expect(approve.getByLabel('Quantity')).toHaveValue('6');
  await approve.getByLabel('Refills').fill('2');
  await approve.getByRole('button', { name: 'Approve and prescribe' }).click();
  await expect(approve.getByText('Enter the directions for the patient')).toBeVisible();
  await expect(approve.getByLabel('Directions (sig)')).toBeFocused();
  await staffScreens.checkAccessible();
  await staffScreens.windowShot('approval-dialog-error');
  await approve.getByLabel('Directions (sig)').fill(directions);
  await staffScreens.checkAccessible();
  await staffScreens.windowShot('approval-dialog');
  await approve.getByRole('button', { name: 'Approve and prescribe' }).click();
  await expect(approve).toBeHidden();
  await expect(staff.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  // The chart keeps the decision as a clinical record: who, when, the photo ID, the prescription.
  const record = staff.getByRole('region', { name: 'Approved' });
  await expect(record).toContainText('Sildenafil (generic Viagra®) 50 mg');
  await expect(record).toContainText(directions);
  await expect(record).toContainText('Decided by');
  await expect(record).toContainText('Opened by a provider before the decision');
  await staffScreens.check('approval-chart-decided');

  // --- The patient: Home and the order say "Approved", with the prescription and its directions.
  await page.reload();
  await expect(treatment).toContainText('Approved');
  await expect(treatment).not.toContainText('Under review');
  const homePrescription = treatment.getByRole('region', { name: 'Your prescription' });
  await expect(homePrescription).toContainText('Sildenafil (generic Viagra®)');
  await expect(homePrescription).toContainText('50 mg');
  await expect(homePrescription).toContainText(directions);
  await expect(homePrescription).toContainText(/Valid until\s*\d{2}\/\d{2}\/\d{4}/);
  await screens.check('approval-home');

  await treatment.getByRole('link', { name: `See order #${orderNumber}` }).click();
  await expect(page).toHaveURL(new RegExp(`/orders#${orderNumber}$`));
  const order = page.getByRole('article', { name: `Order ${orderNumber}` });
  await expect(order).toContainText('Processing');
  await expect(order).toContainText('Approved');
  await expect(order).toContainText('Our pharmacy is preparing it');
  const prescription = order.getByRole('region', { name: 'Your prescription' });
  await expect(prescription).toContainText('Refills left');
  await expect(prescription).toContainText(directions);
  await screens.check('approval-orders');

  // --- The pharmacy (issue 29): the approval sent the prescription to the built-in pharmacy, which
  // receives it at once; the order says so step by step, the steps to come still muted.
  const medicine = order.getByRole('region', { name: 'Your medicine' });
  await expect(async () => {
    await page.reload();
    await expect(medicine.locator('[aria-current="step"]')).toContainText(
      'Received by the pharmacy',
      { timeout: 2_000 },
    );
  }).toPass();
  await expect(medicine).toContainText('Sent to the pharmacy');
  await expect(medicine).toContainText('Shipped (not yet)');
  await screens.check('approval-orders-pharmacy');
  // Home says it in one line.
  await page.goto('/dashboard');
  await expect(treatment).toContainText('Your medicine: Received by the pharmacy on');

  // --- Operations see it on its way at the pharmacy, not stuck.
  const opsContext = await browser.newContext({
    baseURL: testInfo.project.use.baseURL ?? '',
    viewport: testInfo.project.use.viewport ?? { width: 1280, height: 800 },
  });
  const opsPage = await opsContext.newPage();
  const opsProblems = watchConsole(opsPage);
  await staffLogIn(ops, opsPage);
  await opsPage
    .getByRole('navigation', { name: 'Console' })
    .getByRole('link', { name: 'Pharmacy' })
    .click();
  await expect(opsPage.getByRole('heading', { level: 1, name: 'Pharmacy' })).toBeVisible();
  const fill = opsPage.getByRole('article', { name: `Order ${orderNumber} · New prescription` });
  await expect(fill).toContainText('On its way');
  await expect(fill).toContainText('Received by the pharmacy since');
  await screens.of(opsPage).check('staff-pharmacy');
  expect(unexpectedProblems(opsProblems, [])).toEqual([]);
  await opsContext.close();

  expect(unexpectedProblems(consoleProblems, [])).toEqual([]);
  expect(unexpectedProblems(staffProblems, [])).toEqual([]);
  await staffContext.close();
});
