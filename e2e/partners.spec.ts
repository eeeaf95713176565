import type { Page } from '@playwright/test';
import {
  createCustomer,
  expect,
  fillCard,
  ops,
  logOutThroughApi,
  placeOrderThroughApi,
  submitLogIn,
  test,
  unexpectedProblems,
  watchConsole,
  type Credentials,
} from './fixtures.ts';
import { offers } from '../src/shared/catalog.ts';

/**
 * Two customers in two browsers (issue 16): Alex invites Sam, Sam accepts, Alex shares the
 * shipping address and store orders (not the subscription), Sam sees exactly those, Sam ships a
 * store order to Alex's shared address (Alex sees it coming, operations see the link and the
 * address), Alex gives Sam a gift subscription (Sam accepts and chooses the address; Alex sees
 * "Ships to Sam", never the address), Alex proposes a couples' plan at the couples' price and Sam
 * accepts, Alex unlinks quietly, and Sam then sees nothing, is sent no email, reads that the gift
 * and the plan ended, and can no longer ship to Alex. At 375px and 1280px, axe-checked.
 */

const linkEnded = 'Your partner link on Pairwell has ended';

async function logInOn(page: Page, who: Credentials): Promise<void> {
  await page.goto('/login');
  await submitLogIn(page, who);
  await expect(page).toHaveURL(/\/dashboard$/);
}

