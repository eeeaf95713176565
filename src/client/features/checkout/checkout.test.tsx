// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryRouter, type RouteObject } from 'react-router';
import { accountsApi } from '#shared/accounts.ts';
import { cartApi } from '#shared/cart.ts';
import { catalogApi, offers } from '#shared/catalog.ts';
import { checkoutApi } from '#shared/checkout.ts';
import { storageKeys } from '#shared/constants.ts';
import { partnersApi } from '#shared/partners.ts';
import { clearToasts } from '#client/components/ui/toast.tsx';
import { biotinLine, buildCart, catalog, sleepLine } from '#client/features/cart/cart.fixtures.ts';
import { lineFromServer, type CartView } from '#client/features/cart/use-cart.ts';
import { resetAppStateForTests, setLeadsId, setLoggedIn } from '#client/lib/app-state.ts';
import { buildAccountData } from '#client/testing/member-fixtures.ts';
import {
  failure,
  LocationProbe,
  renderRoutes,
  stub,
  stubApi,
  type Stub,
} from '#client/testing/render-app.tsx';
import {
  checkoutKeyStorageKey,
  resetCheckoutStateForTests,
  setCheckoutShipping,
} from './checkout-state.ts';
import { CheckoutLayout } from './components/checkout-layout.tsx';
import { OrderSummary } from './components/order-summary.tsx';
import { CompletePage } from './pages/complete-page.tsx';
import { PaymentPage } from './pages/payment-page.tsx';
import { ShippingPage } from './pages/shipping-page.tsx';
import { UpsellPage } from './pages/upsell-page.tsx';

const routes: RouteObject[] = [
  {
    element: (
      <>
        <CheckoutLayout />
        <LocationProbe />
      </>
    ),
    children: [
      { path: '/checkout/shipping', element: <ShippingPage /> },
      { path: '/checkout/upsell', element: <UpsellPage /> },
      { path: '/checkout/payment', element: <PaymentPage /> },
    ],
  },
  { path: '/checkout/complete', element: <CompletePage /> },
  {
    path: '/shop',
    element: (
      <>
        <h1>Shop</h1>
        <LocationProbe />
      </>
    ),
  },
];

const cart = buildCart(
  [
    { offer: sleepLine.offers[1]!, quantity: 1, slug: 'sleep-gummies' },
    { offer: biotinLine.offers[0]!, quantity: 2, slug: 'biotin-gummies' },
  ],
  { code: 'WELCOME10', description: '10% off your first order', discount_cents: 674 },
);

const shipping = {
  address: '88 Alder Road',
  address2: '',
  city: 'Bend',
  state: 'OR' as const,
  zip: '97701',
  phoneNo: '(503) 555-0142',
};

/** A logged-in customer's checkout; `extra` stubs override these (the last match answers). */
function stubMember(extra: Stub[] = []) {
  return stubApi([
    stub(catalogApi.products, catalog),
    stub(cartApi.cart, { cart }),
    stub(accountsApi.accountData, buildAccountData()),
    stub(checkoutApi.upsells, { offers: [] }),
    stub(checkoutApi.progress, { progress: null }),
    stub(checkoutApi.saveProgress, (body) => ({ progress: body })),
    ...extra,
  ]);
}

function logIn() {
  setLeadsId('lead-1');
  setLoggedIn(true);
}

function events() {
  return (window.dataLayer ?? []).filter((entry) => typeof entry.event === 'string');
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetAppStateForTests();
  resetCheckoutStateForTests();
  window.dataLayer = [];
  window.innerWidth = 1280;
});
afterEach(() => {
  cleanup();
  clearToasts();
});

