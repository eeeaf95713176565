import crypto from 'node:crypto';
import { expect, test } from '@playwright/test';
import { expectAccessible, screenshot } from './helpers.ts';

test('the orders page lists an unfinished online visit under Pending orders, and Finish resumes it', async ({
  page,
}, testInfo) => {
  const email = `pending-${crypto.randomBytes(4).toString('hex')}@example.test`;
  const password = 'pending passphrase one';
  const created = await page.request.post('/lapi/account/create/', {
    data: {
      email,
      first_name: 'Pat',
      last_name: 'Ending',
      password,
      dob: '03/14/1987',
      phoneNo: '5035550177',
      consent: true,
    },
  });
  expect(created.status()).toBe(200);
  const leadsId = ((await created.json()) as { data: { leads_id: string } }).data.leads_id;
  const started = await page.request.post('/lapi/leads/startprogram', {
    data: { leads_id: leadsId, new_category: 'ed' },
  });
  expect(started.status()).toBe(200);
  await page.request.post('/lapi/account/logout/', { data: {} });

  await page.goto('/login');
  const form = page.locator('main form');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/orders');
  const pending = page.getByRole('region', { name: 'Pending orders' });
  await expect(pending).toContainText('Erectile dysfunction treatment — online visit');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'orders-pending');
  await pending.getByRole('button', { name: /^Finish/ }).click();
  await expect(page).toHaveURL(/\/visit\/ed\/eligibility$/);
});
