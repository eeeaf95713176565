// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reviewsApi, type Chart } from '#shared/reviews.ts';
import { clearToasts } from '#client/components/ui/toast.tsx';
import { failure, renderRoutes, stub, stubApi } from '#client/testing/render-app.tsx';
import { DecisionRecord } from './components/decision-record.tsx';
import {
  RenewalComparison,
  RenewalHistory,
  RenewalScalpPhotos,
} from './components/renewal-panels.tsx';
import { RiskFlagList } from './components/risk-flags.tsx';
import { VisitDecisionPanel } from './components/visit-decision-panel.tsx';

function buildChart(overrides: Partial<Chart> = {}): Chart {
  return {
    visit_id: 41,
    kind: 'visit',
    status: 'PENDING_REVIEW',
    category: 'ed',
    patient: { name: 'Robin Hale', dob: '04/12/1985', age: 41, state: 'OR', customer_id: 7 },
    questionnaire: { id: 'ed-intake', version: '1.0.0' },
    answers: [],
    risk_flags: [],
    preferences: {
      drug: 'sildenafil',
      dosage: '50mg',
      frequency: 'as-needed-6',
      hair: null,
      sleep: null,
    },
    photo_uploaded: true,
    review_requested: false,
    photo_upload_key: 'kY3v9Qx0Lm2Zp8Rt4Wb6Nc',
    order: { order_number: 'PW-100200', total_cents: 9000, payment_status: 'authorized' },
    decision: null,
    renewal: null,
    pharmacy_rejections: [],
    ...overrides,
  };
}

afterEach(() => {
  cleanup();
  clearToasts();
  vi.unstubAllGlobals();
});

const routes = (chart: Chart) => [{ path: '/', element: <VisitDecisionPanel chart={chart} /> }];