describe('step 1, shipping', () => {
  it("asks a visitor to sign up with the spec's messages", async () => {
    const u = userEvent.setup();
    localStorage.setItem(
      storageKeys.cart,
      JSON.stringify([
        {
          name: 'Sleep Gummies',
          product_id: offers.sleep.oneTime,
          price: 24.99,
          frequency: 'ONE_TIME',
          description: 'x',
          dose: 'One bottle',
          quantity: 1,
          img: '/images/supp-sleep.webp',
        },
      ]),
    );
    stubApi([stub(catalogApi.products, catalog)]);
    renderRoutes(routes, { path: '/checkout/shipping' });
    await u.click(await screen.findByRole('button', { name: 'Create account and continue' }));
    // A supplement order agrees to the terms and privacy policy, not to telehealth.
    expect(
      await screen.findByText('Agree to the Terms of Service and the Privacy Policy to continue'),
    ).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Consent to Telehealth/ })).toBeNull();
    expect(screen.getAllByText('Field required').length).toBeGreaterThanOrEqual(4);
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(screen.getByText('You must enter a date of birth.')).toBeTruthy();
    // Spec §4 step 1 is GA4's begin_checkout, with the step as a parameter (decision 020).
    expect(events().map((e) => e.event)).toEqual(['begin_checkout']);
    expect(events()[0]?.ecommerce).toMatchObject({ checkout_step: 1, checkout_option: 'Shipping' });
  });

  it("fills the address from the account and checks it with the spec's messages", async () => {
    const u = userEvent.setup();
    logIn();
    const api = stubMember();
    renderRoutes(routes, { path: '/checkout/shipping' });
    const form = await screen.findByRole('region', { name: 'Shipping address' });
    const zip = within(form).getByLabelText('ZIP code');
    expect((within(form).getByLabelText('Street address') as HTMLInputElement).value).toBe(
      '12 Harbor St',
    );
    expect((within(form).getByLabelText('Phone') as HTMLInputElement).value).toBe('(555) 010-0123');
    await u.clear(zip);
    await u.type(zip, '0410');
    await u.clear(within(form).getByLabelText('City'));
    await u.click(within(form).getByRole('button', { name: 'Continue' }));
    expect(await within(form).findByText('Invalid ZIP code format')).toBeTruthy();
    expect(within(form).getByText('Field required')).toBeTruthy();

    await u.type(zip, '1');
    await u.type(within(form).getByLabelText('City'), 'Portland');
    await u.click(within(form).getByRole('button', { name: 'Continue' }));
    // No offers for this cart: step 2 moves straight on to payment.
    expect(await screen.findByRole('region', { name: 'Payment' })).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/checkout/payment');
    // The new step's heading takes focus, so a screen reader says where the customer is.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Payment' })),
    );
    // Each step's event goes from an effect of its page, which may run a moment after the focus:
    // step 1 shown is begin_checkout, step 2 shown (the address given) add_shipping_info; step 3's
    // add_payment_info waits for the payment to be submitted.
    const steps = () =>
      events()
        .filter(
          (e) => typeof (e.ecommerce as { checkout_step?: number }).checkout_step === 'number',
        )
        .map((e) => [e.event, (e.ecommerce as { checkout_step: number }).checkout_step]);
    await waitFor(() =>
      expect(steps()).toEqual([
        ['begin_checkout', 1],
        ['add_shipping_info', 2],
      ]),
    );
    // The server keeps the step reached and the address, for a reload or another tab.
    const saved = () => api.callsTo(checkoutApi.saveProgress);
    await waitFor(() =>
      expect(saved()).toEqual([
        { step: 'upsell', shipping: expect.objectContaining({ address: '12 Harbor St' }) },
        { step: 'payment', shipping: expect.objectContaining({ city: 'Portland' }) },
      ]),
    );
  });

  it('after a reload, goes on from the step and address the server kept', async () => {
    logIn();
    const api = stubMember([
      stub(checkoutApi.progress, { progress: { step: 'payment', shipping } }),
    ]);
    renderRoutes(routes, { path: '/checkout/payment' });
    const payment = await screen.findByRole('region', { name: 'Payment' });
    await waitFor(() => expect(payment.textContent).toContain('88 Alder Road'));
    expect(screen.getByTestId('location').textContent).toBe('/checkout/payment');
    // Already at payment: nothing to save again.
    expect(api.callsTo(checkoutApi.saveProgress)).toEqual([]);
  });

  it('a new tab at step 1 fills the form in with the address given, not the saved one', async () => {
    logIn();
    stubMember([stub(checkoutApi.progress, { progress: { step: 'upsell', shipping } })]);
    renderRoutes(routes, { path: '/checkout/shipping' });
    const form = await screen.findByRole('region', { name: 'Shipping address' });
    expect((within(form).getByLabelText('Street address') as HTMLInputElement).value).toBe(
      '88 Alder Road',
    );
    expect((within(form).getByLabelText('City') as HTMLInputElement).value).toBe('Bend');
  });

  it('sends an empty cart back to the shop, saying so', async () => {
    stubApi([stub(catalogApi.products, catalog)]);
    renderRoutes(routes, { path: '/checkout/payment' });
    expect(await screen.findByRole('heading', { name: 'Shop' })).toBeTruthy();
    expect(await screen.findByText('Your cart is empty')).toBeTruthy();
  });
});

