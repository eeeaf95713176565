import type { Page } from '@playwright/test';
import {
  createCustomer,
  expect,
  logOutThroughApi,
  placeOrderThroughApi,
  submitLogIn,
  test,
  unexpectedProblems,
  watchConsole,
  type Credentials,
} from './fixtures.ts';

/**
 * Two customers in two browsers (issue 16): Alex invites Sam, Sam accepts, Alex shares the
 * shipping address and store orders (not the subscription), Sam sees exactly those, Alex unlinks
 * quietly, and Sam then sees nothing and is sent no email. At 375px and 1280px, axe-checked.
 */

const linkEnded = 'Your partner link on Pairwell has ended';

async function logInOn(page: Page, who: Credentials): Promise<void> {
  await page.goto('/login');
  await submitLogIn(page, who);
  await expect(page).toHaveURL(/\/dashboard$/);
}

test('partners: invite, accept, share item by item, quiet unlink', async ({
  page,
  browser,
  screens,
  consoleProblems,
  outbox,
}, testInfo) => {
  // Alex has bought Sleep Gummies monthly: a store order, a subscription and an address on file.
  const alex = await createCustomer(page.request, 'alex-partner', {
    firstName: 'Alex',
    lastName: 'Moreno',
  });
  const order = await placeOrderThroughApi(page.request, { productId: 41, quantity: 1 });
  await logOutThroughApi(page.request);

  const samContext = await browser.newContext({
    baseURL: testInfo.project.use.baseURL ?? '',
    viewport: testInfo.project.use.viewport ?? { width: 1280, height: 800 },
  });
  const sam = await samContext.newPage();
  const samProblems = watchConsole(sam);
  const samScreens = screens.of(sam);
  const samCustomer = await createCustomer(sam.request, 'sam-partner', {
    firstName: 'Sam',
    lastName: 'Lee',
  });
  await logOutThroughApi(sam.request);

  // --- Alex, not linked: Home says how it works and what stays private; Accounts leads to Partner.
  await logInOn(page, alex);
  const together = page.getByRole('region', { name: 'Together' });
  await expect(together.getByText('Never shared with a partner')).toBeVisible();
  await expect(together.getByText('Messages with your care team')).toBeVisible();
  await screens.check('home-together-unlinked');

  await page.goto('/accounts');
  await page.getByRole('link', { name: 'Partner settings' }).click();
  await expect(page).toHaveURL(/\/accounts\/partner$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Partner' })).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Never shared with a partner' }).getByText('Your photo ID'),
  ).toBeVisible();
  await screens.check('partner-unlinked');

  await page.getByLabel("Your partner's email").fill(samCustomer.email);
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`Invitation sent to ${samCustomer.email}.`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Withdraw invitation' })).toBeVisible();
  await screens.check('partner-invited');

  // --- Sam: the invitation waits on Home and on the partner page; Sam accepts.
  await logInOn(sam, samCustomer);
  const samTogether = sam.getByRole('region', { name: 'Together' });
  await expect(samTogether.getByText('invited you to link as partners')).toBeVisible();
  await samScreens.check('home-together-invitation');
  await samTogether.getByRole('link', { name: 'See the invitation' }).click();
  await expect(sam).toHaveURL(/\/accounts\/partner$/);
  await expect(sam.getByText('Alex invited you to link as partners.')).toBeVisible();
  await samScreens.check('partner-invitation-received');
  await sam.getByRole('button', { name: 'Accept' }).click();
  await expect(sam.getByText(/You are linked with\s*Alex/)).toBeVisible();
  await expect(sam.getByText("Alex isn't sharing anything with you yet.")).toBeVisible();

  // --- Alex chooses: the address and store orders, not the subscription.
  await page.reload();
  await expect(page.getByText(/You are linked with\s*Sam/)).toBeVisible();
  for (const name of ['Shipping address', 'Store orders and their tracking']) {
    const toggle = page.getByRole('switch', { name });
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
  }
  await expect(
    page.getByRole('switch', { name: 'Supplement subscriptions and their next dates' }),
  ).toHaveAttribute('aria-checked', 'false');
  await expect(page.getByText(/You started sharing your shipping address on/)).toBeVisible();
  await screens.check('partner-linked');

  // --- Sam sees exactly those.
  await sam.reload();
  const sharedWithSam = sam.getByRole('region', { name: 'What Alex shares with you' });
  await expect(sharedWithSam.getByText('500 Market Street')).toBeVisible();
  await expect(sharedWithSam.getByText(`Order #${order.order_number}`)).toBeVisible();
  await expect(sharedWithSam.getByText('Supplement subscriptions')).toHaveCount(0);
  await samScreens.check('partner-shared-view');
  await sam.goto('/dashboard');
  await expect(
    samTogether.getByText(
      'Alex shares with you: shipping address and store orders and their tracking.',
    ),
  ).toBeVisible();
  await samScreens.check('home-together-linked');

  // --- Alex unlinks quietly.
  await page.getByRole('button', { name: 'Unlink' }).click();
  const dialog = page.getByRole('dialog', { name: 'Unlink from Sam?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('checkbox', { name: "Don't notify Sam" }).check();
  await expect(dialog.getByText('Sam gets no email.', { exact: false })).toBeVisible();
  await screens.expectAccessible();
  await screens.windowShot('partner-unlink-dialog');
  await dialog.getByRole('button', { name: 'Unlink' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByLabel("Your partner's email")).toBeVisible();
  await expect(page.getByText(/You unlinked from Sam on .*, without notifying them/)).toBeVisible();
  await screens.check('partner-after-unlink');

  // --- Sam, at once: nothing shared, no partner, and no email about it.
  await sam.goto('/accounts/partner');
  await expect(sam.getByText(/Your link with Alex ended on/)).toBeVisible();
  await expect(sam.getByRole('region', { name: 'What Alex shares with you' })).toHaveCount(0);
  await expect(sam.getByText('500 Market Street')).toHaveCount(0);
  const shared = await sam.request.post('/lapi/partners/shared/', { data: {} });
  expect(((await shared.json()) as { data: unknown }).data).toEqual({
    partner: null,
    address: null,
    orders: null,
    subscriptions: null,
  });
  expect(await outbox.text(samCustomer.email, linkEnded)).toBe('');
  await samScreens.check('partner-unlinked-other-side');

  expect(unexpectedProblems(consoleProblems, [])).toEqual([]);
  expect(unexpectedProblems(samProblems, [])).toEqual([]);
  await samContext.close();
});

test('the home page and the FAQ say what a partner can and cannot see', async ({
  page,
  screens,
  consoleProblems,
}) => {
  await page.goto('/');
  const couples = page.getByRole('region', { name: 'For couples' });
  await expect(
    couples.getByRole('heading', { name: 'What your partner can see, only if you choose' }),
  ).toBeVisible();
  await expect(couples.getByText('Store orders and their tracking')).toBeVisible();
  await expect(couples.getByText('Messages with your care team')).toBeVisible();
  await couples.scrollIntoViewIfNeeded();
  await screens.expectAccessible();
  await screens.windowShot('home-for-couples');

  await page.goto('/faq');
  const question = page.getByText('What can my partner see if we link our accounts?');
  await question.click();
  await expect(page.getByText(/Your partner never sees these, and no setting/)).toBeVisible();
  await screens.expectAccessible();
  expect(unexpectedProblems(consoleProblems, [])).toEqual([]);
});
