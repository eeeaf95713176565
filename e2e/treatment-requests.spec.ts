import { expect, provider, test, watchConsole, unexpectedProblems } from './fixtures.ts';
import { submitEdVisit } from './visit-helpers.ts';

/**
 * Issue 29, requests between visits (decision 024). A patient whose ED visit was approved with
 * refills asks, from the refill plan's card, for an early refill and for a change of dose; the
 * provider finds both in the review queue, moves the next refill to today and prescribes a higher
 * dose, each with a message; the patient's card shows both decisions, and the conversation holds
 * the provider's words. Each screen is checked with axe and photographed at 375 and 1280.
 */

const directions = 'Take one tablet about an hour before sex, with water. No more than one a day.';

test('a patient asks for an early refill and a dose change; the provider decides both', async ({
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
  const firstName = `Req${Array.from({ length: 5 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')}`;
  const patient = await newCustomer('requests', { firstName });
  const apiLogIn = await request.post('/lapi/account/login/', {
    data: { email: patient.email, password: patient.password },
  });
  expect(apiLogIn.status(), await apiLogIn.text()).toBe(200);
  const { visitId } = await submitEdVisit(request, patient.leadsId);

  // --- The provider approves the visit with three refills: a refill plan starts.
  const staffContext = await browser.newContext({
    baseURL: testInfo.project.use.baseURL ?? '',
    viewport: testInfo.project.use.viewport ?? { width: 1280, height: 800 },
  });
  const staff = await staffContext.newPage();
  const staffProblems = watchConsole(staff);
  const staffScreens = screens.of(staff);
  await staffLogIn(provider, staff);
  await staff.goto(`/staff/visits/${visitId}`);
  await staff.getByRole('button', { name: 'Approve' }).click();
  const approve = staff.getByRole('dialog', { name: /Approve/ });
  await approve.getByLabel('Refills').fill('3');
  await approve.getByLabel('Directions (sig)').fill(directions);
  await approve.getByRole('button', { name: 'Approve and prescribe' }).click();
  await expect(approve).toBeHidden();

  // --- The patient asks for an early refill, from the plan's card.
  await logIn(patient);
  await page.goto('/subscriptions');
  const treatment = page.getByRole('region', { name: 'Your treatment' });
  await expect(treatment.getByRole('button', { name: 'Ask for an early refill' })).toBeVisible();
  await screens.check('requests-card');
  await treatment.getByRole('button', { name: 'Ask for an early refill' }).click();
  let dialog = page.getByRole('dialog', { name: 'Ask for an early refill' });
  await dialog.getByRole('button', { name: 'Send to my provider' }).click();
  await expect(dialog.getByText('Choose a reason')).toBeVisible();
  await expect(dialog.getByText('Tell your provider a little more')).toBeVisible();
  await screens.checkAccessible();
  await screens.windowShot('requests-early-refill-errors');
  await dialog.getByRole('radio', { name: 'My medicine was lost or damaged' }).check();
  await dialog
    .getByLabel('Tell your provider more')
    .fill('The box got soaked in my bag on a trip; the tablets are ruined.');
  await dialog.getByRole('button', { name: 'Send to my provider' }).click();
  await expect(dialog).toBeHidden();
  await expect(treatment).toContainText('Early refill request');
  await expect(treatment).toContainText('Waiting for your provider');

  // A side effect report says first what cannot wait.
  await treatment.getByRole('button', { name: 'Report a side effect' }).click();
  dialog = page.getByRole('dialog', { name: 'Report a side effect' });
  await expect(dialog).toContainText('call 911 now');
  await screens.checkAccessible();
  await screens.windowShot('requests-side-effect-dialog');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  // And a change of dose.
  await treatment.getByRole('button', { name: 'Ask to change my dose' }).click();
  dialog = page.getByRole('dialog', { name: 'Ask to change my dose' });
  await dialog.getByRole('radio', { name: "It isn't working well enough" }).check();
  await dialog
    .getByLabel('Tell your provider more')
    .fill('50 mg works about half the time. No side effects so far.');
  await dialog.getByRole('button', { name: 'Send to my provider' }).click();
  await expect(dialog).toBeHidden();
  await expect(treatment).toContainText('Dose change request');
  await screens.check('requests-waiting');

  // --- The provider: both requests in the queue; the early refill moves to today.
  await staff.goto('/staff');
  const queue = staff.getByRole('region', { name: /^Requests between visits/ });
  await expect(queue).toContainText(`Early refill request: ${firstName}`);
  await expect(queue).toContainText(`Dose change request: ${firstName}`);
  await staffScreens.check('requests-queue');
  await queue.getByRole('link', { name: `Early refill request: ${firstName} R.` }).click();
  const panel = staff.getByRole('region', { name: 'Early refill request' });
  await expect(panel).toContainText('My medicine was lost or damaged');
  await expect(panel).toContainText('3 fills left');
  await expect(staff.getByText('The box got soaked in my bag')).toBeVisible();
  await staffScreens.check('requests-early-refill-panel');
  await panel.getByRole('button', { name: 'Send the next refill early' }).click();
  const move = staff.getByRole('dialog', { name: 'Send the next refill early?' });
  await move
    .getByLabel('Message to the patient')
    .fill('A new supply goes out today, charged today; your later refills follow from it.');
  await staffScreens.checkAccessible();
  await staffScreens.windowShot('requests-early-refill-dialog');
  await move.getByRole('button', { name: 'Move the refill' }).click();
  await expect(move).toBeHidden();
  await expect(panel).toContainText('Next refill moved to');
  await expect(panel).toContainText('Approved');

  // The dose change: a new prescription from the current one, the dose raised.
  await staff.goto('/staff');
  await queue.getByRole('link', { name: `Dose change request: ${firstName} R.` }).click();
  const dosePanel = staff.getByRole('region', { name: 'Dose change request' });
  await dosePanel.getByRole('button', { name: 'Prescribe a change' }).click();
  const prescribe = staff.getByRole('dialog', { name: 'Prescribe a change?' });
  await expect(prescribe.getByLabel('Directions (sig)')).toHaveValue(directions);
  await prescribe.getByLabel('Dosage').fill('100mg');
  await prescribe
    .getByLabel('Message to the patient')
    .fill('Let us try 100 mg. It starts with your next refill; tell me how it goes.');
  await staffScreens.checkAccessible();
  await staffScreens.windowShot('requests-dose-dialog');
  await prescribe.getByRole('button', { name: 'Prescribe and tell the patient' }).click();
  await expect(prescribe).toBeHidden();
  await expect(dosePanel).toContainText('Prescribed Sildenafil');
  await expect(dosePanel).toContainText('100 mg');
  // Beside the conversation, only the prescription that replaced the one asked about.
  const active = staff.getByRole('region', { name: 'Active prescriptions' });
  await expect(active).toContainText('100 mg');
  await expect(active).not.toContainText('50 mg');
  await staffScreens.check('requests-dose-decided');

  // --- The patient: the card says what was decided; the conversation has the provider's words.
  await page.goto('/subscriptions');
  await expect(treatment).toContainText('Approved: your next refill is sent on');
  await expect(treatment).toContainText('Approved: your provider prescribed Sildenafil');
  await expect(page.getByRole('heading', { level: 2, name: /100 mg/ })).toBeVisible();
  await screens.check('requests-decided');
  await treatment
    .getByRole('link', { name: /Read the conversation/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/messages\?thread=\d+$/);
  await expect(page.getByText('Let us try 100 mg.')).toBeVisible();
  await screens.check('requests-conversation');

  expect(unexpectedProblems(consoleProblems, [])).toEqual([]);
  expect(unexpectedProblems(staffProblems, [])).toEqual([]);
  await staffContext.close();
});