test("partners: invite, accept, share item by item, ship to the partner, gift, couples' plan, quiet unlink", async ({
  page,
  browser,
  screens,
  consoleProblems,
  outbox,
  staffLogIn,
}, testInfo) => {
  // Two people and a staff member through every step of a couple's life. It took 4.2 min at 375 px
  // in CI with both widths' journeys running at once on two cores, and passed 300 s at 1280 px once
  // (two staff log-ins may each wait up to 30 s for a fresh authenticator step): a guard, not a
  // timing.
  test.setTimeout(600_000);
  // Alex has bought Sleep Gummies monthly: a store order, a subscription and an address on file.
  const alex = await createCustomer(page.request, 'alex-partner', {
    firstName: 'Alex',
    lastName: 'Moreno',
  });
  const order = await placeOrderThroughApi(page.request, {
    productId: offers.sleep.monthly,
    quantity: 1,
  });
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
  // Sam has an address of their own, for a gift to ship to (Sam has no card: Alex pays).
  const samAddress = await sam.request.post('/lapi/account/address/', {
    data: {
      leads_id: samCustomer.leadsId,
      address: '12 Elm Street',
      city: 'Portland',
      state: 'OR',
      zip: '97205',
      billing_address: '12 Elm Street',
      billing_city: 'Portland',
      billing_state: 'OR',
      billing_zip: '97205',
      phoneNo: '5035550188',
      smsallow: 0,
    },
  });
  expect(samAddress.status(), await samAddress.text()).toBe(200);
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

  // --- Sam shares their store orders, then ships a store order to the address Alex shares.
  await sam.goto('/accounts/partner');
  const samOrders = sam.getByRole('switch', { name: 'Store orders and their tracking' });
  await samOrders.click();
  await expect(samOrders).toHaveAttribute('aria-checked', 'true');
  const added = await sam.request.post('/lapi/v2/ecom/add-product', {
    data: { product_id: offers.sleep.quarterly, quantity: 1 },
  });
  expect(added.status(), await added.text()).toBe(200);
  await sam.goto('/checkout/shipping');
  await sam.getByRole('radio', { name: /Ship to Alex/ }).check();
  await expect(sam.getByRole('radio', { name: /Ship to Alex.*500 Market Street/ })).toBeChecked();
  // Only the phone is Sam's to give: the address is the one Alex shares.
  await expect(sam.getByLabel('Street address')).toHaveCount(0);
  await sam.getByLabel('Phone').fill('(503) 555-0166');
  await samScreens.check('checkout-ship-to-partner');
  await sam.getByRole('button', { name: 'Continue' }).click();
  await expect(sam).toHaveURL(/\/checkout\/upsell$/);
  await sam.getByRole('link', { name: 'No thanks, continue' }).click();
  await expect(sam).toHaveURL(/\/checkout\/payment$/);
  await expect(sam.getByText('Shipping to Alex')).toBeVisible();
  await fillCard(sam, '4242 4242 4242 4242');
  await sam.getByRole('button', { name: 'Place order' }).click();
  await expect(sam).toHaveURL(/\/checkout\/complete$/);
  await expect(sam.getByText('Shipping to Alex')).toBeVisible();
  await samScreens.check('checkout-complete-to-partner');
  const samLeads = await sam.evaluate(() => localStorage.getItem('leads_id'));
  const samHistory = await sam.request.post('/lapi/account/orders/', {
    data: { leads_id: samLeads },
  });
  const toAlex = Object.values(
    (
      (await samHistory.json()) as {
        message: {
          order_history: Record<
            string,
            { orders_id: number; order_number: string; ship_to_partner?: unknown }
          >;
        };
      }
    ).message.order_history,
  ).find((o) => o.ship_to_partner);
  expect(toAlex).toBeDefined();

  // --- Alex sees it is on its way to them (Sam shares store orders), and nothing clinical.
  await page.goto('/accounts/partner');
  const sharedWithAlex = page.getByRole('region', { name: 'What Sam shares with you' });
  const incoming = sharedWithAlex.getByRole('listitem').filter({
    hasText: `Order #${toAlex!.order_number}`,
  });
  await expect(incoming.getByText('Shipping to you')).toBeVisible();
  await screens.check('partner-order-shipping-to-you');

  // --- Operations: the link and the address shared, to ship correctly.
  const opsContext = await browser.newContext({
    baseURL: testInfo.project.use.baseURL ?? '',
    viewport: testInfo.project.use.viewport ?? { width: 1280, height: 800 },
  });
  const opsPage = await opsContext.newPage();
  const opsProblems = watchConsole(opsPage);
  await staffLogIn(ops, opsPage);
  await opsPage.goto(`/staff/orders/${toAlex!.orders_id}`);
  const shippingPanel = opsPage.getByRole('region', { name: 'Shipping address' });
  await expect(
    shippingPanel.getByText(/Ships to the customer's partner, Alex \(customer \d+\)/),
  ).toBeVisible();
  await expect(shippingPanel.getByText('500 Market Street')).toBeVisible();
  await screens.of(opsPage).check('ops-order-ships-to-partner');
  expect(unexpectedProblems(opsProblems, [])).toEqual([]);
  await opsContext.close();

  // --- Alex gives Sam a subscription (decision 018): billed to Alex's card once Sam accepts.
  await page.goto('/accounts/partner');
  const togetherAlex = page.getByRole('region', { name: 'Together with Sam' });
  const give = togetherAlex.getByRole('region', { name: 'Give Sam a subscription' });
  await expect(
    give.getByText('Billed to your Visa ending 4242, only once it is accepted.'),
  ).toBeVisible();
  await give.getByLabel('Supplement').selectOption({ label: 'Sleep Gummies, $17.50' });
  await expect(
    give.getByText('Sam gets Sleep Gummies, 1 bottle a month, $17.50 each delivery.'),
  ).toBeVisible();
  await give.getByRole('button', { name: 'Give Sam a subscription' }).click();
  const alexGift = togetherAlex.getByRole('article', { name: 'Your gift to Sam: Sleep Gummies' });
  await expect(
    alexGift.getByText('Waiting for Sam to accept. Nothing is charged until then.'),
  ).toBeVisible();
  await screens.check('partner-gift-waiting');

  // --- Sam: a gift waits on Home and the partner page; Sam accepts, choosing the address.
  await sam.goto('/dashboard');
  await expect(samTogether.getByText('A gift from Alex is waiting for you.')).toBeVisible();
  await samScreens.check('home-together-gift-waiting');
  await samTogether.getByRole('link', { name: 'See the gift' }).click();
  const samGift = sam.getByRole('article', { name: 'A gift from Alex: Sleep Gummies' });
  await expect(samGift.getByText(/Nothing is charged until you accept/)).toBeVisible();
  await samGift.getByLabel('Where it ships').selectOption('shipping');
  await samScreens.check('partner-gift-received');
  await samGift.getByRole('button', { name: 'Accept the gift' }).click();
  await expect(samGift.getByText(/^Next delivery/)).toBeVisible();
  await expect(samGift.getByText(/Ships to 12 Elm Street, Portland, OR 97205/)).toBeVisible();
  await expect(samGift.getByRole('button', { name: 'Skip next delivery' })).toBeVisible();
  await expect(samGift.getByRole('button', { name: 'End the gift' })).toHaveCount(0);

  // --- Alex: running and billed to the card; it ships to Sam, whose address Alex does not see.
  await page.reload();
  await expect(alexGift.getByText(/^Next delivery/)).toBeVisible();
  await expect(
    alexGift.getByText('Ships to Sam · $17.50 each delivery, billed to your Visa ending 4242'),
  ).toBeVisible();
  await expect(page.getByText('12 Elm Street')).toHaveCount(0);
  await expect(alexGift.getByRole('button', { name: 'Skip next delivery' })).toHaveCount(0);

  // --- Alex proposes a couples' plan at the couples' price; Sam accepts.
  const plan = togetherAlex.getByRole('region', { name: "Start a couples' plan" });
  await plan.getByLabel('Your supplement').selectOption({ label: 'Sleep Gummies, $15.75' });
  await plan.getByLabel("Sam's supplement").selectOption({ label: 'Immunity Gummies, $15.75' });
  await expect(plan.getByText('$31.50 each delivery for both, every month.')).toBeVisible();
  await plan.getByRole('button', { name: "Propose the couples' plan" }).click();
  const alexPlan = togetherAlex.getByRole('article', { name: "Couples' plan with Sam" });
  await expect(alexPlan.getByText(/^Waiting for Sam to accept/)).toBeVisible();
  await screens.check('partner-plan-proposed');

  await sam.goto('/dashboard');
  await expect(
    samTogether.getByText("Couples' plan: Alex proposed one, waiting for your answer."),
  ).toBeVisible();
  await sam.goto('/accounts/partner');
  const samPlan = sam.getByRole('article', { name: "Couples' plan with Alex" });
  await samPlan.getByRole('button', { name: "Accept the couples' plan" }).click();
  await expect(samPlan.getByText(/^Next delivery/)).toBeVisible();
  await expect(samPlan.getByText(/For you: Immunity Gummies/)).toBeVisible();
  // Alex shares his shipping address with Sam, so Sam sees where the plan ships.
  await expect(samPlan.getByText('Ships to 500 Market Street, Portland, OR 97204')).toBeVisible();
  await samScreens.check('partner-together-sam');
  await sam.goto('/dashboard');
  await expect(samTogether.getByText(/Couples' plan: active, next delivery/)).toBeVisible();
  await samScreens.check('home-together-plan');

  await page.reload();
  await expect(alexPlan.getByText(/^Next delivery/)).toBeVisible();
  await expect(
    alexPlan.getByText(/\$31\.50 each delivery, billed to your Visa ending 4242/),
  ).toBeVisible();
  await screens.check('partner-together-alex');

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
  // The gift and the plan ended with the link: no further charge, and Sam reads it in-app.
  await expect(
    sam.getByText(
      /The gift subscription between you and Alex ended on .*\. Nothing more will be charged\./,
    ),
  ).toBeVisible();
  await expect(sam.getByText(/Your couples' plan with Alex ended on/)).toBeVisible();
  await expect(sam.getByRole('region', { name: 'Together with Alex' })).toHaveCount(0);
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

  // --- …and Sam can no longer ship to Alex: the choice is gone from checkout.
  await sam.request.post('/lapi/v2/ecom/add-product', {
    data: { product_id: offers.sleep.quarterly, quantity: 1 },
  });
  await sam.goto('/checkout/shipping');
  await expect(sam.getByLabel('Street address')).toBeVisible();
  await expect(sam.getByRole('radio', { name: /Ship to Alex/ })).toHaveCount(0);

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

  // The couples' price (decision 018) beside the catalogue's own, which does not change.
  await page.goto('/');
  await expect(page.getByText("Couples' plan: $15.75 each").first()).toBeVisible();
  await page.goto('/shop/sleep-gummies');
  await expect(
    page.getByText(/^Couples' plan: \$15\.75 each a month, for you and your partner/),
  ).toBeVisible();
  await expect(page.getByText('$17.50/month').first()).toBeVisible();
  await screens.check('product-couples-price');
  expect(unexpectedProblems(consoleProblems, [])).toEqual([]);
});