describe('step 3, payment', () => {
  it('says the card and consent messages of spec §5 word for word', async () => {
    const u = userEvent.setup();
    logIn();
    setCheckoutShipping(shipping);
    stubMember();
    renderRoutes(routes, { path: '/checkout/payment' });
    const payment = await screen.findByRole('region', { name: 'Payment' });
    expect(await within(payment).findByRole('radio', { name: /Visa/ })).toHaveProperty(
      'checked',
      true,
    );
    await u.click(within(payment).getByRole('radio', { name: 'A new card' }));
    await u.click(within(payment).getByRole('button', { name: 'Place order' }));
    expect(await within(payment).findByText('Card number is required')).toBeTruthy();
    expect(within(payment).getByText('Not a valid expiration date')).toBeTruthy();
    expect(within(payment).getByText('Card security code is Required')).toBeTruthy();
    expect(
      within(payment).getByText('Continue your payment by checking the box above'),
    ).toBeTruthy();
    expect(document.activeElement).toBe(within(payment).getByLabelText('Card number'));

    await u.type(within(payment).getByLabelText('Card number'), '4242 4242 4242 4242 1');
    await u.click(within(payment).getByRole('button', { name: 'Place order' }));
    expect(await within(payment).findByText('Max 16 digits allowed')).toBeTruthy();

    await u.click(within(payment).getByRole('checkbox', { name: 'Same as the shipping address' }));
    await u.click(within(payment).getByRole('button', { name: 'Place order' }));
    expect(await within(payment).findAllByText('Field required')).toHaveLength(4);
  });

  it('catches a card past its month in the form, and groups the number as it is typed', async () => {
    const u = userEvent.setup();
    logIn();
    setCheckoutShipping(shipping);
    const api = stubMember();
    renderRoutes(routes, { path: '/checkout/payment' });
    const payment = await screen.findByRole('region', { name: 'Payment' });
    await u.click(await within(payment).findByRole('radio', { name: 'A new card' }));
    const number = within(payment).getByLabelText('Card number') as HTMLInputElement;
    await u.type(number, '4242424242424242');
    expect(number.value).toBe('4242 4242 4242 4242');
    await u.type(within(payment).getByLabelText('Expiration'), '0120');
    await u.type(within(payment).getByLabelText('Security code'), '123');
    await u.click(within(payment).getByRole('checkbox', { name: /I authorize Pairwell/ }));
    await u.click(within(payment).getByRole('button', { name: 'Place order' }));
    expect(await within(payment).findByText('Your card has expired.')).toBeTruthy();
    expect(api.callsTo(checkoutApi.placeOrder)).toEqual([]);
  });

  it('places one order for a double click, without a price, and shows the order number', async () => {
    const u = userEvent.setup();
    logIn();
    setCheckoutShipping(shipping);
    sessionStorage.setItem(storageKeys.clickId, 'c-abc');
    const bodies: unknown[] = [];
    const api = stubMember([
      stub(checkoutApi.placeOrder, (body) => {
        bodies.push(body);
        return {
          orders_id: 7,
          order_number: 'PW-100200',
          placed_at: '2026-11-24T15:00:00.000Z',
          subtotal_cents: 6748,
          discount_cents: 674,
          coupon_code: 'WELCOME10',
          total_cents: 6074,
          subscriptions: 1,
          items: cart.products.items.map((item) => ({
            product_id: item.product_id,
            name: item.name,
            category: item.category,
            price_cents: item.price_cents,
            quantity: item.quantity,
            frequency: item.frequency,
          })),
        };
      }),
    ]);
    renderRoutes(routes, { path: '/checkout/payment' });
    const payment = await screen.findByRole('region', { name: 'Payment' });
    // The recurring consent says what renews, for how much, and from when (the cart's monthly line).
    const consent = await within(payment).findByRole('checkbox', {
      name: /^I authorize Pairwell to charge my card \$60\.74 for this order, and then \$17\.50 for Sleep Gummies every month, starting \d\d\/\d\d\/\d{4}, until I cancel\. I can cancel any time in Subscriptions\. I agree to the Terms of Service/,
    });
    await u.click(consent);
    const place = within(payment).getByRole('button', { name: 'Place order' });
    await u.dblClick(place);

    expect(
      await screen.findByRole('heading', { name: 'Thank you, your order is placed' }),
    ).toBeTruthy();
    expect(bodies).toHaveLength(1);
    const body = bodies[0] as Record<string, unknown>;
    expect(body).toEqual({
      idempotency_key: expect.stringMatching(/^[0-9a-f-]{36}$/),
      shipping: { ...shipping },
      billing: null,
      payment: { method: 'saved' },
      consent: true,
      click_id: 'c-abc',
    });
    expect(JSON.stringify(body)).not.toMatch(/price|total|cents/);
    expect(screen.getByRole('link', { name: 'PW-100200' }).getAttribute('href')).toBe(
      '/orders#PW-100200',
    );
    expect(sessionStorage.getItem(checkoutKeyStorageKey)).toBeNull();
    // GA4's item parameters beside spec §3's five fields.
    const items = [
      {
        item_id: String(offers.sleep.monthly),
        item_name: 'Sleep Gummies',
        item_category: 'supplements',
        item_variant: 'MONTHLY',
        price: 17.5,
        quantity: 1,
        name: 'Sleep Gummies',
        id: String(offers.sleep.monthly),
        category: 'supplements',
      },
      {
        item_id: String(offers.biotin.oneTime),
        item_name: 'Biotin Gummies',
        item_category: 'supplements',
        item_variant: 'ONE_TIME',
        price: 24.99,
        quantity: 2,
        name: 'Biotin Gummies',
        id: String(offers.biotin.oneTime),
        category: 'supplements',
      },
    ];
    // Step 3: the payment submitted once (the second click sent nothing), the kind, not the card.
    const paymentInfo = events().filter((e) => e.event === 'add_payment_info');
    expect(paymentInfo.map((e) => e.ecommerce)).toEqual([
      {
        checkout_step: 3,
        checkout_option: 'Payment',
        currency: 'USD',
        value: 67.48,
        coupon: 'WELCOME10',
        payment_type: 'Saved card',
        items,
      },
    ]);
    const purchase = events().find((e) => e.event === 'purchase');
    expect(purchase?.ecommerce).toEqual({
      transaction_id: 'PW-100200',
      value: 60.74,
      tax: 0,
      shipping: 0,
      currency: 'USD',
      coupon: 'WELCOME10',
      items,
    });
    await waitFor(() => expect(api.callsTo(cartApi.cart).length).toBeGreaterThan(1));
  });

  it("shows a decline's reason on the payment step and makes a new key for the next try", async () => {
    const u = userEvent.setup();
    logIn();
    setCheckoutShipping(shipping);
    const keys: string[] = [];
    stubMember([
      stub(checkoutApi.placeOrder, (body) => {
        keys.push(body.idempotency_key);
        return failure(402, 'CARD_DECLINED', 'Your card was declined.', {
          ccnum: 'Your card was declined.',
        });
      }),
    ]);
    renderRoutes(routes, { path: '/checkout/payment' });
    const payment = await screen.findByRole('region', { name: 'Payment' });
    await u.click(await within(payment).findByRole('radio', { name: 'A new card' }));
    await u.type(within(payment).getByLabelText('Card number'), '4000 0000 0000 0002');
    await u.type(within(payment).getByLabelText('Expiration'), '1230');
    expect((within(payment).getByLabelText('Expiration') as HTMLInputElement).value).toBe('12/30');
    await u.type(within(payment).getByLabelText('Security code'), '123');
    await u.click(within(payment).getByRole('checkbox', { name: /I authorize Pairwell/ }));
    await u.click(within(payment).getByRole('button', { name: 'Place order' }));

    const alert = await within(payment).findByRole('alert');
    expect(alert.textContent).toBe('Your card was declined.');
    // Shown once: not repeated on the card number field.
    expect(within(payment).getAllByText('Your card was declined.')).toHaveLength(1);
    expect(screen.getByTestId('location').textContent).toBe('/checkout/payment');

    await u.click(within(payment).getByRole('button', { name: 'Place order' }));
    await waitFor(() => expect(keys).toHaveLength(2));
    expect(keys[0]).not.toBe(keys[1]);
  });
});

