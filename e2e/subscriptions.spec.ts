import type { Page } from '@playwright/test';
import { format, parseISO } from 'date-fns';
import { nextBillingDate } from '../src/shared/subscriptions.ts';
import {
  createCustomer,
  demo,
  expect,
  logOutThroughApi,
  placeOrderThroughApi,
  signUpThroughApi,
  test,
  unexpectedProblems,
  type Credentials,
} from './fixtures.ts';
import { offers } from '../src/shared/catalog.ts';

/**
 * The Subscriptions page in a real browser at 375px and 1280px. The demo customer's page is only
 * looked at (other journeys expect its subscriptions as seeded); the changes are made by a fresh
 * customer who has just bought Sleep Gummies monthly.
 */

/** Declined payments of the demo's past orders show in the console as failed requests. */
const refusals = [401, 402];

/** 'MMM dd, yyyy' (spec §9) of a 'YYYY-MM-DD'. */
const medium = (iso: string) => format(parseISO(iso), 'MMM dd, yyyy');

/** A new customer who has bought Sleep Gummies monthly through the API, logged out again. */
async function newSubscriber(page: Page): Promise<Credentials> {
  const customer = await createCustomer(page.request, 'subs', {
    firstName: 'Alex',
    lastName: 'Moreno',
  });
  const placed = await placeOrderThroughApi(page.request, {
    productId: offers.sleep.monthly,
    quantity: 1,
  });
  expect(placed.subscriptions).toBe(1);
  await logOutThroughApi(page.request);
  return customer;
}

