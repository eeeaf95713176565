import { demo, expect, fillCard, test, uniqueEmail, unexpectedProblems } from './fixtures.ts';

/**
 * The account screens in a real browser at 375px and 1280px: sign-up, the log-in slider, Home,
 * Accounts and the payment method, each checked with axe and photographed. Everything that
 * changes data runs on a fresh customer, so the demo customer stays as the other journeys expect.
 */

/** A refused log-in (401) and a declined card (402) show in the console as failed requests. */
const refusals = [401, 402];

test.describe('account screens', () => {
  test('a new customer signs up, sees the empty Home, saves an address and a card, and logs out', async ({
    page,
    consoleProblems: problems,
    screens,
    accountNav,
  }) => {
    await page.goto('/signup');
    await expect(page).toHaveTitle('Create your account — Pairwell');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(
      page.getByText('Continue your online visit by checking the box above'),
    ).toBeVisible();
    await expect(page.getByText('You must enter a date of birth.')).toBeVisible();
    await expect(page.getByLabel('Email')).toBeFocused();
    await screens.expectAccessible();
    await screens.shot('signup');

    const email = uniqueEmail('ui');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('First name').fill('Robin');
    await page.getByLabel('Last name').fill('Hale');
    await page.getByLabel('Password', { exact: true }).fill('a long enough passphrase');
    await page.getByLabel('Date of birth').pressSequentially('07041985');
    await expect(page.getByLabel('Date of birth')).toHaveValue('07/04/1985');
    await page.getByLabel('Phone').fill('503 555 0142');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Create account' }).click();

    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Hi, Robin' })).toBeVisible();
    await expect(page.getByText("You're all caught up.", { exact: false })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Shop supplements' })).toHaveAttribute(
      'href',
      '/#supplements',
    );
    await expect(page.getByRole('link', { name: 'My account' })).toBeVisible();
    await screens.expectAccessible();
    await screens.shot('dashboard-new-customer');

    await page.getByRole('link', { name: 'Account settings' }).click();
    await expect(page).toHaveURL(/\/accounts$/);
    const address = page.getByRole('region', { name: 'Shipping and billing address' });
    await address.getByLabel('Street address').fill('88 Alder Road');
    await address.getByLabel('City').fill('Bend');
    // A ZIP that can't be in the state chosen is caught in the form, under the ZIP.
    await address.getByLabel('State').selectOption('CA');
    await address.getByLabel('ZIP code').fill('97701');
    await address.getByRole('button', { name: 'Save address' }).click();
    await expect(address.getByText("This ZIP code isn't in California.")).toBeVisible();
    await expect(address.getByLabel('ZIP code')).toHaveAttribute('aria-invalid', 'true');
    await screens.checkAccessible();
    await screens.shot('accounts-zip-not-in-state');
    await address.getByLabel('State').selectOption('OR');
    await address.getByRole('button', { name: 'Save address' }).click();
    await expect(page.getByText('Address saved', { exact: true })).toBeVisible();

    const payment = page.getByRole('region', { name: 'Payment method' });
    await expect(payment.getByText('No card on file')).toBeVisible();
    await payment.getByRole('link', { name: 'Update payment method' }).click();
    await expect(page).toHaveURL(/\/accounts\/editPaymentMethod$/);
    await fillCard(page, '4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Save card' }).click();
    await expect(page.getByText(/declined/i).first()).toBeVisible();
    await expect(page).toHaveURL(/\/accounts\/editPaymentMethod$/);
    await screens.expectAccessible();
    await screens.shot('edit-payment-method-declined');

    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Use my shipping address as the billing address').check();
    await page.getByRole('button', { name: 'Save card' }).click();
    await expect(page.getByText('Payment method updated', { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/accounts$/);
    await expect(
      page.getByRole('region', { name: 'Payment method' }).getByText('Expires 12/30'),
    ).toBeVisible();

    await accountNav();
    await page
      .getByRole('navigation', { name: 'Account' })
      .getByRole('link', { name: 'Log out' })
      .click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText("You're logged out", { exact: true })).toBeVisible();
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
    expect(unexpectedProblems(problems, refusals)).toEqual([]);
  });

  test('the demo customer logs in from the header slider and finds Home and Accounts', async ({
    page,
    consoleProblems: problems,
    screens,
    accountNav,
  }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Log in' }).click();
    const slider = page.getByRole('dialog', { name: 'Log in' });
    await expect(slider).toBeVisible();
    await expect(slider.getByLabel('Email')).toBeFocused();
    await screens.expectAccessible();
    await screens.windowShot('login-slider');

    await slider.getByLabel('Email').fill(demo.email);
    await slider.getByLabel('Password', { exact: true }).fill('not the password');
    await slider.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(slider.getByRole('alert')).toBeVisible();
    await slider.getByLabel('Password', { exact: true }).fill(demo.password);
    await slider.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(slider).toBeHidden();
    await expect(page).toHaveURL(/\/$/);

    await page.getByRole('link', { name: 'My account' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page).toHaveTitle('Home — Pairwell');
    await expect(page.getByRole('heading', { level: 1, name: 'Hi, Jordan' })).toBeVisible();
    const attention = page.getByRole('region', { name: 'Needs attention' });
    await expect(attention.getByRole('link', { name: 'Update payment method' })).toHaveAttribute(
      'href',
      '/accounts/editPaymentMethod',
    );
    await expect(
      page.getByRole('region', { name: 'Recent orders' }).getByRole('listitem'),
    ).toHaveCount(3);
    await screens.expectAccessible();
    await screens.shot('dashboard-demo');

    await accountNav();
    const nav = page.getByRole('navigation', { name: 'Account' });
    await expect(nav.getByRole('img', { name: 'Needs attention' })).toBeVisible();
    await screens.expectAccessible();
    await screens.shot('dashboard-sidebar-open');
    await nav.getByRole('link', { name: 'Accounts' }).click();

    await expect(page).toHaveURL(/\/accounts$/);
    await expect(
      page.getByRole('region', { name: 'Account details' }).getByLabel('First name'),
    ).toHaveValue('Jordan');
    await expect(
      page.getByRole('region', { name: 'Signed-in devices' }).getByText('This device'),
    ).toBeVisible();
    await screens.expectAccessible();
    await screens.shot('accounts-demo');

    // A logged-in customer opening /login goes on to Home.
    await page.goto('/login');
    await expect(page).toHaveURL(/\/dashboard$/);
    expect(unexpectedProblems(problems, refusals)).toEqual([]);
  });

  test("the demo customer opens a store order's receipt from Orders and it prints on one page", async ({
    page,
    consoleProblems: problems,
    screens,
    logIn,
  }) => {
    await logIn(demo);
    await page.goto('/orders');
    const order = page.getByRole('article', { name: 'Order PW-100103' });
    await expect(order.getByRole('button', { name: /^Buy again/ })).toBeVisible();
    // A visit's order has neither.
    const visit = page.getByRole('article', { name: 'Order PW-100102' });
    await expect(visit.getByRole('heading', { name: 'Order PW-100102' })).toBeVisible();
    await expect(visit.getByRole('button', { name: /^Buy again/ })).toHaveCount(0);
    await expect(visit.getByRole('link', { name: /^Receipt/ })).toHaveCount(0);
    await screens.expectAccessible();
    await screens.shot('orders-store-actions');
    await order.getByRole('link', { name: /^Receipt/ }).click();

    await expect(page).toHaveURL(/\/orders\/receipt\/PW-100103$/);
    await expect(page).toHaveTitle('Receipt PW-100103 — Pairwell');
    const receipt = page.getByRole('article', { name: 'Receipt for order PW-100103' });
    await expect(receipt.getByText('Subtotal')).toBeVisible();
    await expect(receipt.getByText('1200 Harbor Street')).toBeVisible();
    await screens.expectAccessible();
    await screens.shot('receipt');

    // On paper: no site header, footer or account menu, and one page.
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
    await expect(receipt).toBeVisible();
    await screens.shot('receipt-print');
    const pdf = await page.pdf({ format: 'Letter' });
    expect(pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g)).toHaveLength(1);
    await page.emulateMedia({ media: null });

    // Another customer's order number, or one that does not exist, is not found: the receipt asks
    // for the order by its number, and the server's 404 is that answer.
    await page.goto('/orders/receipt/PW-999999');
    await expect(page.getByRole('heading', { name: 'Receipt not found' })).toBeVisible();
    expect(unexpectedProblems(problems, [...refusals, 404])).toEqual([]);
  });
});
