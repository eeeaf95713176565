// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renewalsApi, scalpPhotosMissing, type ScalpPhoto } from '#shared/renewals.ts';
import { clearToasts } from '#client/components/ui/toast.tsx';
import { resetAppStateForTests } from '#client/lib/app-state.ts';
import { failure, renderRoutes, stub, stubApi } from '#client/testing/render-app.tsx';
import { VisitLayout } from '#client/features/visits/components/visit-layout.tsx';
import { SubmittedPage } from '#client/features/visits/pages/submitted-page.tsx';
import { RenewPage } from './pages/renew-page.tsx';
import { SendRenewalPage } from './pages/send-page.tsx';

const routes = [
  {
    path: '/visit/:category',
    element: <VisitLayout />,
    children: [
      { path: 'renew', element: <RenewPage /> },
      { path: 'send', element: <SendRenewalPage /> },
      { path: 'submitted', element: <SubmittedPage /> },
    ],
  },
];

const TOP = 'TopTopTopTopTopTopTop1';
const RETAKEN = 'RetakeRetakeRetake1234';
const CROWN = 'CrownCrownCrownCrown12';

const photoFile = (name = 'scalp.png', type = 'image/png') =>
  new File(['a photo of a scalp'], name, { type });

/** The slot of one view: a group named by its label. */
const slot = (label: string) => screen.getByRole('group', { name: label });

/** The fields of each multipart upload the page sent, in order. */
function uploadsSent(fetchMock: ReturnType<typeof stubApi>['fetchMock']) {
  return fetchMock.mock.calls
    .filter(([input]) => String(input).endsWith(renewalsApi.uploadScalpPhoto.path))
    .map(([, init]) => {
      const form = init?.body as FormData;
      return {
        visit_id: form.get('visit_id'),
        view: form.get('view'),
        file: (form.get('fileToUpload') as File | null)?.name,
      };
    });
}

async function openHairSendStep(extra: ReturnType<typeof stub>[] = [], photos: ScalpPhoto[] = []) {
  const api = stubApi([
    stub(renewalsApi.startRenewal, { visit_id: 41, destination: '/visit/hair/send' }),
    stub(renewalsApi.scalpPhotos, { photos }),
    ...extra,
  ]);
  renderRoutes(routes, { path: '/visit/hair/renew' });
  await screen.findByRole('heading', { level: 3, name: 'Photos of your scalp' });
  await screen.findByText(/of 3 photos added$/);
  return api;
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetAppStateForTests();
});
afterEach(() => {
  cleanup();
  clearToasts();
});

