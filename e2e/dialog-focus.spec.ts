import type { Locator, Page } from '@playwright/test';
import {
  createCustomer,
  expect,
  logOutThroughApi,
  ops,
  placeOrderThroughApi,
  provider,
  test,
} from './fixtures.ts';
import { submitEdVisit } from './visit-helpers.ts';
import { offers } from '../src/shared/catalog.ts';

/**
 * Every dialog gives focus back when it closes (issue 13): to the button that opened it, or, when
 * the change made in the dialog took that button away, to the place named for it. Each dialog is
 * opened from the keyboard and closed by Escape, by its way back and by its confirming action;
 * each time the test waits for `document.activeElement` to be the element expected (never
 * <body>). The people and orders are fresh ones, so the demo data stays as seeded.
 */

/** Focuses `opener` and presses Enter on it, as a keyboard user opens a dialog. */
async function openWithKeyboard(opener: Locator): Promise<void> {
  await opener.focus();
  await expect(opener).toBeFocused();
  await opener.press('Enter');
}

/**
 * Presses Escape once the dialog holds the focus. A dialog shows before its effects have run, and
 * Radix listens for Escape from one of them; the focus moving in is the sign that they have.
 */
async function escapeFrom(page: Page, dialog: Locator): Promise<void> {
  await expect
    .poll(() => dialog.evaluate((element) => element.contains(document.activeElement)))
    .toBe(true);
  await page.keyboard.press('Escape');
}

/**
 * Waits for a subscription change's preview: it takes the focus when it shows, so a button in it
 * is focused only after that.
 */
async function reviewShown(dialog: Locator): Promise<void> {
  await expect(dialog.getByRole('heading', { name: 'Review your change' })).toBeFocused();
}

/**
 * Closes the toast a change showed. While a toast is up, Escape in a dialog opened after it closes
 * the toast first (both are Radix dismissable layers), so a dialog's Escape is tested without one.
 */
async function dismissToast(page: Page, text: string): Promise<void> {
  const toast = page.getByRole('listitem').filter({ hasText: text });
  await toast.getByRole('button', { name: 'Dismiss notification' }).click();
  await expect(toast).toHaveCount(0);
}

/** Waits for the dialog to be gone and `expected` to hold the focus. */
async function expectFocusBack(page: Page, dialog: Locator, expected: Locator): Promise<void> {
  await expect(dialog).toBeHidden();
  await expect(expected).toBeFocused();
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(false);
}

