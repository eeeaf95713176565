// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Subscription } from '#shared/subscriptions.ts';
import {
  EMERGENCY_NOTE,
  treatmentRequestsApi,
  type TreatmentRequest,
} from '#shared/treatment-requests.ts';
import { clearToasts } from '#client/components/ui/toast.tsx';
import { resetAppStateForTests, setLeadsId } from '#client/lib/app-state.ts';
import {
  failure,
  LocationProbe,
  renderRoutes,
  stub,
  stubApi,
  type Stub,
  waitForDialogToClose,
  waitForDialogToOpen,
} from '#client/testing/render-app.tsx';
import { TreatmentRequests } from './components/treatment-requests.tsx';

function buildPlan(overrides: Partial<Subscription> = {}): Subscription {
  return {
    id: 9,
    product_id: null,
    name: 'Low-dose doxepin 3 mg',
    slug: '',
    img: '/images/program-sleep.svg',
    category: 'sleep',
    frequency: 'MONTHLY',
    quantity: 1,
    unit_price_cents: 3000,
    price_cents: 3000,
    status: 'ACTIVE',
    next_billing_date: '2026-06-14',
    paused_until: null,
    cancel_reason: null,
    card: { brand: 'Visa', last4: '4242' },
    swap_options: [],
    refill: { refills_remaining: 2, valid_until: '2027-05-21' },
    together: null,
    ...overrides,
  };
}

const supplement = buildPlan({
  id: 7,
  product_id: 101,
  name: 'Sleep Gummies',
  slug: 'sleep-gummies',
  img: '/images/supp-sleep.webp',
  category: 'supplements',
  refill: null,
});

function buildRequest(overrides: Partial<TreatmentRequest> = {}): TreatmentRequest {
  return {
    id: 31,
    subscription_id: 9,
    kind: 'early_refill',
    reason: "I'm travelling when my next refill would arrive",
    status: 'OPEN',
    created_at: '2026-05-03T14:20:00.000Z',
    decided_at: null,
    outcome: null,
    thread_id: 55,
    ...overrides,
  };
}

const sentMessage = 'Sent to your provider. We will e-mail you when they reply.';

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetAppStateForTests();
  setLeadsId('lead-1');
});
afterEach(() => {
  cleanup();
  clearToasts();
});

/** The plans' treatment sections, as their cards show them; `extra` stubs answer last. */
function renderPlans(
  plans: Subscription[],
  { requests = [], extra = [] }: { requests?: TreatmentRequest[]; extra?: Stub[] } = {},
) {
  const api = stubApi([stub(treatmentRequestsApi.list, { requests }), ...extra]);
  const routes: RouteObject[] = [
    {
      path: '/subscriptions',
      element: (
        <>
          {plans.map((plan) => (
            <article key={plan.id} aria-label={plan.name}>
              <TreatmentRequests subscription={plan} />
            </article>
          ))}
        </>
      ),
    },
    { path: '/messages', element: <LocationProbe /> },
  ];
  return { api, ...renderRoutes(routes, { path: '/subscriptions' }) };
}

const treatment = () => screen.findByRole('region', { name: 'Your treatment' });

async function openDialog(action: string, name = action) {
  const u = userEvent.setup();
  await u.click(within(await treatment()).getByRole('button', { name: action }));
  const dialog = await screen.findByRole('dialog', { name });
  await waitForDialogToOpen(dialog);
  return { u, dialog };
}