describe('shipping to the partner (issue 16)', () => {
  const samAddress = {
    address: '12 Oak Avenue',
    address2: '',
    city: 'Salem',
    state: 'OR',
    zip: '97301',
  };
  const sharesAddress = stub(partnersApi.shared, {
    partner: { first_name: 'Sam' },
    address: samAddress,
    orders: null,
    subscriptions: null,
  });
  const placed = (body: unknown) => {
    void body;
    return {
      orders_id: 8,
      order_number: 'PW-100201',
      placed_at: '2026-11-24T15:00:00.000Z',
      subtotal_cents: 6748,
      discount_cents: 674,
      coupon_code: 'WELCOME10',
      total_cents: 6074,
      subscriptions: 1,
      ship_to_partner: { first_name: 'Sam' },
      items: [],
    };
  };

  it("offers 'Ship to Sam' while Sam shares an address, asks only the phone, and says so to the end", async () => {
    const u = userEvent.setup();
    logIn();
    const bodies: unknown[] = [];
    const api = stubMember([
      sharesAddress,
      stub(checkoutApi.placeOrder, (body) => {
        bodies.push(body);
        return placed(body);
      }),
    ]);
    renderRoutes(routes, { path: '/checkout/shipping' });
    const form = await screen.findByRole('region', { name: 'Shipping address' });
    const mine = within(form).getByRole('radio', { name: 'My address' });
    expect((mine as HTMLInputElement).checked).toBe(true);
    await u.click(within(form).getByRole('radio', { name: /Ship to Sam.*12 Oak Avenue/ }));
    // The address is Sam's: only the phone is asked.
    expect(within(form).queryByLabelText('Street address')).toBeNull();
    await u.click(within(form).getByRole('button', { name: 'Continue' }));

    const payment = await screen.findByRole('region', { name: 'Payment' });
    expect(within(payment).getByText('Shipping to Sam')).toBeTruthy();
    await u.click(await within(payment).findByRole('checkbox', { name: /I authorize Pairwell/ }));
    await u.click(within(payment).getByRole('button', { name: 'Place order' }));
    expect(await screen.findByText('Shipping to Sam')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Thank you, your order is placed' })).toBeTruthy();
    expect(bodies[0]).toMatchObject({
      ship_to_partner: true,
      shipping: { ...samAddress, phoneNo: '(555) 010-0123' },
    });
    // The choice is kept with the step, for a reload or another tab.
    expect(api.callsTo(checkoutApi.saveProgress)[0]).toMatchObject({
      step: 'upsell',
      ship_to_partner: true,
    });
  });

  it("bills the customer's own billing address, never Sam's, and does not offer 'same as shipping'", async () => {
    const u = userEvent.setup();
    logIn();
    setCheckoutShipping({ ...samAddress, state: 'OR', phoneNo: '(503) 555-0142' }, true);
    const ownBilling = {
      address: '7 Ledger Lane',
      address2: 'Apt 2',
      city: 'Eugene',
      state: 'OR',
      zip: '97401',
      country: 'US',
    };
    const bodies: unknown[] = [];
    stubMember([
      stub(accountsApi.accountData, buildAccountData({ billing: ownBilling })),
      sharesAddress,
      stub(checkoutApi.placeOrder, (body) => {
        bodies.push(body);
        return placed(body);
      }),
    ]);
    renderRoutes(routes, { path: '/checkout/payment' });
    const payment = await screen.findByRole('region', { name: 'Payment' });
    const billing = await within(payment).findByRole('group', { name: 'Billing address' });
    expect(
      within(billing).queryByRole('checkbox', { name: 'Same as the shipping address' }),
    ).toBeNull();
    expect((within(billing).getByLabelText('Street address') as HTMLInputElement).value).toBe(
      '7 Ledger Lane',
    );
    expect((within(billing).getByLabelText('City') as HTMLInputElement).value).toBe('Eugene');
    await u.click(within(payment).getByRole('checkbox', { name: /I authorize Pairwell/ }));
    await u.click(within(payment).getByRole('button', { name: 'Place order' }));
    expect(await screen.findByText('Shipping to Sam')).toBeTruthy();
    expect(bodies[0]).toMatchObject({
      ship_to_partner: true,
      billing: {
        address: '7 Ledger Lane',
        address2: 'Apt 2',
        city: 'Eugene',
        state: 'OR',
        zip: '97401',
      },
    });
  });

  it("asks for a billing address when the account has none, rather than using the partner's", async () => {
    const u = userEvent.setup();
    logIn();
    setCheckoutShipping({ ...samAddress, state: 'OR', phoneNo: '(503) 555-0142' }, true);
    const api = stubMember([
      stub(accountsApi.accountData, buildAccountData({ billing: null })),
      sharesAddress,
      stub(checkoutApi.placeOrder, placed),
    ]);
    renderRoutes(routes, { path: '/checkout/payment' });
    const payment = await screen.findByRole('region', { name: 'Payment' });
    const billing = await within(payment).findByRole('group', { name: 'Billing address' });
    expect((within(billing).getByLabelText('Street address') as HTMLInputElement).value).toBe('');
    await u.click(within(payment).getByRole('checkbox', { name: /I authorize Pairwell/ }));
    await u.click(within(payment).getByRole('button', { name: 'Place order' }));
    await waitFor(() =>
      expect(within(billing).getByLabelText('Street address').getAttribute('aria-invalid')).toBe(
        'true',
      ),
    );
    expect(api.callsTo(checkoutApi.placeOrder)).toEqual([]);
  });

  it('says plainly when the partner stopped sharing since, and sends the customer back to choose', async () => {
    const u = userEvent.setup();
    logIn();
    setCheckoutShipping({ ...samAddress, state: 'OR', phoneNo: '(503) 555-0142' }, true);
    const gone =
      "Your partner's shipping address is no longer shared with you, so this order can't ship there. Nothing was charged. Choose another address.";
    stubMember([
      sharesAddress,
      stub(
        checkoutApi.placeOrder,
        failure(409, 'PARTNER_ADDRESS_UNAVAILABLE', gone, { 'shipping.address': gone }),
      ),
    ]);
    renderRoutes(routes, { path: '/checkout/payment' });
    const payment = await screen.findByRole('region', { name: 'Payment' });
    await u.click(await within(payment).findByRole('checkbox', { name: /I authorize Pairwell/ }));
    await u.click(within(payment).getByRole('button', { name: 'Place order' }));
    const alert = await within(payment).findByRole('alert');
    expect(alert.textContent).toContain(gone);
    expect(
      within(alert).getByRole('link', { name: 'Check your shipping address' }).getAttribute('href'),
    ).toBe('/checkout/shipping');
    expect(sessionStorage.getItem(checkoutKeyStorageKey)).toBeNull();
  });
});

describe('the order summary', () => {
  it('says the bottles each line brings, and its badge counts them', () => {
    const cart = buildCart([
      { offer: sleepLine.offers[2]!, quantity: 1, slug: 'sleep-gummies' },
      { offer: biotinLine.offers[0]!, quantity: 2, slug: 'biotin-gummies' },
    ]);
    const view: CartView = {
      mode: 'member',
      status: 'ready',
      error: null,
      retry: () => undefined,
      lines: cart.products.items.map(lineFromServer),
      coupon: null,
      couponProblem: null,
      itemCount: cart.item_count,
      subtotalCents: cart.subtotal_cents,
      discountCents: 0,
      shippingCents: 0,
      taxCents: 0,
      totalCents: cart.total_cents,
    };
    render(
      <MemoryRouter>
        <OrderSummary cart={view} />
      </MemoryRouter>,
    );
    const [quarterly, biotin] = screen.getAllByRole('listitem');
    expect(quarterly?.textContent).toBe(
      '3Sleep Gummies$45.00/quarterly · , 3 bottles every 3 months$45.00',
    );
    expect(biotin?.textContent).toBe('2Biotin Gummies$24.99 · , 2 bottles$49.98');
  });
});
