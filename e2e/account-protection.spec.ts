import type { Page } from '@playwright/test';
import {
  expect,
  nextTotpCode,
  ops,
  submitLogIn,
  submitStaffLogIn,
  test,
  uniqueEmail,
  unexpectedProblems,
} from './fixtures.ts';

/**
 * The account protections in a real browser at 375px and 1280px: an owner on a new device gets in
 * with an emailed one-time link while wrong passwords from elsewhere have paused the account; an
 * email change needs the current password and the old address can undo it; operations staff see
 * the outbox of messages that could not be sent. Every journey uses a fresh customer, so the two
 * viewports and the demo data stay apart.
 */

const pausedMessage =
  'Too many wrong passwords were tried for this account, so log-ins from new devices are paused. If it is your account, we can email you a link that lets this device log in.';
const linkRequested =
  'If that address has an account whose log-ins are paused, we have emailed it a link. Open it on this device within 30 minutes to log in.';
const deviceUnlocked = 'This device can log in now. Log in with your email and password.';
const unlockLinkUsed =
  'This link has expired or has already been used. Try to log in again to ask for a new one.';
const emailRestored =
  'Your email address is back, and every device was logged out. Please choose a new password now.';

/**
 * Refused calls (wrong password 401, paused 429, spent link 400) show in the console as failed
 * requests; they are the journey's point, anything else is not.
 */
const refusals = [400, 401, 429];

async function session(page: Page): Promise<{ authenticated: boolean; email?: string }> {
  const response = await page.request.post('/lapi/account/verifyauthentication/', { data: {} });
  const body = (await response.json()) as {
    data: { authenticated: boolean; user: { email: string } | null };
  };
  return { authenticated: body.data.authenticated, email: body.data.user?.email };
}