describe("a refill plan's treatment section", () => {
  it('offers the three requests on a refill plan, and nothing on a supplement subscription', async () => {
    renderPlans([buildPlan(), supplement]);
    const section = await treatment();
    expect(section.textContent).toContain(
      'Questions between visits go to your provider, who usually replies within one business day.',
    );
    const buttons = within(section)
      .getAllByRole('button')
      .map((button) => button.textContent);
    expect(buttons).toEqual([
      'Ask for an early refill',
      'Ask to change my dose',
      'Report a side effect',
    ]);
    expect(
      within(screen.getByRole('article', { name: 'Sleep Gummies' })).queryAllByRole('button'),
    ).toHaveLength(0);
    expect(screen.getAllByRole('region', { name: 'Your treatment' })).toHaveLength(1);
  });

  it('offers no early refill when no refill is left, and no request once the plan has ended', async () => {
    renderPlans([
      buildPlan({ refill: { refills_remaining: 0, valid_until: '2027-05-21' } }),
      buildPlan({ id: 10, name: 'Sildenafil 50 mg', status: 'CANCELLED' }),
    ]);
    const section = await treatment();
    expect(
      within(section)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Ask to change my dose', 'Report a side effect']);
    const ended = screen.getByRole('article', { name: 'Sildenafil 50 mg' });
    expect(within(ended).queryAllByRole('button')).toHaveLength(0);
    expect(ended.textContent).toBe('');
  });

  it("lists the plan's latest requests with their status, outcome and conversation", async () => {
    renderPlans([buildPlan()], {
      requests: [
        buildRequest({
          id: 34,
          kind: 'dose_change',
          reason: "It isn't working well enough",
          status: 'APPROVED',
          created_at: '2026-05-20T09:00:00.000Z',
          decided_at: '2026-05-20T15:00:00.000Z',
          outcome: 'Your provider prescribed Low-dose doxepin 6 mg.',
          thread_id: 58,
        }),
        // Another plan's request stays on its own card.
        buildRequest({ id: 33, subscription_id: 12, kind: 'side_effect', thread_id: 57 }),
        buildRequest({
          id: 32,
          kind: 'early_refill',
          status: 'DECLINED',
          created_at: '2026-05-10T09:00:00.000Z',
          outcome: 'Your provider declined: your next refill is only a week away.',
          thread_id: 56,
        }),
        buildRequest({ id: 31, status: 'ANSWERED', created_at: '2026-05-03T09:00:00.000Z' }),
        buildRequest({ id: 30, status: 'ANSWERED', created_at: '2026-04-01T09:00:00.000Z' }),
      ],
    });
    const list = await screen.findByRole('list', { name: 'Your requests' });
    const items = within(list).getAllByRole('listitem');
    // Newest first, three at most.
    expect(items).toHaveLength(3);
    const [latest, declined] = items as [HTMLElement, HTMLElement, HTMLElement];
    expect(latest.textContent).toContain('Dose change request');
    expect(latest.textContent).toContain('Asked May 20, 2026');
    expect(latest.textContent).toContain('Approved');
    expect(latest.textContent).toContain('Your provider prescribed Low-dose doxepin 6 mg.');
    const link = within(latest).getByRole('link', { name: 'Read the conversation' });
    expect(link.getAttribute('href')).toBe('/messages?thread=58');
    expect(declined.textContent).toContain('Early refill request');
    expect(declined.textContent).toContain('Declined');
    expect(declined.textContent).toContain('your next refill is only a week away');
    expect(items[2]?.textContent).toContain('Answered');
    expect(list.textContent).not.toContain('Side effect report');

    await userEvent.setup().click(link);
    expect((await screen.findByTestId('location')).textContent).toBe('/messages?thread=58');
  });

  it('says so quietly when the requests cannot be loaded, and still offers them', async () => {
    renderPlans([buildPlan()], {
      extra: [stub(treatmentRequestsApi.list, failure(503, 'UNAVAILABLE', 'Try again soon.'))],
    });
    const section = await treatment();
    expect(await within(section).findByText('We could not load your requests.')).toBeTruthy();
    expect(within(section).getAllByRole('button')).toHaveLength(3);
  });
});

describe('asking the provider', () => {
  it('needs a reason and a few words, and sends nothing until then', async () => {
    const { api } = renderPlans([buildPlan()]);
    const { u, dialog } = await openDialog('Ask to change my dose');
    const reasons = within(dialog).getByRole('group', { name: 'Why are you asking?' });
    expect(
      within(reasons)
        .getAllByRole('radio')
        .map((radio) => radio.closest('label')?.textContent),
    ).toEqual([
      "It isn't working well enough",
      'The side effects at this dose bother me',
      "I'd like to try a lower dose",
      'Something else',
    ]);
    const details = within(dialog).getByRole('textbox', { name: 'Tell your provider more' });
    expect(details.getAttribute('aria-describedby')).toBeTruthy();

    await u.click(within(dialog).getByRole('button', { name: 'Send to my provider' }));
    expect(await within(dialog).findByText('Choose a reason')).toBeTruthy();
    expect(within(dialog).getByText('Tell your provider a little more')).toBeTruthy();
    // The first mistake takes focus; each message is tied to its field.
    expect(document.activeElement).toBe(within(reasons).getAllByRole('radio')[0]);
    expect(details.getAttribute('aria-invalid')).toBe('true');
    expect(details.getAttribute('aria-describedby')).toContain(
      within(dialog).getByText('Tell your provider a little more').closest('p')?.id,
    );

    // Only spaces are not a few words.
    await u.click(within(reasons).getByRole('radio', { name: "I'd like to try a lower dose" }));
    await u.type(details, '   ');
    await u.click(within(dialog).getByRole('button', { name: 'Send to my provider' }));
    await waitFor(() => expect(within(dialog).queryByText('Choose a reason')).toBeNull());
    expect(within(dialog).getByText('Tell your provider a little more')).toBeTruthy();
    expect(document.activeElement).toBe(details);
    expect(api.callsTo(treatmentRequestsApi.create)).toEqual([]);
  });

  it('sends the request, closes the dialog and says what happens next', async () => {
    const created = buildRequest();
    const { api } = renderPlans([buildPlan()], {
      extra: [stub(treatmentRequestsApi.create, { request: created })],
    });
    const { u, dialog } = await openDialog('Ask for an early refill');
    await u.click(
      within(dialog).getByRole('radio', {
        name: "I'm travelling when my next refill would arrive",
      }),
    );
    await u.type(
      within(dialog).getByRole('textbox', { name: 'Tell your provider more' }),
      'I leave for three weeks on the 10th.',
    );
    await u.click(within(dialog).getByRole('button', { name: 'Send to my provider' }));
    await waitForDialogToClose();
    expect(api.callsTo(treatmentRequestsApi.create)).toEqual([
      {
        subscription_id: 9,
        kind: 'early_refill',
        reason: 'travel',
        details: 'I leave for three weeks on the 10th.',
      },
    ]);
    expect(await screen.findByText(sentMessage)).toBeTruthy();
    // The list asks again; focus is back on the button that opened the dialog.
    await waitFor(() => expect(api.callsTo(treatmentRequestsApi.list).length).toBe(2));
    expect(document.activeElement?.textContent).toBe('Ask for an early refill');
  });

  it("shows the server's refusal above the form when the same request is still open", async () => {
    const refusal =
      'You already asked for this, and your provider has not replied yet. You can add to it in Messages.';
    renderPlans([buildPlan()], {
      extra: [stub(treatmentRequestsApi.create, failure(409, 'REQUEST_OPEN', refusal))],
    });
    const { u, dialog } = await openDialog('Ask for an early refill');
    await u.click(within(dialog).getByRole('radio', { name: 'Something else' }));
    await u.type(
      within(dialog).getByRole('textbox', { name: 'Tell your provider more' }),
      'Moving house.',
    );
    await u.click(within(dialog).getByRole('button', { name: 'Send to my provider' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(refusal);
    expect(screen.getByRole('dialog', { name: 'Ask for an early refill' })).toBe(dialog);
    expect(screen.queryByText(sentMessage)).toBeNull();
  });

  it("puts the server's field messages on the fields", async () => {
    renderPlans([buildPlan()], {
      extra: [
        stub(
          treatmentRequestsApi.create,
          failure(400, 'VALIDATION', 'Please check the highlighted fields.', {
            details: 'Keep it to 2000 characters or fewer; you can add more in Messages',
          }),
        ),
      ],
    });
    const { u, dialog } = await openDialog('Ask to change my dose');
    await u.click(within(dialog).getByRole('radio', { name: 'Something else' }));
    const details = within(dialog).getByRole('textbox', { name: 'Tell your provider more' });
    await u.type(details, 'A long story.');
    await u.click(within(dialog).getByRole('button', { name: 'Send to my provider' }));
    expect(
      await within(dialog).findByText(
        'Keep it to 2000 characters or fewer; you can add more in Messages',
      ),
    ).toBeTruthy();
    expect(details.getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });

  it('a side effect report says what to do in an emergency before anything else', async () => {
    renderPlans([buildPlan()]);
    const { dialog } = await openDialog('Report a side effect');
    const note = within(dialog).getByRole('note', { name: 'In an emergency' });
    expect(note.textContent).toBe(EMERGENCY_NOTE);
    // Above the form, and read with the dialog's name.
    const form = dialog.querySelector('form');
    expect(form).not.toBeNull();
    expect(note.compareDocumentPosition(form as Node) & Node.DOCUMENT_POSITION_FOLLOWING).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
    expect(dialog.getAttribute('aria-describedby')?.split(' ')).toContain(note.id);
    expect(
      within(within(dialog).getByRole('group', { name: 'How bad is it?' }))
        .getAllByRole('radio')
        .map((radio) => radio.closest('label')?.textContent),
    ).toEqual([
      'Mild: I notice it, but it does not get in my way',
      'Moderate: it gets in the way of my day',
      'Severe: it worries me',
    ]);
  });

  it('an early refill request carries no emergency note', async () => {
    renderPlans([buildPlan()]);
    const { u, dialog } = await openDialog('Ask for an early refill');
    expect(within(dialog).queryByRole('note')).toBeNull();
    await u.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitForDialogToClose();
    expect(document.activeElement?.textContent).toBe('Ask for an early refill');
  });
});