test.describe('focus after a dialog closes', () => {
  test('the log-in slider: back to Log in, and to My account once logged in', async ({
    page,
    newCustomer,
    consoleProblems,
  }) => {
    const customer = await newCustomer('focus-login');
    await page.goto('/');
    const header = page.getByRole('banner');
    const logIn = header.getByRole('button', { name: 'Log in' });
    const slider = page.getByRole('dialog', { name: 'Log in' });

    await openWithKeyboard(logIn);
    await expect(slider.getByLabel('Email')).toBeFocused();
    await escapeFrom(page, slider);
    await expectFocusBack(page, slider, logIn);

    await openWithKeyboard(logIn);
    await expect(slider.getByLabel('Email')).toBeFocused();
    await openWithKeyboard(slider.getByRole('button', { name: 'Close' }));
    await expectFocusBack(page, slider, logIn);

    // Logging in takes 'Log in' away: 'My account' stands in its place and takes the focus.
    await openWithKeyboard(logIn);
    await expect(slider.getByLabel('Email')).toBeFocused();
    await slider.getByLabel('Email').fill(customer.email);
    await slider.getByLabel('Password', { exact: true }).fill(customer.password);
    await slider.getByLabel('Password', { exact: true }).press('Enter');
    await expectFocusBack(page, slider, header.getByRole('link', { name: 'My account' }));
    expect(consoleProblems).toEqual([]);
  });

  test('the cart drawer: back to the cart button, and to the page when Checkout leaves it', async ({
    page,
    consoleProblems,
  }) => {
    await page.goto('/shop');
    const cart = page.getByRole('banner').getByRole('button', { name: /^Cart/ });
    const drawer = page.getByRole('dialog', { name: /Your cart/ });

    await openWithKeyboard(cart);
    await expect(drawer).toBeVisible();
    await escapeFrom(page, drawer);
    await expectFocusBack(page, drawer, cart);

    await openWithKeyboard(cart);
    await expect(drawer).toBeVisible();
    await openWithKeyboard(drawer.getByRole('button', { name: 'Close cart' }));
    await expectFocusBack(page, drawer, cart);

    // 'Add to cart' opens the drawer while it is busy: the cart button, which reopens it, takes
    // the focus back (cart-drawer-state.ts).
    await page
      .getByRole('link', { name: /Sleep Gummies/ })
      .first()
      .click();
    await openWithKeyboard(page.getByRole('button', { name: 'Add to cart' }).first());
    await expect(drawer.getByRole('link', { name: 'Checkout' })).toBeVisible();
    await escapeFrom(page, drawer);
    await expectFocusBack(page, drawer, cart);

    // Checkout leaves for a page whose header has no cart button: the page's main region.
    await openWithKeyboard(cart);
    await openWithKeyboard(drawer.getByRole('link', { name: 'Checkout' }));
    await expect(page).toHaveURL(/\/checkout/);
    await expectFocusBack(page, drawer, page.locator('#main'));
    expect(consoleProblems).toEqual([]);
  });

  test('a subscription change: back to its button, or to the card when the change took it away', async ({
    page,
    logIn,
    screens,
    consoleProblems,
  }) => {
    const customer = await createCustomer(page.request, 'focus-subs', {
      firstName: 'Robin',
      lastName: 'Hale',
    });
    await placeOrderThroughApi(page.request, { productId: offers.sleep.monthly, quantity: 1 });
    await logOutThroughApi(page.request);
    await logIn(customer);
    await page.goto('/subscriptions');
    const card = page.getByRole('article', { name: 'Sleep Gummies' });

    const quarterly = card.getByRole('button', { name: 'Switch to quarterly' });
    let dialog = page.getByRole('dialog', { name: 'Switch to quarterly deliveries' });
    await openWithKeyboard(quarterly);
    await reviewShown(dialog);
    await escapeFrom(page, dialog);
    await expectFocusBack(page, dialog, quarterly);

    await openWithKeyboard(quarterly);
    await reviewShown(dialog);
    await openWithKeyboard(dialog.getByRole('button', { name: 'Keep as is' }));
    await expectFocusBack(page, dialog, quarterly);

    // The change keeps the button (it now offers the way back to monthly).
    await openWithKeyboard(quarterly);
    await reviewShown(dialog);
    await openWithKeyboard(dialog.getByRole('button', { name: 'Confirm' }));
    await expectFocusBack(page, dialog, card.getByRole('button', { name: 'Switch to monthly' }));
    await dismissToast(page, 'Your subscription now ships every quarter.');

    const cancel = card.getByRole('button', { name: 'Cancel subscription' });
    dialog = page.getByRole('dialog', { name: 'Cancel your subscription' });
    await openWithKeyboard(cancel);
    await expect(dialog.getByRole('heading', { name: 'Need a break instead?' })).toBeFocused();
    await escapeFrom(page, dialog);
    await expectFocusBack(page, dialog, cancel);

    // Cancelling takes 'Cancel subscription' away: the card takes the focus.
    await openWithKeyboard(cancel);
    await expect(dialog.getByRole('heading', { name: 'Need a break instead?' })).toBeFocused();
    await openWithKeyboard(dialog.getByRole('button', { name: 'Continue to cancel' }));
    await expect(dialog.getByLabel('Why are you cancelling?')).toBeFocused();
    await dialog
      .getByLabel('Why are you cancelling?')
      .selectOption('I have more than I need right now');
    await openWithKeyboard(dialog.getByRole('button', { name: 'Review change' }));
    await reviewShown(dialog);
    await openWithKeyboard(dialog.getByRole('button', { name: 'Confirm' }));
    await expectFocusBack(page, dialog, card);
    await expect(card.getByText('Cancelled', { exact: true })).toBeVisible();
    // The card's focus ring, photographed before the toast is closed (closing it moves focus).
    await screens.windowShot('dialog-focus-cancelled-card');
    await dismissToast(page, 'Subscription updated');
    await screens.checkAccessible();

    const reactivate = card.getByRole('button', { name: 'Reactivate' });
    dialog = page.getByRole('dialog', { name: 'Reactivate your subscription' });
    await openWithKeyboard(reactivate);
    await reviewShown(dialog);
    await escapeFrom(page, dialog);
    await expectFocusBack(page, dialog, reactivate);
    await openWithKeyboard(reactivate);
    await reviewShown(dialog);
    await openWithKeyboard(dialog.getByRole('button', { name: 'Confirm' }));
    await expectFocusBack(page, dialog, card);
    expect(consoleProblems).toEqual([]);
  });

  test('operations: an order action and a hand-off give focus back, or to what replaced them', async ({
    page,
    request,
    staffLogIn,
    screens,
    consoleProblems,
  }, testInfo) => {
    const customer = await createCustomer(request, 'focus-ops', {
      firstName: 'Jamie',
      lastName: 'Rowe',
    });
    const order = await placeOrderThroughApi(request, {
      productId: offers.sleep.oneTime,
      quantity: 1,
    });
    const asked = await request.post('/lapi/messaging/send/', {
      data: { leads_id: customer.leadsId, order_number: order.order_number, body: 'Is it safe?' },
    });
    expect(asked.status(), await asked.text()).toBe(200);
    await logOutThroughApi(request);

    await staffLogIn(ops);
    await page.goto(`/staff/orders/${order.orders_id}`);
    const ship = page.getByRole('button', { name: 'Mark shipped' });
    const dialog = page.getByRole('dialog', { name: `Ship order ${order.order_number}` });
    await openWithKeyboard(ship);
    await expect(dialog.getByLabel('Tracking number')).toBeVisible();
    await escapeFrom(page, dialog);
    await expectFocusBack(page, dialog, ship);

    await openWithKeyboard(ship);
    await expect(dialog.getByLabel('Tracking number')).toBeVisible();
    await openWithKeyboard(dialog.getByRole('button', { name: 'Go back' }));
    await expectFocusBack(page, dialog, ship);

    // Shipping takes 'Mark shipped' away: the Actions section, with what is left to do, has it.
    const tracking = `9400${String(Date.now()).slice(-10)}${testInfo.project.name === 'desktop' ? '42' : '31'}`;
    await openWithKeyboard(ship);
    await dialog.getByLabel('Tracking number').fill(tracking);
    await dialog.getByLabel('Tracking number').press('Enter');
    const actions = page.getByRole('region', { name: 'Actions' });
    await expectFocusBack(page, dialog, actions);
    await expect(actions.getByRole('button', { name: 'Mark delivered' })).toBeVisible();
    await screens.checkAccessible();
    await screens.windowShot('dialog-focus-order-actions');

    // The customer's question: handed to a provider, it leaves the inbox (and this page).
    await page.goto('/staff/inbox');
    await page.getByRole('link', { name: new RegExp(`Order ${order.order_number}`) }).click();
    const handOff = page.getByRole('button', { name: 'Hand to a provider' });
    const handDialog = page.getByRole('dialog', { name: 'Hand to a provider' });
    await openWithKeyboard(handOff);
    await expect(handDialog.getByLabel('Provider')).toBeVisible();
    await escapeFrom(page, handDialog);
    await expectFocusBack(page, handDialog, handOff);

    await openWithKeyboard(handOff);
    await expect(handDialog.getByLabel('Provider')).toBeVisible();
    await openWithKeyboard(handDialog.getByRole('button', { name: 'Go back' }));
    await expectFocusBack(page, handDialog, handOff);

    await openWithKeyboard(handOff);
    await openWithKeyboard(handDialog.getByRole('button', { name: 'Hand to this provider' }));
    await expect(page).toHaveURL(/\/staff\/inbox$/);
    await expectFocusBack(page, handDialog, page.locator('#staff-main'));
    await expect(page.getByRole('heading', { level: 1, name: 'Inbox' })).toBeVisible();
    expect(consoleProblems).toEqual([]);
  });

  test("a provider's decision: back to Approve or Decline, and to the page's heading once decided", async ({
    page,
    request,
    newCustomer,
    staffLogIn,
    consoleProblems,
  }) => {
    const patient = await newCustomer('focus-visit');
    const loggedIn = await request.post('/lapi/account/login/', {
      data: { email: patient.email, password: patient.password },
    });
    expect(loggedIn.status(), await loggedIn.text()).toBe(200);
    const { visitId } = await submitEdVisit(request, patient.leadsId);

    await staffLogIn(provider);
    await page.goto(`/staff/visits/${visitId}`);
    const approve = page.getByRole('button', { name: 'Approve' });
    const approveDialog = page.getByRole('dialog', { name: /^Approve/ });
    await openWithKeyboard(approve);
    await expect(approveDialog.getByLabel('Quantity')).toBeVisible();
    await escapeFrom(page, approveDialog);
    await expectFocusBack(page, approveDialog, approve);

    const decline = page.getByRole('button', { name: 'Decline' });
    const declineDialog = page.getByRole('dialog', { name: /^Decline/ });
    await openWithKeyboard(decline);
    await expect(declineDialog.getByLabel('Reason the patient sees')).toBeVisible();
    await openWithKeyboard(declineDialog.getByRole('button', { name: 'Go back' }));
    await expectFocusBack(page, declineDialog, decline);

    // The decision removes the Decision section and its buttons: the page's heading has focus.
    await openWithKeyboard(decline);
    await declineDialog
      .getByLabel('Reason the patient sees')
      .fill('Your answers show a medicine that must not be taken with this one.');
    await openWithKeyboard(declineDialog.getByRole('button', { name: 'Decline visit' }));
    await expectFocusBack(page, declineDialog, page.getByRole('heading', { level: 1 }));
    await expect(page.getByRole('region', { name: 'Decision' })).toHaveCount(0);
    expect(consoleProblems).toEqual([]);
  });
});