describe('the decision panel', () => {
  it("approves with the prescription prefilled from the preferences (a month's quantity of the chosen frequency), directions required, and shows what happened to the payment", async () => {
    const u = userEvent.setup();
    const api = stubApi([
      stub(reviewsApi.approve, { chart: buildChart({ status: 'APPROVED' }) }),
      stub(reviewsApi.queue, { visits: [], pharmacy_rejections: [], requests: [] }),
    ]);
    renderRoutes(routes(buildChart()));
    await u.click(screen.getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', { name: "Approve Robin Hale's visit?" });
    expect(within(dialog).getByLabelText('Drug')).toHaveProperty('value', 'sildenafil');
    expect(within(dialog).getByLabelText('Dosage')).toHaveProperty('value', '50mg');
    // '6 doses a month, as needed': six.
    expect(within(dialog).getByLabelText(/Quantity/)).toHaveProperty('value', '6');
    await u.click(within(dialog).getByRole('button', { name: 'Approve and prescribe' }));
    expect(await within(dialog).findByText('Enter the directions for the patient')).toBeTruthy();
    const directions = within(dialog).getByLabelText('Directions (sig)');
    expect(directions.getAttribute('aria-invalid')).toBe('true');
    await u.click(directions);
    await u.paste('x'.repeat(301));
    await u.click(within(dialog).getByRole('button', { name: 'Approve and prescribe' }));
    expect(
      await within(dialog).findByText(
        'Keep the directions to 300 characters or fewer (a sentence or two)',
      ),
    ).toBeTruthy();
    await u.clear(directions);
    await u.type(directions, 'Take one tablet about an hour before sex, at most once a day.');
    await u.clear(within(dialog).getByLabelText(/Quantity/));
    await u.click(within(dialog).getByRole('button', { name: 'Approve and prescribe' }));
    expect(await within(dialog).findByText('Enter the quantity')).toBeTruthy();
    await u.type(within(dialog).getByLabelText(/Quantity/), '6');
    await u.clear(within(dialog).getByLabelText(/Refills/));
    await u.type(within(dialog).getByLabelText(/Refills/), '12');
    await u.click(within(dialog).getByRole('button', { name: 'Approve and prescribe' }));
    expect(await within(dialog).findByText('At most 11 refills')).toBeTruthy();
    await u.clear(within(dialog).getByLabelText(/Refills/));
    await u.type(within(dialog).getByLabelText(/Refills/), '2');
    await u.click(within(dialog).getByRole('button', { name: 'Approve and prescribe' }));
    expect(await screen.findByText(reviewsApi.approve.message)).toBeTruthy();
    expect(api.callsTo(reviewsApi.approve)[0]).toMatchObject({
      visit_id: 41,
      prescription: {
        drug: 'sildenafil',
        dosage: '50mg',
        quantity: 6,
        refills: 2,
        directions: 'Take one tablet about an hour before sex, at most once a day.',
      },
    });
  });

  it("declines with a reason of at least 10 characters; the server's field message lands on the field", async () => {
    const u = userEvent.setup();
    stubApi([
      stub(
        reviewsApi.decline,
        failure(400, 'VALIDATION', 'Check the form', { reason: 'Say more for the patient' }),
      ),
    ]);
    renderRoutes(routes(buildChart()));
    await u.click(screen.getByRole('button', { name: 'Decline' }));
    const dialog = await screen.findByRole('dialog', { name: "Decline Robin Hale's visit?" });
    await u.type(within(dialog).getByLabelText('Reason the patient sees'), 'Too short');
    await u.click(within(dialog).getByRole('button', { name: 'Decline visit' }));
    expect(
      await within(dialog).findByText('Tell the patient why, in a sentence or two'),
    ).toBeTruthy();
    await u.type(within(dialog).getByLabelText('Reason the patient sees'), ' for a decision.');
    await u.click(within(dialog).getByRole('button', { name: 'Decline visit' }));
    expect(await within(dialog).findByText('Say more for the patient')).toBeTruthy();
  });

  it('is not offered once the visit is decided', () => {
    stubApi([]);
    renderRoutes(routes(buildChart({ status: 'APPROVED' })));
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
  });
});

describe("the chart's risk flags", () => {
  it('reads each severity in words; information is not styled as an alarm, only a high risk is red', () => {
    stubApi([]);
    renderRoutes([
      {
        path: '/',
        element: (
          <RiskFlagList
            flags={[
              { code: 'a', severity: 'info', text: 'Takes a daily multivitamin.', linkId: 'q1' },
              {
                code: 'b',
                severity: 'caution',
                text: 'Blood pressure above 140/90.',
                linkId: 'q2',
              },
              { code: 'c', severity: 'high', text: 'Takes nitrates.', linkId: 'q3' },
            ]}
          />
        ),
      },
    ]);
    const [info, caution, high] = screen.getAllByRole('listitem');
    expect(info?.textContent).toBe('Information: Takes a daily multivitamin.');
    expect(info?.className).not.toMatch(/danger/);
    expect(info?.className).toContain('bg-accent-50');
    expect(caution?.textContent).toBe('Caution: Blood pressure above 140/90.');
    expect(caution?.className).not.toMatch(/danger/);
    expect(high?.textContent).toBe('High risk: Takes nitrates.');
    expect(high?.className).toContain('text-danger');
  });
});

describe('the decision kept on the chart', () => {
  it('an approval: who, when, the photo ID opened before it, and the prescription', () => {
    render(
      <DecisionRecord
        decision={{
          outcome: 'approved',
          provider: 'Dr. Maya Chen',
          decided_at: '2026-11-20T15:30:00.000Z',
          photo_id_viewed_at: '2026-11-20T15:20:00.000Z',
          prescription: {
            drug: 'sildenafil',
            dosage: '50mg',
            medicine: 'Sildenafil (generic Viagra®) 50 mg',
            quantity: 6,
            refills: 3,
            directions: 'Take one tablet about an hour before.',
            valid_until: '2027-11-21',
          },
          reason: null,
        }}
      />,
    );
    const record = screen.getByRole('region', { name: 'Approved' });
    expect(within(record).getByText(/Dr\. Maya Chen/)).toBeTruthy();
    expect(within(record).getByText(/Opened by a provider before the decision/)).toBeTruthy();
    expect(within(record).getByText('Sildenafil (generic Viagra®) 50 mg')).toBeTruthy();
    expect(within(record).getByText('Take one tablet about an hour before.')).toBeTruthy();
    expect(within(record).getByText('11/21/2027')).toBeTruthy();
  });

  it('a decline: the reason the patient was given, and a photo ID never opened', () => {
    render(
      <DecisionRecord
        decision={{
          outcome: 'declined',
          provider: 'Dr. Maya Chen',
          decided_at: '2026-11-20T15:30:00.000Z',
          photo_id_viewed_at: null,
          prescription: null,
          reason: 'An in-person examination is needed first.',
        }}
      />,
    );
    const record = screen.getByRole('region', { name: 'Declined' });
    expect(within(record).getByText('Not opened before the decision')).toBeTruthy();
    expect(within(record).getByText('An in-person examination is needed first.')).toBeTruthy();
    expect(within(record).queryByText('Medicine')).toBeNull();
  });
});

describe('a renewal on the chart (issue 29)', () => {
  const renewal = {
    renews: {
      medicine: 'Sildenafil (generic Viagra®) 50 mg',
      drug: 'sildenafil',
      dosage: '50mg',
      quantity: 6,
      refills: 1,
      directions: 'Take one tablet about an hour before.',
      valid_until: '2027-05-20',
      written_on: '2026-11-21',
    },
    previous_visit: { visit_id: 12, submitted_at: '2026-11-20T10:00:00.000Z' },
    comparison: [
      {
        linkId: 'allergies',
        question: 'Are you allergic to any medicines?',
        answer: 'Yes',
        previous: 'No',
        changed: true,
      },
      {
        linkId: 'nitrates',
        question: 'Do you use any of these?',
        answer: 'None of these',
        previous: 'None of these',
        changed: false,
      },
      {
        linkId: 'side_effects',
        question: 'Any side effects?',
        answer: 'Headache',
        previous: null,
        changed: false,
      },
    ],
    prescriptions: [],
    fills: [
      { order_number: 'PW-100300', placed_at: '2026-12-21T12:00:00.000Z', status: 'SHIPPED' },
    ],
    scalp_photos: [],
  } satisfies NonNullable<Chart['renewal']>;

  it('marks the answers that changed since the last visit in words, and lists the fills', () => {
    render(
      <>
        <RenewalComparison renewal={renewal} />
        <RenewalHistory renewal={renewal} />
      </>,
    );
    const compared = screen.getByRole('region', { name: 'Answers since the last visit' });
    expect(
      within(compared).getByText('1 answer changed since the last visit', { exact: false }),
    ).toBeTruthy();
    expect(within(compared).getAllByText('Changed')).toHaveLength(1);
    expect(within(compared).getByText('Last visit: No')).toBeTruthy();
    expect(within(compared).getByText('Last visit: not asked')).toBeTruthy();
    const fills = screen.getByRole('region', { name: 'Fills' });
    expect(within(fills).getByText('PW-100300')).toBeTruthy();
    expect(within(fills).getByText('Shipped')).toBeTruthy();
  });

  it("shows a hair renewal's scalp photos, each labelled and described, opening at full size", () => {
    render(
      <RenewalScalpPhotos
        renewal={{
          ...renewal,
          scalp_photos: [
            { view: 'top', label: 'Top of the head', upload_key: 'TopTopTopTopTopTopTop1' },
            {
              view: 'front',
              label: 'Hairline, from the front',
              upload_key: 'FrontFrontFrontFront12',
            },
            { view: 'crown', label: 'Crown, from behind', upload_key: 'CrownCrownCrownCrown12' },
          ],
        }}
      />,
    );
    const photos = screen.getByRole('region', { name: 'Scalp photos' });
    const images = within(photos).getAllByRole('img');
    expect(images.map((img) => [img.getAttribute('alt'), img.getAttribute('src')])).toEqual([
      ['Scalp photo: top of the head', '/lapi/uploads/TopTopTopTopTopTopTop1'],
      ['Scalp photo: hairline, from the front', '/lapi/uploads/FrontFrontFrontFront12'],
      ['Scalp photo: crown, from behind', '/lapi/uploads/CrownCrownCrownCrown12'],
    ]);
    expect(within(photos).getByText('Hairline, from the front')).toBeTruthy();
    expect(
      within(photos)
        .getByRole('link', { name: 'Open full size: crown, from behind' })
        .getAttribute('href'),
    ).toBe('/lapi/uploads/CrownCrownCrownCrown12');
    cleanup();
    render(<RenewalScalpPhotos renewal={renewal} />);
    expect(
      within(screen.getByRole('region', { name: 'Scalp photos' })).getByText(
        'No scalp photos were added.',
      ),
    ).toBeTruthy();
  });

  it('approves starting from the prescription it renews; nothing is held', async () => {
    const u = userEvent.setup();
    stubApi([]);
    renderRoutes(routes(buildChart({ kind: 'renewal', order: null, renewal })));
    expect(screen.getByText(/Nothing is held for a renewal/)).toBeTruthy();
    await u.click(screen.getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', { name: "Approve Robin Hale's renewal?" });
    expect(within(dialog).getByLabelText('Dosage')).toHaveProperty('value', '50mg');
    expect(within(dialog).getByLabelText(/Quantity/)).toHaveProperty('value', '6');
    expect(within(dialog).getByLabelText('Directions (sig)')).toHaveProperty(
      'value',
      'Take one tablet about an hour before.',
    );
  });
});
