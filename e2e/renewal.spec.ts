import { openDatabase } from '../src/server/db/client.ts';
import { latestRenewalQuestionnaire } from '../src/shared/questionnaires/registry.ts';
import {
  expect,
  pharmacyBaseURL,
  provider,
  test,
  watchConsole,
  unexpectedProblems,
} from './fixtures.ts';
import { answerAllQuestions, submitEdVisit } from './visit-helpers.ts';

/**
 * Issue 29, a prescription renewed (decision 023). A patient's ED visit is approved with one refill:
 * Home says "Renew your prescription"; the patient answers the short renewal with their lasting
 * answers offered from the first visit, and sends it; the provider finds it in the Renewals queue,
 * reads it against the last visit and approves it from the renewed prescription; the patient reads
 * the renewal in Messages, and Home no longer asks. Then the plan bills the renewed prescription's
 * first fill (its date moved to today) and the built-in pharmacy fills and ships it (on the
 * instance whose pharmacy takes seconds between its steps): the order shows each step to the
 * patient's door with its tracking number, and a printable receipt for an HSA or FSA claim. Each screen is checked with axe and photographed at 375 and
 * 1280.
 */

test.use({ baseURL: pharmacyBaseURL });

/**
 * The patient's refill plan comes due now: its billing date moved into the past in the pharmacy
 * instance's own database, which its billing job (every 2 s there) then bills.
 */
async function refillDue(email: string): Promise<void> {
  const handle = await openDatabase({
    dataDir: process.env.E2E_PHARMACY_DATA_DIR ?? '',
    ...(process.env.E2E_DATABASE_URL ? { databaseUrl: process.env.E2E_DATABASE_URL } : {}),
  });
  try {
    const customer = await handle.db
      .selectFrom('customers')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const yesterday = new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    await handle.db
      .updateTable('subscriptions')
      .set({ next_billing_date: yesterday })
      .where('customer_id', '=', customer.id)
      .where('status', '=', 'ACTIVE')
      .execute();
  } finally {
    await handle.close();
  }
}

const directions = 'Take one tablet about an hour before sex, with water. No more than one a day.';
const renewal = latestRenewalQuestionnaire('ed');

