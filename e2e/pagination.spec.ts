import crypto from 'node:crypto';
import { ORDERS_PAGE_SIZE } from '../src/shared/orders.ts';
import { MESSAGES_PAGE_SIZE } from '../src/shared/messages.ts';
import { expect, placeOrderThroughApi, test, unexpectedProblems } from './fixtures.ts';
import { offers } from '../src/shared/catalog.ts';

/**
 * Long histories a page at a time, at 375px and 1280px (issue 14): Orders shows the newest orders
 * and "Load more orders"; a link to an old order (`/orders#<number>`) still opens it; a long
 * conversation shows its newest messages and "Load earlier messages".
 */

test('Orders loads more on request, and a link to an old order opens it', async ({
  page,
  consoleProblems: problems,
  screens,
  newCustomer,
  logIn,
}) => {
  const customer = await newCustomer('orders-pages', { firstName: 'Robin', lastName: 'Hale' });
  await logIn(customer);
  // The first order saves the card; the others pay with it (a new card each time would meet the
  // card-testing limit of a handful an hour).
  const placed = [
    (await placeOrderThroughApi(page.request, { productId: offers.sleep.oneTime, quantity: 1 }))
      .order_number,
  ];
  while (placed.length < ORDERS_PAGE_SIZE + 2) {
    const added = await page.request.post('/lapi/v2/ecom/add-product', {
      data: { product_id: offers.sleep.oneTime, quantity: 1 },
    });
    expect(added.status(), await added.text()).toBe(200);
    const order = await page.request.post('/lapi/v2/ecom/place-order', {
      data: {
        idempotency_key: crypto.randomUUID(),
        shipping: {
          address: '500 Market Street',
          address2: '',
          city: 'Portland',
          state: 'OR',
          zip: '97204',
          phoneNo: '5035550199',
        },
        billing: null,
        payment: { method: 'saved' },
        consent: true,
      },
    });
    expect(order.status(), await order.text()).toBe(200);
    placed.push(((await order.json()) as { data: { order_number: string } }).data.order_number);
  }
  const oldest = placed[0]!;
  const newest = placed[placed.length - 1]!;

  await page.goto('/orders');
  const past = page.getByRole('region', { name: 'Past orders' });
  const cards = past.getByRole('article');
  await expect(cards).toHaveCount(ORDERS_PAGE_SIZE);
  await expect(cards.first()).toHaveAccessibleName(`Order ${newest}`);
  await expect(past.getByText(`Showing your latest ${ORDERS_PAGE_SIZE} orders.`)).toBeVisible();
  await expect(past.getByRole('article', { name: `Order ${oldest}` })).toHaveCount(0);
  const more = past.getByRole('button', { name: 'Load more orders' });
  await more.scrollIntoViewIfNeeded();
  await screens.checkAccessible();
  await screens.windowShot('orders-load-more');

  await more.click();
  await expect(cards).toHaveCount(placed.length);
  await expect(cards.last()).toHaveAccessibleName(`Order ${oldest}`);
  await expect(past.getByText(`Showing all ${placed.length} of your orders.`)).toBeVisible();
  await expect(more).toHaveCount(0);

  // A link from an email to the oldest order, opened afresh (a new page load, nothing in memory):
  // not on the first page, so fetched by its number.
  await page.goto('/dashboard');
  await page.goto(`/orders#${oldest}`);
  const linked = page.getByRole('region', { name: 'Order from your link' });
  const card = linked.getByRole('article', { name: `Order ${oldest}` });
  await expect(card).toBeVisible();
  await expect(card).toBeFocused();
  await expect(cards).toHaveCount(ORDERS_PAGE_SIZE);
  await screens.check('orders-linked-old-order');
  // Loading more reaches it in the list; it is then shown once, in its place.
  await past.getByRole('button', { name: 'Load more orders' }).click();
  await expect(cards).toHaveCount(placed.length);
  await expect(linked).toHaveCount(0);
  await expect(page.getByRole('article', { name: `Order ${oldest}` })).toHaveCount(1);

  // A number that is not the customer's goes back to /orders.
  await page.goto('/orders#PW-0000001');
  await expect(page).toHaveURL(/\/orders$/);
  await expect(page.getByRole('region', { name: 'Order from your link' })).toHaveCount(0);
  await expect(cards).toHaveCount(placed.length);
  // The last number is refused on purpose (404): that is how the page knows to go back.
  expect(unexpectedProblems(problems, [404])).toEqual([]);
});

test('a long conversation shows its newest messages and loads earlier ones', async ({
  page,
  consoleProblems: problems,
  screens,
  newCustomer,
  logIn,
}) => {
  const customer = await newCustomer('messages-pages', { firstName: 'Sam', lastName: 'Ortiz' });
  await logIn(customer);
  const total = MESSAGES_PAGE_SIZE + 5;
  const started = await page.request.post('/lapi/messaging/send/', {
    data: {
      leads_id: customer.leadsId,
      subject: 'My delivery schedule',
      topic: 'order',
      body: 'Note 1',
    },
  });
  expect(started.status(), await started.text()).toBe(200);
  const threadId = ((await started.json()) as { data: { message: { thread_id: number } } }).data
    .message.thread_id;
  for (let n = 2; n <= total; n++) {
    const sent = await page.request.post('/lapi/messaging/send/', {
      data: { leads_id: customer.leadsId, thread_id: threadId, body: `Note ${n}` },
    });
    expect(sent.status(), await sent.text()).toBe(200);
  }

  await page.goto(`/messages?thread=${threadId}`);
  const log = page.getByRole('log', { name: 'My delivery schedule' });
  await expect(log.getByText(`Note ${total}`, { exact: true })).toBeVisible();
  await expect(log.getByRole('article')).toHaveCount(MESSAGES_PAGE_SIZE);
  await expect(log.getByText('Note 1', { exact: true })).toHaveCount(0);
  const earlier = log.getByRole('button', { name: 'Load earlier messages' });
  await screens.checkAccessible();
  await screens.shot('messages-long-conversation');
  await earlier.scrollIntoViewIfNeeded();
  await screens.windowShot('messages-load-earlier');

  await earlier.click();
  await expect(log.getByRole('article')).toHaveCount(total);
  await expect(log.getByText('Note 1', { exact: true })).toBeVisible();
  await expect(earlier).toHaveCount(0);
  // With nothing earlier left, focus goes to the conversation, not to nowhere.
  await expect(log).toBeFocused();
  await log.getByText('Note 1', { exact: true }).scrollIntoViewIfNeeded();
  await screens.checkAccessible();
  await screens.windowShot('messages-earlier-loaded');
  expect(problems).toEqual([]);
});
