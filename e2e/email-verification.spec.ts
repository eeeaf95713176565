import {
  createCustomer,
  expect,
  logOutThroughApi,
  submitLogIn,
  test,
  uniqueEmail,
  unexpectedProblems,
} from './fixtures.ts';

/**
 * Identity rests on proof (issue 26). Sam signs up with the address Alex invited, but a typed
 * address proves nothing: the partner page says the invitation waits for a confirmed address and
 * shows none. Sam sends the link again, opens it from the outbox, confirms, and then sees and
 * accepts Alex's invitation. Then Sam changes their email: nothing changes until the link mailed to
 * the new address is opened; a used link says so. At 375px and 1280px, axe-checked.
 */

const waiting = 'Confirm your email address to see or accept partner invitations.';
const usedLink =
  'This link has expired or has already been used. Log in and send yourself a new one.';

test('email verification: an invitation waits for a confirmed address; an email change waits for its link', async ({
  page,
  request,
  screens,
  consoleProblems,
  outbox,
}) => {
  test.setTimeout(120_000);
  // Alex (confirmed) invites an address nobody has used yet.
  const alex = await createCustomer(request, 'alex-verify', { firstName: 'Alex' });
  const samEmail = uniqueEmail('sam-verify');
  const invited = await request.post('/lapi/partners/invite/', { data: { email: samEmail } });
  expect(invited.status(), await invited.text()).toBe(200);
  await logOutThroughApi(request);
  expect(alex.email).not.toBe(samEmail);

  // Sam signs up with that address in the browser and has not confirmed it.
  const sam = await createCustomer(
    page.request,
    'sam-verify',
    { firstName: 'Sam' },
    { email: samEmail, verified: false },
  );
  await logOutThroughApi(page.request);
  await page.goto('/login');
  await submitLogIn(page, sam);
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/accounts/partner');
  await expect(page.getByText(waiting)).toBeVisible();
  await expect(page.getByText('Alex invited you to link as partners.')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Accept' })).toHaveCount(0);
  await screens.check('verify-partner-waiting');

  await page.getByRole('button', { name: 'Send the link again' }).click();
  await expect(
    page.getByText(`We sent a new link to ${samEmail}. It works once, within 48 hours.`, {
      exact: true,
    }),
  ).toBeVisible();

  // The new link replaces the sign-up's: wait until the outbox has sent it (bounded, as a person
  // refreshing their inbox would), then open it. The page spends nothing until the button is pressed.
  const confirmations = async () =>
    (
      (await (await request.get('/dev/outbox.json')).json()) as {
        messages: { to: string; subject: string }[];
      }
    ).messages.filter((m) => m.to === samEmail && m.subject === 'Confirm your email address')
      .length;
  await expect.poll(confirmations, { timeout: 15_000 }).toBe(2);
  const link = await outbox.link(samEmail, 'Confirm your email address', '/verify-email');
  await page.goto(link);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Confirm your email address' }),
  ).toBeVisible();
  await screens.check('verify-email');
  await page.getByRole('button', { name: 'Confirm my email address' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    'Your email address is confirmed.',
  );
  await screens.check('verify-email-done');

  // Now the invitation to the confirmed address shows, and Sam accepts it.
  await page.getByRole('link', { name: 'Go to your account' }).click();
  await expect(page).toHaveURL(/\/accounts\/partner$/);
  await expect(page.getByText('Alex invited you to link as partners.')).toBeVisible();
  await expect(page.getByText(waiting)).toHaveCount(0);
  await screens.check('verify-partner-invitation');
  await page.getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByText(/You are linked with\s*Alex/)).toBeVisible();

  // The link works once.
  await page.goto(link);
  await page.getByRole('button', { name: 'Confirm my email address' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toContainText(usedLink);
  await expect(page.getByRole('link', { name: 'Send yourself a new link' })).toBeVisible();
  await screens.check('verify-email-used');

  // --- An email change waits for the new address's link.
  const newEmail = uniqueEmail('sam-moved');
  await page.goto('/accounts');
  const details = page.getByRole('region', { name: 'Account details' });
  await details.getByLabel('Email').fill(newEmail);
  await details.getByLabel('Current password').fill(sam.password);
  await details.getByRole('button', { name: 'Save details' }).click();
  await expect(
    details.getByText(`We sent a link to ${newEmail} — your address changes when you open it.`),
  ).toBeVisible();
  await expect(details.getByLabel('Email')).toHaveValue(samEmail);
  await screens.check('verify-email-change-pending');

  await page.goto(await outbox.link(newEmail, 'Confirm your new email address', '/verify-email'));
  await page.getByRole('button', { name: 'Confirm my email address' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    `Your email address is now ${newEmail}. We told your old address, and logged out your other devices.`,
  );
  await screens.check('verify-email-changed');
  await page.goto('/accounts');
  await expect(
    page.getByRole('region', { name: 'Account details' }).getByLabel('Email'),
  ).toHaveValue(newEmail);
  await expect(page.getByText(/We sent a link to/)).toHaveCount(0);
  // The old address is told, with its undo link (decision 004).
  expect(await outbox.text(samEmail, 'Your Pairwell email address was changed')).toContain(
    '/undo-email-change?id=',
  );
  // The used link's refusal is the one expected failed request.
  expect(unexpectedProblems(consoleProblems, [400])).toEqual([]);
});