test.describe('account protection', () => {
  test('an owner on a new device, paused by wrong passwords from elsewhere, gets in with the emailed one-time link, which works once', async ({
    page,
    playwright,
    baseURL,
    consoleProblems: problems,
    screens,
    newCustomer,
    outbox,
  }) => {
    const { email, password } = await newCustomer('paused');

    // Someone else guesses from a device the account has never seen: a bare API client on our own
    // origin (as a page of ours would send it), with no device cookie. Five wrong passwords pause
    // the account for new devices.
    const stranger = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { Origin: baseURL ?? '' },
    });
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const guess = await stranger.post('/lapi/account/login/', {
        data: { email, password: `wrong guess ${attempt}` },
      });
      expect(guess.status(), await guess.text()).toBe(401);
    }
    const refused = await stranger.post('/lapi/account/login/', {
      data: { email, password: 'wrong guess 6' },
    });
    expect(refused.status()).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'LOGIN_LOCKED', message: pausedMessage });
    expect((await stranger.storageState()).cookies.map((c) => c.name)).not.toContain('pw_device');

    // The owner, on a new device, types the right password and is offered the link instead.
    await page.goto('/login');
    await submitLogIn(page, { email, password });
    const alert = page.getByRole('main').getByRole('alert');
    await expect(alert).toContainText(pausedMessage);
    await expect(page).toHaveURL(/\/login$/);
    expect((await session(page)).authenticated).toBe(false);
    await screens.check('login-paused');

    await alert.getByRole('button', { name: 'Email me a link' }).click();
    await expect(alert).toHaveText(linkRequested);
    await expect(page.getByRole('button', { name: 'Email me a link' })).toHaveCount(0);
    await screens.check('login-link-sent');

    const link = await outbox.link(email, 'Log in to Pairwell on a new device', '/login/unlock');
    // No password travels in the email.
    expect(await outbox.text(email, 'Log in to Pairwell on a new device')).not.toContain(password);

    // Opening the link spends nothing: only the button does.
    await page.goto(link);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Log in on this device' }),
    ).toBeVisible();
    await expect(page.getByLabel('Password', { exact: true })).toHaveCount(0);
    await screens.check('login-unlock');

    await page.getByRole('button', { name: 'Let this device log in' }).click();
    await expect(page.getByRole('main').getByRole('alert')).toHaveText(deviceUnlocked);
    await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
    await expect(
      page.getByRole('main').getByRole('link', { name: 'Forgot password?' }),
    ).toHaveCount(1);
    await screens.check('login-unlock-ready');
    await submitLogIn(page, { email, password });
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Jordan');
    expect(await session(page)).toEqual({ authenticated: true, email });
    expect((await page.context().cookies()).map((c) => c.name)).toContain('pw_device');

    // Only this device was let in: the stranger is still refused before any password is checked.
    const stillPaused = await stranger.post('/lapi/account/login/', {
      data: { email, password },
    });
    expect(stillPaused.status()).toBe(429);
    await stranger.dispose();

    // The same link a second time does nothing and says why.
    await page.goto('/logout');
    await expect(page).toHaveURL(/\/login$/);
    await page.goto(link);
    await page.getByRole('button', { name: 'Let this device log in' }).click();
    const used = page.getByRole('main').getByRole('alert');
    await expect(used).toContainText(unlockLinkUsed);
    await expect(used.getByRole('link', { name: 'Back to log in' })).toHaveAttribute(
      'href',
      '/login',
    );
    await expect(page.getByLabel('Password', { exact: true })).toHaveCount(0);
    await screens.check('login-unlock-used');
    expect(unexpectedProblems(problems, refusals)).toEqual([]);
  });

  test('a new email needs the current password, the old address is told, and its undo link puts it back and logs the customer out', async ({
    page,
    consoleProblems: problems,
    screens,
    accountNav,
    newCustomer,
    logIn,
    outbox,
  }) => {
    const { email: oldEmail, password } = await newCustomer('moving');
    const newEmail = uniqueEmail('moved');
    await logIn({ email: oldEmail, password });

    await (await accountNav()).getByRole('link', { name: 'Accounts' }).click();
    await expect(page).toHaveURL(/\/accounts$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Accounts' })).toBeVisible();
    const details = page.getByRole('region', { name: 'Account details' });
    await expect(details.getByLabel('Email')).toHaveValue(oldEmail);
    await expect(details.getByLabel('Current password')).toHaveCount(0);

    // Typing a new address asks for the password; saving without it says so and sends nothing.
    await details.getByLabel('Email').fill(newEmail);
    await expect(details.getByLabel('Current password')).toBeVisible();
    await details.getByRole('button', { name: 'Save details' }).click();
    await expect(
      details.getByText('Enter your current password to change your email.'),
    ).toBeVisible();
    await expect(details.getByLabel('Current password')).toBeFocused();
    await screens.check('accounts-email-needs-password');

    await details.getByLabel('Current password').fill('not my password');
    await details.getByRole('button', { name: 'Save details' }).click();
    await expect(details.getByText('Your current password is incorrect.')).toBeVisible();
    expect((await session(page)).email).toBe(oldEmail);

    await details.getByLabel('Current password').fill(password);
    await details.getByRole('button', { name: 'Save details' }).click();
    // Nothing changes until the link mailed to the new address is opened (issue 26).
    await expect(
      details.getByText(`We sent a link to ${newEmail} — your address changes when you open it.`),
    ).toBeVisible();
    await expect(details.getByLabel('Current password')).toHaveCount(0);
    await expect(details.getByLabel('Email')).toHaveValue(oldEmail);
    expect(await session(page)).toEqual({ authenticated: true, email: oldEmail });
    await screens.check('accounts-email-change-pending');

    await page.goto(await outbox.link(newEmail, 'Confirm your new email address', '/verify-email'));
    await page.getByRole('button', { name: 'Confirm my email address' }).click();
    await expect(page.getByRole('main').getByRole('alert')).toContainText(
      `Your email address is now ${newEmail}.`,
    );
    expect(await session(page)).toEqual({ authenticated: true, email: newEmail });
    await page.goto('/accounts');
    await expect(
      page.getByRole('region', { name: 'Account details' }).getByLabel('Email'),
    ).toHaveValue(newEmail);
    await screens.check('accounts-email-changed');

    // The old address gets the notice, naming the new one only masked, with the undo link.
    const subject = 'Your Pairwell email address was changed';
    const undo = await outbox.link(oldEmail, subject, '/undo-email-change');
    const notice = await outbox.text(oldEmail, subject);
    expect(notice).toContain('m***@example.test');
    expect(notice).not.toContain(newEmail);

    // Opened in this browser: nothing happens until the button is pressed.
    await page.goto(undo);
    await expect(page.getByRole('heading', { level: 1, name: 'Undo email change' })).toBeVisible();
    expect((await session(page)).email).toBe(newEmail);
    await screens.check('undo-email-change');

    await page.getByRole('button', { name: 'Put my email address back' }).click();
    await expect(page.getByRole('main').getByRole('alert')).toHaveText(emailRestored);
    await expect(page.getByRole('button', { name: 'Put my email address back' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Choose a new password' })).toHaveAttribute(
      'href',
      '/reset-password',
    );
    // Logged out here as everywhere: the header offers to log in, the member area sends to /login.
    expect((await session(page)).authenticated).toBe(false);
    await expect(page.getByRole('banner').getByRole('button', { name: 'Log in' })).toBeVisible();
    await screens.check('undo-email-change-done');

    await page.goto('/accounts');
    await expect(page).toHaveURL(/\/login$/);
    await submitLogIn(page, { email: newEmail, password });
    await expect(page.getByText('The email or password you entered is incorrect.')).toBeVisible();
    await submitLogIn(page, { email: oldEmail, password });
    await expect(page).toHaveURL(/\/accounts$/);
    await expect(
      page.getByRole('region', { name: 'Account details' }).getByLabel('Email'),
    ).toHaveValue(oldEmail);
    expect(unexpectedProblems(problems, refusals)).toEqual([]);
  });

  test('operations staff open the outbox from the console navigation and see that nothing waits', async ({
    page,
    consoleProblems: problems,
    screens,
  }) => {
    await page.goto('/staff');
    await expect(page).toHaveURL(/\/staff\/login$/);
    // Each code works once: nextTotpCode takes a step no log-in has used.
    await submitStaffLogIn(page, ops, await nextTotpCode(ops.secret));
    await expect(page).toHaveURL(/\/staff$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible();

    const consoleNav = page.getByRole('navigation', { name: 'Console' });
    await consoleNav.getByRole('link', { name: 'Outbox' }).click();
    await expect(page).toHaveURL(/\/staff\/outbox$/);
    await expect(page).toHaveTitle('Outbox — Pairwell Staff');
    await expect(page.getByRole('heading', { level: 1, name: 'Outbox' })).toBeVisible();
    await expect(consoleNav.getByRole('link', { name: 'Outbox' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(page.getByText('Every email and text message has been sent.')).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Nothing to do' })).toBeVisible();
    await expect(
      page.getByText(
        'When an email or a text message cannot be sent after several tries, or waits longer than 15 minutes, it appears here so you can send it again.',
      ),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send again' })).toHaveCount(0);
    await screens.check('staff-outbox');

    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/staff\/login$/);
    expect(unexpectedProblems(problems, refusals)).toEqual([]);
  });
});