test.describe('subscriptions', () => {
  test('the demo customer sees an active and a past-due subscription', async ({
    page,
    consoleProblems: problems,
    screens,
    accountNav,
    logIn,
  }) => {
    await logIn(demo);
    await (await accountNav()).getByRole('link', { name: 'Subscriptions' }).click();
    await expect(page).toHaveURL(/\/subscriptions$/);
    await expect(page).toHaveTitle('Subscriptions — Pairwell');

    const sleep = page.getByRole('article', { name: 'Sleep Gummies' });
    await expect(sleep.getByText('$17.50/month')).toBeVisible();
    await expect(sleep.getByText('1 bottle a month', { exact: true })).toBeVisible();
    await expect(sleep.getByText('Active', { exact: true })).toBeVisible();
    await expect(sleep.getByText(/Visa/)).toContainText('0341');
    await expect(sleep.getByRole('link', { name: 'Change card' })).toHaveAttribute(
      'href',
      '/accounts/editPaymentMethod',
    );

    const biotin = page.getByRole('article', { name: 'Biotin Gummies' });
    await expect(biotin.getByText('Payment due', { exact: true })).toBeVisible();
    await expect(
      biotin.getByText(
        'We were unable to process this order using the provided payment information. Please update your credit card details to resolve this issue.',
      ),
    ).toBeVisible();
    await expect(biotin.getByRole('link', { name: 'Update payment method' })).toHaveAttribute(
      'href',
      '/accounts/editPaymentMethod',
    );
    await screens.checkAccessible();
    await screens.shot('subscriptions-demo');

    // The confirmation is only looked at here: 'Keep as is' leaves the demo as seeded.
    await sleep.getByRole('button', { name: 'Switch to quarterly' }).click();
    const dialog = page.getByRole('dialog', { name: 'Switch to quarterly deliveries' });
    await expect(dialog.getByRole('heading', { name: 'Review your change' })).toBeFocused();
    await expect(dialog.getByText('$45.00/quarterly')).toBeVisible();
    await screens.checkAccessible();
    await screens.windowShot('subscriptions-confirm');
    await dialog.getByRole('button', { name: 'Keep as is' }).click();
    await expect(dialog).toBeHidden();
    await expect(sleep.getByText('$17.50/month')).toBeVisible();
    expect(unexpectedProblems(problems, refusals)).toEqual([]);
  });

  test('a subscriber switches to quarterly and skips a delivery, seeing the new price and date at once', async ({
    page,
    consoleProblems: problems,
    screens,
    logIn,
    outbox,
  }) => {
    const customer = await newSubscriber(page);
    await logIn(customer);
    await page.goto('/subscriptions');
    const card = page.getByRole('article', { name: 'Sleep Gummies' });
    await expect(card.getByText('$17.50/month')).toBeVisible();

    const today = new Date().toISOString().slice(0, 10);
    const anchor = Number(today.slice(8, 10));
    const next = nextBillingDate(today, 'MONTHLY', anchor);
    await expect(card).toContainText(medium(next));
    await expect(card.getByText(/Visa/)).toContainText('4242');

    // Monthly → quarterly: the confirmation shows the new price and the next date.
    await card.getByRole('button', { name: 'Switch to quarterly' }).click();
    let dialog = page.getByRole('dialog', { name: 'Switch to quarterly deliveries' });
    await expect(dialog.getByRole('heading', { name: 'Review your change' })).toBeVisible();
    await expect(dialog).toContainText('$17.50/month');
    await expect(dialog).toContainText('$45.00/quarterly');
    await expect(dialog).toContainText(medium(next));
    // A quarterly delivery is three bottles: the preview says what arrives, from → to.
    await expect(dialog).toContainText('From 1 bottle a month');
    await expect(dialog).toContainText('to 3 bottles every 3 months');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(dialog).toBeHidden();
    await expect(
      page.getByText('Your subscription now ships every quarter.', { exact: true }),
    ).toBeVisible();
    await expect(card.getByText('$45.00/quarterly')).toBeVisible();
    await expect(card.getByText('3 bottles every 3 months', { exact: true })).toBeVisible();
    await expect(card.getByRole('button', { name: 'Switch to monthly' })).toBeVisible();
    // A toast is dismissed with its button.

    // Skip: the next date moves one quarter on.
    const skipped = nextBillingDate(next, 'QUARTERLY', anchor);
    await card.getByRole('button', { name: 'Skip next delivery' }).click();
    dialog = page.getByRole('dialog', { name: 'Skip your next delivery' });
    await expect(dialog.getByRole('heading', { name: 'Review your change' })).toBeVisible();
    await expect(dialog).toContainText(medium(skipped));
    await screens.checkAccessible();
    await screens.windowShot('subscriptions-skip-confirm');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Your next delivery was skipped.', { exact: true })).toBeVisible();
    await expect(card).toContainText(medium(skipped));

    // A change that needs input: the date is asked for first, then previewed.
    await card.getByRole('button', { name: 'Pause' }).click();
    dialog = page.getByRole('dialog', { name: 'Pause your subscription' });
    await dialog.getByRole('button', { name: 'Review change' }).click();
    await expect(dialog.getByText('Choose a date')).toBeVisible();
    await screens.checkAccessible();
    await screens.windowShot('subscriptions-pause-input');
    await dialog.getByRole('button', { name: 'Keep as is' }).click();
    await expect(dialog).toBeHidden();

    await screens.checkAccessible();
    await screens.shot('subscriptions-changed');

    // Before cancelling: a skip or a pause is offered, and cancelling is one more click away.
    await card.getByRole('button', { name: 'Cancel subscription' }).click();
    dialog = page.getByRole('dialog', { name: 'Cancel your subscription' });
    await expect(dialog.getByRole('heading', { name: 'Need a break instead?' })).toBeFocused();
    await expect(dialog.getByRole('button', { name: 'Skip the next delivery' })).toBeVisible();
    await expect(dialog).toContainText(`Nothing ships or is charged on ${medium(skipped)}`);
    await screens.checkAccessible();
    await screens.windowShot('subscriptions-save-offer');
    // The pause offer is the usual pause, asking for its date (from the keyboard).
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: 'Pause for a while' })).toBeFocused();
    await page.keyboard.press('Enter');
    dialog = page.getByRole('dialog', { name: 'Pause your subscription' });
    await expect(dialog.getByLabel('Pause until')).toBeFocused();
    await dialog.getByRole('button', { name: 'Keep as is' }).click();
    await expect(dialog).toBeHidden();
    await expect(card.getByText('Active', { exact: true })).toBeVisible();

    // Cancel needs a reason; a cancelled subscription can be reactivated.
    await card.getByRole('button', { name: 'Cancel subscription' }).click();
    dialog = page.getByRole('dialog', { name: 'Cancel your subscription' });
    await dialog.getByRole('button', { name: 'Continue to cancel' }).click();
    await expect(dialog.getByLabel('Why are you cancelling?')).toBeFocused();
    await dialog.getByRole('button', { name: 'Review change' }).click();
    await expect(dialog.getByText('Tell us why you are cancelling')).toBeVisible();
    await dialog.getByLabel('Why are you cancelling?').selectOption('Other');
    await dialog.getByLabel("Anything else you'd like us to know?").fill('Moving abroad');
    await screens.checkAccessible();
    await screens.windowShot('subscriptions-cancel-input');
    await dialog.getByRole('button', { name: 'Review change' }).click();
    await expect(
      dialog.getByText('No more deliveries or charges.', { exact: false }),
    ).toBeVisible();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(dialog).toBeHidden();
    await expect(card.getByText('Cancelled', { exact: true })).toBeVisible();
    await expect(card).toContainText('Moving abroad');
    // The confirmation email says what ended and that nothing more is charged (the outbox job
    // sends it a moment after the change).
    await expect
      .poll(() => outbox.text(customer.email, 'Your Pairwell subscription is cancelled'))
      .toContain('We will not charge you for it again');
    await card.getByRole('button', { name: 'Reactivate' }).click();
    dialog = page.getByRole('dialog', { name: 'Reactivate your subscription' });
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(dialog).toBeHidden();
    await expect(card.getByText('Active', { exact: true })).toBeVisible();
    await expect(card.getByText('$45.00/quarterly')).toBeVisible();
    expect(unexpectedProblems(problems, refusals)).toEqual([]);
  });

  test('a customer without subscriptions is invited to the shop', async ({
    page,
    screens,
    logIn,
  }) => {
    await logIn(
      await signUpThroughApi(page.request, 'nosubs', { firstName: 'Jamie', lastName: 'Ng' }),
    );
    await page.goto('/subscriptions');
    await expect(page.getByRole('heading', { name: 'No subscriptions yet' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Shop supplements' })).toHaveAttribute(
      'href',
      '/shop',
    );
    await screens.checkAccessible();
    await screens.shot('subscriptions-empty');
  });
});
