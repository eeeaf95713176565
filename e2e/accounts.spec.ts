import { demo, expect, submitLogIn, test } from './fixtures.ts';

test.describe('accounts', () => {
  test('a visitor opening /orders logs in as the demo customer and is back on /orders', async ({
    page,
    consoleProblems: problems,
    screens,
  }) => {
    await page.goto('/orders');
    await expect(page).toHaveURL(/\/login$/);
    await screens.expectAccessible();
    await screens.picture('login');
    await submitLogIn(page, demo);
    await expect(page).toHaveURL(/\/orders$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Order PW-100103' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Pending orders' })).toContainText(
      'Better sleep — online visit',
    );
    await expect(
      page.getByRole('region', { name: 'Pending orders' }).getByRole('button', { name: /^Finish/ }),
    ).toBeVisible();
    await expect(page.getByText('Declined', { exact: true })).toHaveCSS(
      'color',
      'rgb(180, 35, 24)',
    );
    await expect(page.getByRole('link', { name: /9400111899223197428490/ })).toHaveAttribute(
      'href',
      'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223197428490',
    );
    const failed = page.locator('[id="PW-100104"]');
    await expect(
      failed.getByText(
        /We were unable to process this order using the provided payment information/,
      ),
    ).toBeVisible();
    await expect(failed.getByRole('link', { name: 'Update payment method' })).toHaveAttribute(
      'href',
      '/accounts/editPaymentMethod',
    );
    await screens.expectAccessible();
    await screens.picture('orders');
    expect(problems).toEqual([]);
  });

  test('an order number in the address scrolls to it; any other hash ends on /orders', async ({
    page,
    logIn,
  }) => {
    await logIn(demo);
    await page.goto('/orders#PW-100101');
    const order = page.locator('[id="PW-100101"]');
    await expect(order).toBeInViewport();
    await expect(order).toBeFocused();
    await page.goto('/orders#nope');
    await expect(page).toHaveURL(/\/orders$/);
  });

  test('the full reset journey: request, read the email, set a new password, log in with it', async ({
    page,
    screens,
    newCustomer,
    outbox,
  }) => {
    const { email } = await newCustomer('reset', {
      firstName: 'Casey',
      lastName: 'Lee',
      password: 'first passphrase here',
    });

    await page.goto('/reset-password');
    await expect(page.getByRole('heading', { level: 1, name: 'Reset Password' })).toBeVisible();
    await expect(
      page.getByText("Enter the email address and we'll email you a link to reset your password."),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByText('Email is required')).toBeVisible();
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByText('Invalid Email')).toBeVisible();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(
      page
        .getByText(
          'If an account under that email address is found we will email you a password reset email',
        )
        .first(),
    ).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue('');
    await screens.expectAccessible();
    await screens.picture('reset-request');

    // The email is queued with the request and sent by the outbox job a moment later.
    await page.goto(await outbox.link(email, 'Reset your Pairwell password', '/reset-password'));

    await expect(page.getByRole('heading', { level: 1, name: 'Update Password' })).toBeVisible();
    await page.getByLabel('New password').fill('second passphrase now');
    await page.getByLabel('Confirm password').fill('second passphrase typo');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expect(page.getByText('Passwords must match')).toBeVisible();
    await page.getByLabel('Confirm password').fill('second passphrase now');
    await screens.expectAccessible();
    await screens.picture('reset-update');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expect(page).toHaveURL(/\/login$/);

    await submitLogIn(page, { email, password: 'first passphrase here' });
    await expect(page.getByText('The email or password you entered is incorrect.')).toBeVisible();
    await submitLogIn(page, { email, password: 'second passphrase now' });
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Casey');
  });

  test("the sidebar shows the customer's name and number, and collapses at 1024px", async ({
    page,
    screens,
    logIn,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await logIn(demo);
    const nav = page.getByRole('navigation', { name: 'Account' });
    await expect(nav).toBeVisible();
    await expect(page.getByText(/^Customer: \d+$/)).toBeVisible();
    await expect(page.getByText('Jordan Avery')).toBeVisible();
    await expect(page.getByRole('button', { name: /menu/i })).toHaveCount(0);
    await screens.expectAccessible();
    await screens.picture('dashboard');

    await page.setViewportSize({ width: 1024, height: 900 });
    const menu = page.getByRole('button', { name: /menu/i });
    await expect(menu).toBeVisible();
    await expect(nav).toBeHidden();
    await menu.click();
    await expect(nav).toBeVisible();
    await expect(page.getByText(/^Customer: \d+$/)).toBeVisible();
    await screens.expectAccessible();
  });
});
