import { expect, test } from './fixtures.ts';

/**
 * Messages in a real browser at 375px and 1280px: a new patient's empty state, a new conversation
 * with the care team checked for a topic, a subject and a message, and the conversation that
 * follows.
 */

test('a new patient writes to the care team from an empty Messages page', async ({
  page,
  consoleProblems: problems,
  screens,
  accountNav,
  newCustomer,
  logIn,
}) => {
  const patient = await newCustomer('messages', { firstName: 'Casey', lastName: 'Lin' });
  await logIn(patient);

  await accountNav();
  await page.getByRole('link', { name: 'Messages' }).first().click();
  await expect(page).toHaveURL(/\/messages$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
  await expect(page.getByText('You have no messages yet.', { exact: false })).toBeVisible();
  await screens.checkAccessible();
  await screens.shot('messages-empty');

  await page.getByRole('button', { name: 'New message' }).click();
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText('Choose what your message is about')).toBeVisible();
  await expect(page.getByText('Add a subject')).toBeVisible();
  await expect(page.getByText('Write a message')).toBeVisible();
  await screens.checkAccessible();
  await screens.shot('messages-new');
  await page.getByRole('radio', { name: /Something else/ }).check();
  await page.getByLabel('Subject').fill('A question about refills');
  await page.getByLabel('Message', { exact: true }).fill('How do refills work?');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText('Your message was sent to your care team.').first()).toBeVisible();
  await expect(
    page.getByRole('heading', { level: 2, name: 'A question about refills' }),
  ).toBeVisible();
  await expect(page.getByRole('log').getByText('How do refills work?')).toBeVisible();
  await screens.checkAccessible();
  await screens.shot('messages-sent');
  expect(problems).toEqual([]);
});
