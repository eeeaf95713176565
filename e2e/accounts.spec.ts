import crypto from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, screenshot, watchConsole } from './helpers.ts';

const demo = { email: 'demo@pairwell.test', password: 'pairwell-demo' };

async function logIn(page: Page, email: string, password: string) {
  const form = page
    .locator('main form')
    .filter({ has: page.getByLabel('Password', { exact: true }) });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Log in' }).click();
}

test.describe('accounts', () => {
  test('a visitor opening /orders logs in as the demo customer and is back on /orders', async ({
    page,
  }, testInfo) => {
    const problems = watchConsole(page);
    await page.goto('/orders');
    await expect(page).toHaveURL(/\/login$/);
    await expectAccessible(page);
    await screenshot(page, testInfo, 'login');
    await logIn(page, demo.email, demo.password);
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
    await expectAccessible(page);
    await screenshot(page, testInfo, 'orders');
    expect(problems).toEqual([]);
  });

  test('an order number in the address scrolls to it; any other hash ends on /orders', async ({
    page,
  }) => {
    await page.goto('/login');
    await logIn(page, demo.email, demo.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/orders#PW-100101');
    const order = page.locator('[id="PW-100101"]');
    await expect(order).toBeInViewport();
    await expect(order).toBeFocused();
    await page.goto('/orders#nope');
    await expect(page).toHaveURL(/\/orders$/);
  });

  test('the full reset journey: request, read the e-mail, set a new password, log in with it', async ({
    page,
    request,
  }, testInfo) => {
    const email = `reset-${crypto.randomBytes(4).toString('hex')}@example.test`;
    const created = await request.post('/lapi/account/create/', {
      data: {
        email,
        first_name: 'Casey',
        last_name: 'Lee',
        password: 'first passphrase here',
        dob: '03/14/1987',
        phoneNo: '5035550111',
        consent: true,
      },
    });
    expect(created.status()).toBe(200);
    await request.post('/lapi/account/logout/', { data: {} });

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
    await expectAccessible(page);
    await screenshot(page, testInfo, 'reset-request');

    // The e-mail is queued with the request and sent by the outbox job a moment later: wait for
    // it to appear in the development outbox (bounded), as a person refreshing the page would.
    const resetLink = async () => {
      const outbox = (await (await request.get('/dev/outbox.json')).json()) as {
        messages: { to: string; subject: string; text: string }[];
      };
      const mail = outbox.messages.find(
        (m) => m.to === email && m.subject === 'Reset your Pairwell password',
      );
      return /(https?:\/\/\S+\/reset-password\?id=[\w-]+)/.exec(mail?.text ?? '')?.[1];
    };
    await expect.poll(resetLink, { timeout: 15_000 }).toBeDefined();
    const link = await resetLink();
    await page.goto(new URL(link ?? '').pathname + new URL(link ?? '').search);

    await expect(page.getByRole('heading', { level: 1, name: 'Update Password' })).toBeVisible();
    await page.getByLabel('New password').fill('second passphrase now');
    await page.getByLabel('Confirm password').fill('second passphrase typo');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expect(page.getByText('Passwords must match')).toBeVisible();
    await page.getByLabel('Confirm password').fill('second passphrase now');
    await expectAccessible(page);
    await screenshot(page, testInfo, 'reset-update');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expect(page).toHaveURL(/\/login$/);

    await logIn(page, email, 'first passphrase here');
    await expect(page.getByText('The email or password you entered is incorrect.')).toBeVisible();
    await logIn(page, email, 'second passphrase now');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Casey');
  });

  test("the sidebar shows the customer's name and number, and collapses at 1024px", async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/login');
    await logIn(page, demo.email, demo.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    const nav = page.getByRole('navigation', { name: 'Account' });
    await expect(nav).toBeVisible();
    await expect(page.getByText(/^Customer: \d+$/)).toBeVisible();
    await expect(page.getByText('Jordan Avery')).toBeVisible();
    await expect(page.getByRole('button', { name: /menu/i })).toHaveCount(0);
    await expectAccessible(page);
    await screenshot(page, testInfo, 'dashboard');

    await page.setViewportSize({ width: 1024, height: 900 });
    const menu = page.getByRole('button', { name: /menu/i });
    await expect(menu).toBeVisible();
    await expect(nav).toBeHidden();
    await menu.click();
    await expect(nav).toBeVisible();
    await expect(page.getByText(/^Customer: \d+$/)).toBeVisible();
    await expectAccessible(page);
  });
});
