import {
  createCustomer,
  expect,
  logOutThroughApi,
  provider,
  submitLogIn,
  test,
  unexpectedProblems,
  watchConsole,
} from './fixtures.ts';
import { submitEdVisit } from './visit-helpers.ts';

/**
 * Together for a visit (issue 16), in two browsers: Alex and Sam are linked; a provider declines
 * Alex's ED visit; from it, Alex invites Sam to start their own, without saying Alex started one
 * (the default). Sam sees only that suggestion on Home and the partner page, with "Start your
 * visit" and "Dismiss": nothing of Alex's visit. At 375px and 1280px, axe-checked.
 */
test('partners: a visit invitation from a finished visit, without saying one was started', async ({
  page,
  browser,
  screens,
  consoleProblems,
  staffLogIn,
}, testInfo) => {
  const alex = await createCustomer(page.request, 'alex-visit', {
    firstName: 'Alex',
    lastName: 'Moreno',
  });
  const samContext = await browser.newContext({
    baseURL: testInfo.project.use.baseURL ?? '',
    viewport: testInfo.project.use.viewport ?? { width: 1280, height: 800 },
  });
  const sam = await samContext.newPage();
  const samProblems = watchConsole(sam);
  const samScreens = screens.of(sam);
  const samCustomer = await createCustomer(sam.request, 'sam-visit', {
    firstName: 'Sam',
    lastName: 'Lee',
  });

  // Linked through the API (the linking screens are partners.spec's).
  const invited = await page.request.post('/lapi/partners/invite/', {
    data: { email: samCustomer.email },
  });
  expect(invited.status(), await invited.text()).toBe(200);
  const waiting = (await (await sam.request.post('/lapi/partners/', { data: {} })).json()) as {
    data: { received: { invitation_id: number }[] };
  };
  const accepted = await sam.request.post('/lapi/partners/invite/accept/', {
    data: { invitation_id: waiting.data.received[0]?.invitation_id },
  });
  expect(accepted.status(), await accepted.text()).toBe(200);

  // Alex's ED visit, declined by a provider: a finished visit.
  const { visitId } = await submitEdVisit(page.request, alex.leadsId);
  const staffContext = await browser.newContext({
    baseURL: testInfo.project.use.baseURL ?? '',
  });
  const staff = await staffContext.newPage();
  await staffLogIn(provider, staff);
  const declined = await staff.request.post('/lapi/staff/visits/decline/', {
    data: { visit_id: visitId, reason: 'Not a good fit for this treatment today.' },
  });
  expect(declined.status(), await declined.text()).toBe(200);
  await staffContext.close();
  // Both log in through the screens from here.
  await logOutThroughApi(page.request);
  await logOutThroughApi(sam.request);

  // --- Alex, on the partner page: invite Sam from the ED visit, the "started" box left off.
  await page.goto('/login');
  await submitLogIn(page, alex);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/accounts/partner');
  const together = page.getByRole('region', { name: 'Together for a visit' });
  const reveal = together.getByRole('checkbox', { name: 'Let Sam know I started a visit' });
  await expect(reveal).not.toBeChecked();
  await screens.check('partner-visit-invite');
  await together.getByRole('button', { name: 'Invite Sam to an ED visit' }).click();
  await expect(page.getByText('Invitation sent.', { exact: true })).toBeVisible();
  await expect(
    together.getByText('Your invitation to start an ED visit is waiting for Sam.'),
  ).toBeVisible();
  await expect(
    page.getByText(/You invited Sam to start their own ED visit on .*, without saying/),
  ).toBeVisible();
  await screens.check('partner-visit-invite-sent');

  // --- Sam: the suggestion on Home, and nothing of Alex's visit.
  await sam.goto('/login');
  await submitLogIn(sam, samCustomer);
  await expect(sam).toHaveURL(/\/dashboard$/);
  const card = sam.getByRole('region', { name: 'Together' });
  await expect(card.getByText('Alex thinks an ED visit might be worth a look.')).toBeVisible();
  await expect(card).not.toContainText(/started|declined|Not a good fit/i);
  await samScreens.check('home-together-visit-invitation');
  await expect(card.getByRole('link', { name: 'Start your visit' })).toHaveAttribute(
    'href',
    '/visit/ed',
  );
  // No email names it (the program is health information).
  const mail = (await (await page.request.get('/dev/outbox.json')).json()) as {
    messages: { to: string; subject: string; text: string }[];
  };
  const toSam = mail.messages.filter((m) => m.to === samCustomer.email);
  expect(toSam.filter((m) => /\bED\b|worth a look|started a/.test(m.subject + m.text))).toEqual([]);

  await sam.goto('/accounts/partner');
  const samTogether = sam.getByRole('region', { name: 'Together for a visit' });
  await expect(
    samTogether.getByText('Alex thinks an ED visit might be worth a look.'),
  ).toBeVisible();
  await samScreens.check('partner-visit-invitation-received');
  await samTogether.getByRole('button', { name: 'Dismiss the ED visit invitation' }).click();
  await expect(sam.getByRole('region', { name: 'Together for a visit' })).toHaveCount(0);
  await expect(sam.getByText(/You dismissed Alex's suggestion of an ED visit on/)).toBeVisible();

  expect(unexpectedProblems(consoleProblems, [])).toEqual([]);
  expect(unexpectedProblems(samProblems, [])).toEqual([]);
  await samContext.close();
});