describe('scalp photos on a hair renewal’s send step', () => {
  it('asks for three views before the confirmation, each with how to take it and both ways in', async () => {
    const api = await openHairSendStep();
    const section = screen.getByRole('region', { name: 'Photos of your scalp' });
    expect(
      within(section).getByText(
        'Your provider compares them with how your hair looked before, to see how treatment is working. Only your provider sees them.',
      ),
    ).toBeTruthy();
    // Before the confirmation, in the form's order.
    const confirm = screen.getByRole('checkbox', { name: /My answers are true and complete/ });
    expect(
      section.compareDocumentPosition(confirm) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(within(section).getByText('0 of 3 photos added')).toBeTruthy();
    for (const [label, hint] of [
      ['Top of the head', /Part your hair and hold the phone above your head/],
      ['Hairline, from the front', /Push your hair back off your forehead/],
      ['Crown, from behind', /Ask someone to take it/],
    ] as const) {
      const group = slot(label);
      expect(within(group).getByText(hint)).toBeTruthy();
      expect(within(group).getByRole('button', { name: 'Take a photo' })).toBeTruthy();
      expect(within(group).getByRole('button', { name: 'Choose a photo' })).toBeTruthy();
      const camera = within(group).getByLabelText<HTMLInputElement>(`Take a photo: ${label}`);
      const saved = within(group).getByLabelText<HTMLInputElement>(`Choose a photo: ${label}`);
      expect(camera.getAttribute('capture')).toBe('environment');
      expect(saved.hasAttribute('capture')).toBe(false);
      for (const input of [camera, saved]) {
        expect(input.type).toBe('file');
        expect(input.accept).toBe('image/jpeg,image/png,image/webp');
        // Out of the tab order: the buttons open them.
        expect(input.tabIndex).toBe(-1);
      }
      expect(within(group).queryByRole('img')).toBeNull();
    }
    expect(api.callsTo(renewalsApi.scalpPhotos)).toEqual([{ visit_id: 41 }]);
  });

  it('uploads a chosen photo for its view and shows it with Retake; the next one adds to the count', async () => {
    const u = userEvent.setup();
    const api = await openHairSendStep([
      stub(renewalsApi.uploadScalpPhoto, { view: 'top', upload_id: TOP }),
    ]);
    // The button opens its input (the phone's camera), from the keyboard too.
    const top = slot('Top of the head');
    const takeButton = within(top).getByRole('button', { name: 'Take a photo' });
    const camera = within(top).getByLabelText('Take a photo: Top of the head');
    const opened = vi.fn();
    camera.addEventListener('click', opened);
    takeButton.focus();
    await u.keyboard('{Enter}');
    expect(opened).toHaveBeenCalledTimes(1);
    await u.upload(camera, photoFile());
    const thumbnail = await within(top).findByRole('img', { name: 'Scalp photo: top of the head' });
    expect(thumbnail.getAttribute('src')).toBe(`/lapi/uploads/${TOP}`);
    expect(within(top).getByText('Photo added')).toBeTruthy();
    // The same button, now Retake, so a keyboard's focus on it is not lost.
    expect(within(top).getByRole('button', { name: 'Retake' })).toBe(takeButton);
    expect(within(top).getByRole('button', { name: 'Choose another' })).toBeTruthy();
    expect(screen.getByText('1 of 3 photos added')).toBeTruthy();
    expect(uploadsSent(api.fetchMock)).toEqual([
      { visit_id: '41', view: 'top', file: 'scalp.png' },
    ]);

    // A retake replaces it.
    stubApi([
      stub(renewalsApi.uploadScalpPhoto, { view: 'top', upload_id: RETAKEN }),
      stub(renewalsApi.scalpPhotos, { photos: [{ view: 'top', upload_id: RETAKEN }] }),
    ]);
    await u.upload(
      within(top).getByLabelText('Choose a photo: Top of the head'),
      photoFile('again.jpg', 'image/jpeg'),
    );
    await waitFor(() =>
      expect(within(top).getByRole('img').getAttribute('src')).toBe(`/lapi/uploads/${RETAKEN}`),
    );
    expect(screen.getByText('1 of 3 photos added')).toBeTruthy();
  });

  it('shows photos already added when the step opens again', async () => {
    await openHairSendStep(
      [],
      [
        { view: 'top', upload_id: TOP },
        { view: 'crown', upload_id: CROWN },
      ],
    );
    expect(await screen.findByText('2 of 3 photos added')).toBeTruthy();
    expect(
      within(slot('Crown, from behind')).getByRole('img', {
        name: 'Scalp photo: crown, from behind',
      }),
    ).toBeTruthy();
    expect(within(slot('Hairline, from the front')).queryByRole('img')).toBeNull();
    expect(
      within(slot('Hairline, from the front')).getByRole('button', { name: 'Take a photo' }),
    ).toBeTruthy();
  });

  it('refuses another kind of file or one over 10 MB on its slot, without uploading it', async () => {
    const u = userEvent.setup({ applyAccept: false });
    const api = await openHairSendStep();
    const front = slot('Hairline, from the front');
    const input = within(front).getByLabelText<HTMLInputElement>(
      'Choose a photo: Hairline, from the front',
    );
    await u.upload(input, photoFile('scan.pdf', 'application/pdf'));
    expect(within(front).getByText('Please choose a JPEG, PNG or WebP photo.')).toBeTruthy();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toContain('scalp-front-error');
    // Only that slot says so.
    expect(within(slot('Top of the head')).queryByText(/Please choose/)).toBeNull();

    const huge = photoFile('huge.jpg', 'image/jpeg');
    Object.defineProperty(huge, 'size', { value: 10 * 1024 * 1024 + 1 });
    await u.upload(input, huge);
    expect(within(front).getByText('Please choose a photo smaller than 10 MB.')).toBeTruthy();
    expect(uploadsSent(api.fetchMock)).toEqual([]);
  });

  it('shows the server’s refusal of a photo on its slot', async () => {
    const u = userEvent.setup();
    await openHairSendStep([
      stub(
        renewalsApi.uploadScalpPhoto,
        failure(
          415,
          'NOT_AN_IMAGE',
          'Please upload a photo of your scalp as a JPEG, PNG or WebP image.',
          {
            fileToUpload: 'Please upload a photo of your scalp as a JPEG, PNG or WebP image.',
          },
        ),
      ),
    ]);
    const crown = slot('Crown, from behind');
    await u.upload(within(crown).getByLabelText('Take a photo: Crown, from behind'), photoFile());
    expect(
      await within(crown).findByText(
        'Please upload a photo of your scalp as a JPEG, PNG or WebP image.',
      ),
    ).toBeTruthy();
    expect(within(crown).queryByRole('img')).toBeNull();
    expect(screen.getByText('0 of 3 photos added')).toBeTruthy();
  });

  it('shows the server’s word in the page’s alert when the photos are missing at sending, until one is added', async () => {
    const u = userEvent.setup();
    const api = await openHairSendStep([
      stub(renewalsApi.sendRenewal, failure(409, 'VISIT_STEP', scalpPhotosMissing)),
    ]);
    await u.click(screen.getByRole('checkbox', { name: /My answers are true and complete/ }));
    await u.click(screen.getByRole('button', { name: 'Send to my provider' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain(
        'Add the three photos of your scalp to send your check-in.',
      ),
    );
    expect(api.callsTo(renewalsApi.sendRenewal)).toEqual([{ visit_id: 41, confirm: true }]);
    // A photo added: the refusal no longer holds, and goes.
    stubApi([stub(renewalsApi.uploadScalpPhoto, { view: 'crown', upload_id: CROWN })]);
    await u.upload(screen.getByLabelText('Choose a photo: Crown, from behind'), photoFile());
    await within(slot('Crown, from behind')).findByRole('img');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('asks no photos on another program’s renewal', async () => {
    const api = stubApi([
      stub(renewalsApi.startRenewal, { visit_id: 31, destination: '/visit/ed/send' }),
    ]);
    renderRoutes(routes, { path: '/visit/ed/renew' });
    await screen.findByRole('heading', { level: 2, name: 'Send your answers to your provider' });
    expect(screen.queryByText('Photos of your scalp')).toBeNull();
    expect(api.callsTo(renewalsApi.scalpPhotos)).toEqual([]);
  });
});
