// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { clearToasts } from '#client/components/ui/toast.tsx';
import { biotinLine, bundleLine, sleepLine } from '#client/features/cart/cart.fixtures.ts';
import { renderRoutes, stub, stubApi } from '#client/testing/render-app.tsx';
import { catalogApi, offers, type Catalog, type ProductLine } from '#shared/catalog.ts';
import {
  togetherApi,
  type TogetherItem,
  type TogetherOverview,
} from '#shared/partners-together.ts';
import { TogetherSection } from './together-section.tsx';

afterEach(() => {
  cleanup();
  clearToasts();
});

/** The seeded Immunity Gummies: its own product ids (one-time, monthly, quarterly). */
const immunityLine: ProductLine = {
  ...sleepLine,
  slug: 'immunity-gummies',
  name: 'Immunity Gummies',
  offers: sleepLine.offers.map((offer, index) => ({
    ...offer,
    product_id:
      [offers.immunity.oneTime, offers.immunity.monthly, offers.immunity.quarterly][index] ?? 0,
    product_name: 'Immunity Gummies',
  })),
};

const catalog: Catalog = { lines: [sleepLine, biotinLine, immunityLine, bundleLine] };

const overview: TogetherOverview = {
  card: { brand: 'Visa', last4: '4242' },
  addresses: { shipping: null, billing: null },
  items: [],
};

function proposed(kind: TogetherItem['kind']): TogetherItem {
  return {
    together_id: 9,
    kind,
    role: 'payer',
    status: 'pending',
    partner_first_name: 'Sam',
    lines: [],
    total_cents: 0,
    next_date: null,
    paused_until: null,
    ships_to: null,
    ships_to_name: 'Sam',
    ship_to: null,
    billed_to: null,
    actions: [],
  };
}

function renderSection() {
  const api = stubApi([
    stub(togetherApi.overview, overview),
    stub(catalogApi.products, catalog),
    stub(togetherApi.give, { item: proposed('gift') }),
    stub(togetherApi.startPlan, { item: proposed('plan') }),
  ]);
  renderRoutes([{ path: '/', element: <TogetherSection leadsId="lead-1" name="Sam" /> }]);
  return api;
}

describe("the partner page's gift form", () => {
  it('keeps the supplement chosen when the frequency changes, says exactly what ships and sends that offer', async () => {
    const u = userEvent.setup();
    const api = renderSection();
    const form = await screen.findByRole('region', { name: 'Give Sam a subscription' });
    // The catalogue has arrived once its supplements are offered.
    await within(form).findByRole('option', { name: 'Immunity Gummies, $17.50' });
    await u.selectOptions(
      within(form).getByRole('combobox', { name: 'Supplement' }),
      'Immunity Gummies, $17.50',
    );
    expect(
      within(form).getByText('Sam gets Immunity Gummies, 1 bottle a month, $17.50 each delivery.'),
    ).toBeTruthy();

    await u.selectOptions(within(form).getByRole('combobox', { name: 'How often' }), 'QUARTERLY');
    await u.selectOptions(within(form).getByRole('combobox', { name: 'Quantity' }), '2');
    expect(
      (within(form).getByRole('combobox', { name: 'Supplement' }) as HTMLSelectElement)
        .selectedOptions[0]?.textContent,
    ).toBe('Immunity Gummies, $45.00');
    expect(
      within(form).getByText(
        'Sam gets Immunity Gummies, 6 bottles every 3 months, $90.00 each delivery.',
      ),
    ).toBeTruthy();

    await u.click(within(form).getByRole('button', { name: 'Give Sam a subscription' }));
    // The toast is the endpoint's declared message, never a copy of it typed again here.
    expect(await screen.findByText(togetherApi.give.message)).toBeTruthy();
    expect(api.callsTo(togetherApi.give)[0]).toEqual({
      product_id: offers.immunity.quarterly,
      quantity: 2,
    });
  });
});

describe("the partner page's couples' plan form", () => {
  it('keeps both supplements chosen when the frequency changes, names each line and sends those offers', async () => {
    const u = userEvent.setup();
    const api = renderSection();
    const form = await screen.findByRole('region', { name: "Start a couples' plan" });
    await within(form).findAllByRole('option', { name: 'Biotin Gummies, $15.75' });
    await u.selectOptions(
      within(form).getByRole('combobox', { name: 'Your supplement' }),
      'Biotin Gummies, $15.75',
    );
    await u.selectOptions(
      within(form).getByRole('combobox', { name: "Sam's supplement" }),
      'Immunity Gummies, $15.75',
    );
    await u.selectOptions(within(form).getByRole('combobox', { name: 'How often' }), 'QUARTERLY');

    expect(
      within(form).getByText('For you: Biotin Gummies, 3 bottles every 3 months, $40.50'),
    ).toBeTruthy();
    expect(
      within(form).getByText('For Sam: Immunity Gummies, 3 bottles every 3 months, $40.50'),
    ).toBeTruthy();
    expect(within(form).getByText('$81.00 each delivery for both, every 3 months.')).toBeTruthy();

    await u.click(within(form).getByRole('button', { name: "Propose the couples' plan" }));
    expect(await screen.findByText(togetherApi.startPlan.message)).toBeTruthy();
    expect(api.callsTo(togetherApi.startPlan)[0]).toEqual({
      product_id: offers.biotin.quarterly,
      quantity: 1,
      partner_product_id: offers.immunity.quarterly,
      partner_quantity: 1,
    });
  });
});

describe('accepting a gift', () => {
  it('says what the server said, a first payment that did not go through included', async () => {
    const u = userEvent.setup();
    const waiting: TogetherItem = {
      ...proposed('gift'),
      role: 'partner',
      actions: ['accept', 'decline'],
    };
    const said =
      'Gift accepted. Your first delivery is on its way. The first payment did not go through yet; Sam has been asked to update their card.';
    const api = stubApi([
      stub(togetherApi.overview, {
        ...overview,
        addresses: {
          shipping: {
            address: '1 Main St',
            address2: '',
            city: 'Austin',
            state: 'TX',
            zip: '78701',
          },
          billing: null,
        },
        items: [waiting],
      }),
      stub(catalogApi.products, catalog),
      stub(togetherApi.accept, { item: { ...waiting, status: 'active' } }, { message: said }),
    ]);
    renderRoutes([{ path: '/', element: <TogetherSection leadsId="lead-1" name="Sam" /> }]);

    await u.click(await screen.findByRole('button', { name: 'Accept the gift' }));
    expect(await screen.findByText(said)).toBeTruthy();
    expect(screen.queryByText('Gift accepted')).toBeNull();
    expect(api.callsTo(togetherApi.accept)[0]).toEqual({
      together_id: 9,
      ship_to: 'shipping',
    });
  });
});