test('a patient renews a prescription with one refill left; the provider compares and approves it', async ({
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
  const firstName = `Ren${Array.from({ length: 5 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')}`;
  const patient = await newCustomer('renewal', { firstName });
  const logIn1 = await request.post('/lapi/account/login/', {
    data: { email: patient.email, password: patient.password },
  });
  expect(logIn1.status(), await logIn1.text()).toBe(200);
  const { visitId, orderNumber } = await submitEdVisit(request, patient.leadsId);

  // --- The provider approves the first visit with one refill.
  const staffContext = await browser.newContext({
    baseURL: pharmacyBaseURL,
    viewport: testInfo.project.use.viewport ?? { width: 1280, height: 800 },
  });
  const staff = await staffContext.newPage();
  const staffProblems = watchConsole(staff);
  const staffScreens = screens.of(staff);
  await staffLogIn(provider, staff);
  await staff.goto(`/staff/visits/${visitId}`);
  await staff.getByRole('button', { name: 'Approve' }).click();
  const first = staff.getByRole('dialog', { name: /Approve/ });
  await first.getByLabel('Refills').fill('1');
  await first.getByLabel('Directions (sig)').fill(directions);
  await first.getByRole('button', { name: 'Approve and prescribe' }).click();
  await expect(first).toBeHidden();

  // --- The patient: Home asks for the renewal, and it opens at its questions.
  await logIn(patient);
  const due = page.getByRole('region', { name: 'Renew your prescription' });
  await expect(due).toContainText('Sildenafil (generic Viagra®) 50 mg');
  await expect(due).toContainText('1 refill left');
  await screens.check('renewal-home-due');
  await due.getByRole('link', { name: /Renew your prescription for/ }).click();
  await expect(page).toHaveURL(/\/visit\/ed\/questions$/);
  await expect(page.getByText('Prescription renewal')).toBeVisible();

  const offered: string[] = [];
  await answerAllQuestions(
    page,
    renewal,
    async (item) => {
      // A lasting answer is offered from the first visit, already chosen; one about now is not.
      if (item.linkId === 'nitrates') {
        await expect(page.getByRole('checkbox', { name: 'None of these' })).toBeChecked();
        offered.push(item.linkId);
        await screens.check('renewal-question-prefilled');
      }
      if (item.linkId === 'chest_pain') {
        await expect(page.getByRole('radio', { name: 'No', exact: true })).not.toBeChecked();
        offered.push(item.linkId);
      }
    },
    { stopAtReview: true },
  );
  expect(offered).toEqual(['nitrates', 'chest_pain']);
  await screens.check('renewal-answers');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/visit\/ed\/send$/);
  await expect(
    page.getByRole('heading', { level: 2, name: 'Send your answers to your provider' }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Send to my provider' }).click();
  await expect(
    page.getByText('Confirm that your answers are true and complete to send them'),
  ).toBeVisible();
  await screens.check('renewal-send-error');
  await page.getByRole('checkbox', { name: /My answers are true and complete/ }).check();
  await page.getByRole('button', { name: 'Send to my provider' }).click();
  await expect(
    page.getByRole('heading', { level: 2, name: 'Your answers are with your provider' }),
  ).toBeVisible();
  await screens.check('renewal-submitted');
  await page.goto('/dashboard');
  await expect(due).toContainText('Your answers are with your provider.');

  // --- The provider: the Renewals queue, the chart against the last visit, the approval.
  await staff.goto('/staff');
  const queue = staff.getByRole('region', { name: /^Renewals/ });
  await expect(queue).toContainText(firstName);
  await staffScreens.check('renewal-queue');
  await queue
    .getByRole('link', { name: new RegExp(firstName) })
    .first()
    .click();
  const compared = staff.getByRole('region', { name: 'Answers since the last visit' });
  await expect(compared).toContainText('No answer changed since the last visit');
  await expect(compared).toContainText('Last visit: None of these');
  await expect(staff.getByRole('region', { name: 'Prescription to renew' })).toContainText(
    directions,
  );
  await expect(staff.getByRole('region', { name: 'Fills' })).toContainText(/PW-/);
  // Beside the patient's messages, what they take now, with the chart it came from.
  await expect(staff.getByRole('region', { name: 'Active prescriptions' })).toContainText(
    directions,
  );
  await staffScreens.check('renewal-chart');
  await staff.getByRole('button', { name: 'Approve' }).click();
  const approve = staff.getByRole('dialog', { name: /Approve .*'s renewal\?/ });
  await expect(approve.getByLabel('Directions (sig)')).toHaveValue(directions);
  await expect(approve.getByLabel('Dosage')).toHaveValue('50mg');
  await approve.getByLabel('Refills').fill('5');
  await staffScreens.checkAccessible();
  await staffScreens.windowShot('renewal-approve-dialog');
  await approve.getByRole('button', { name: 'Approve and prescribe' }).click();
  await expect(approve).toBeHidden();
  await expect(staff.getByRole('region', { name: 'Approved' })).toContainText('Decided by');

  // --- The patient: Messages say it is renewed; Home no longer asks.
  await page.goto('/messages');
  await page
    .getByRole('button', { name: /^Your online visit .*unread/ })
    .first()
    .click();
  await expect(page.getByText(/Your prescription is renewed: Sildenafil/).first()).toBeVisible();
  await screens.check('renewal-messages');
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: `Hi, ${firstName}` })).toBeVisible();
  await expect(due).toHaveCount(0);

  // --- The renewed prescription's first fill: the plan bills it on its date (moved to today
  // here), the pharmacy fills and ships it, and its order says each step and has a receipt.
  await refillDue(patient.email);
  await page.goto('/orders');
  const orders = page.getByRole('article', { name: /^Order PW-/ });
  await expect(async () => {
    await page.reload();
    await expect(orders).toHaveCount(2, { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  const order = orders.first();
  const refillNumber = ((await order.getAttribute('id')) ?? '').trim();
  expect(refillNumber).not.toBe(orderNumber);
  const medicine = order.getByRole('region', { name: 'Your medicine' });
  await expect(async () => {
    await page.reload();
    await expect(medicine.locator('[aria-current="step"]')).toContainText('Delivered', {
      timeout: 2_000,
    });
  }).toPass({ timeout: 60_000 });
  for (const step of [
    'Sent to the pharmacy',
    'Received by the pharmacy',
    'Filled by the pharmacist',
    'Shipped',
  ])
    await expect(medicine).toContainText(step);
  await expect(medicine).not.toContainText('(not yet)');
  // Shipped with the carrier's tracking number, which links to its tracking page.
  await expect(order.getByRole('link', { name: /USPS tracking/ })).toBeVisible();
  await screens.check('renewal-order-delivered');

  // Its itemised receipt, for an HSA or FSA claim, printable on one page.
  await order.getByRole('link', { name: /Receipt for HSA\/FSA/ }).click();
  await expect(page).toHaveURL(new RegExp(`/orders/care-receipt/${refillNumber}$`));
  const receipt = page.getByRole('article', { name: `Itemised receipt for order ${refillNumber}` });
  await expect(receipt).toContainText(`${firstName} Reyes`);
  await expect(receipt).toContainText('Prescription refill');
  await expect(receipt).toContainText('Sildenafil (generic Viagra®) 50 mg');
  await expect(receipt).toContainText('Dr. Maya Chen, MD');
  await expect(receipt).toContainText('NPI 1234567893');
  await expect(receipt).toContainText('Licence OR-MD-');
  await expect(receipt).toContainText('Willamette Valley Pharmacy');
  await expect(receipt).toContainText('Amount paid');
  await screens.check('renewal-receipt');
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
  await screens.shot('renewal-receipt-print');
  // Printed on US Letter, it is one page.
  const pdf = (await page.pdf({ format: 'Letter' })).toString('latin1');
  expect(pdf.match(/\/Type\s*\/Page(?!s)/g)).toHaveLength(1);
  await page.emulateMedia({ media: 'screen' });

  expect(unexpectedProblems(consoleProblems, [])).toEqual([]);
  expect(unexpectedProblems(staffProblems, [])).toEqual([]);
  await staffContext.close();
});
