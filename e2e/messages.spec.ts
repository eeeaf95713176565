import crypto from 'node:crypto';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { expectAccessible, screenshot, watchConsole } from './helpers.ts';

/**
 * Messages in a real browser at 375px and 1280px: a new patient's empty state, a new conversation
 * with the care team checked for a subject and a message, and the conversation that follows.
 */

async function checkAccessible(page: Page) {
  await expect(page.getByRole('button', { name: 'Dismiss notification' })).toHaveCount(0, {
    timeout: 15_000,
  });
  await expectAccessible(page);
}

async function shot(page: Page, testInfo: TestInfo, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, testInfo, name);
}

test('a new patient writes to the care team from an empty Messages page', async ({
  page,
}, testInfo) => {
  const problems = watchConsole(page);
  const email = `messages-${crypto.randomBytes(5).toString('hex')}@example.test`;
  const password = 'a long enough passphrase';
  const created = await page.request.post('/lapi/account/create/', {
    data: {
      email,
      first_name: 'Casey',
      last_name: 'Lin',
      password,
      dob: '03/03/1990',
      phoneNo: '5035550188',
      consent: true,
    },
  });
  expect(created.status()).toBe(200);
  await page.context().clearCookies();
  await page.goto('/login');
  const form = page
    .locator('main form')
    .filter({ has: page.getByLabel('Password', { exact: true }) });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  if (testInfo.project.name === 'mobile')
    await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('link', { name: 'Messages' }).first().click();
  await expect(page).toHaveURL(/\/messages$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
  await expect(page.getByText('You have no messages yet.', { exact: false })).toBeVisible();
  await checkAccessible(page);
  await shot(page, testInfo, 'messages-empty');

  await page.getByRole('button', { name: 'New message' }).click();
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText('Add a subject')).toBeVisible();
  await expect(page.getByText('Write a message')).toBeVisible();
  await checkAccessible(page);
  await shot(page, testInfo, 'messages-new');
  await page.getByLabel('Subject').fill('A question about refills');
  await page.getByLabel('Message', { exact: true }).fill('How do refills work?');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText('Your message was sent to your care team.').first()).toBeVisible();
  await expect(
    page.getByRole('heading', { level: 2, name: 'A question about refills' }),
  ).toBeVisible();
  await expect(page.getByRole('log').getByText('How do refills work?')).toBeVisible();
  await checkAccessible(page);
  await shot(page, testInfo, 'messages-sent');
  expect(problems).toEqual([]);
});
