// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { visitsApi } from '#shared/visits.ts';
import { clearToasts } from '#client/components/ui/toast.tsx';
import { resetAppStateForTests, setLeadsId, setOnlineVisitUser } from '#client/lib/app-state.ts';
import { LocationProbe, renderRoutes, stub, stubApi } from '#client/testing/render-app.tsx';
import { VisitLayout } from '../components/visit-layout.tsx';
import { PhotoPage } from './photo-page.tsx';

const routes = [
  {
    path: '/visit/:category',
    element: <VisitLayout />,
    children: [
      { path: 'photo', element: <PhotoPage /> },
      { path: 'consent', element: <LocationProbe /> },
    ],
  },
];

const idCard = () => new File(['a photo of an ID'], 'id-card.png', { type: 'image/png' });

/** The camera's input (it opens the back camera on a phone) and the one for a saved photo. */
const cameraInput = () =>
  screen.getByLabelText<HTMLInputElement>('Take a picture of your ID with the camera');
const savedPhotoInput = () => screen.getByLabelText<HTMLInputElement>('Photo of your ID');

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetAppStateForTests();
  setLeadsId('lead-1');
  setOnlineVisitUser({ visits: { ed: 9 } });
  // jsdom draws no images: a chosen photo's preview gets a stand-in address.
  Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:id-photo'), revokeObjectURL: vi.fn() });
});
afterEach(() => {
  cleanup();
  clearToasts();
});

describe('the photo ID step', () => {
  it('shows what makes a good photo, with an example inside the frame, before asking for one', async () => {
    stubApi([]);
    renderRoutes(routes, { path: '/visit/ed/photo' });
    const tips = (await screen.findByRole('heading', { name: 'For a clear photo' }))
      .nextElementSibling as HTMLElement;
    expect(tips.tagName).toBe('UL');
    for (const tip of [
      'The whole card inside the frame',
      'All four corners showing',
      'On a dark, plain surface',
      'No glare or flash reflections',
      'Every word sharp enough to read',
      'An ID that has not expired',
    ])
      expect(within(tips).getByText(tip).closest('li')).toBeTruthy();
    expect(
      screen
        .getByText('Example: the whole card inside the frame, on a dark surface.')
        .closest('figure')
        ?.querySelector('svg[aria-hidden="true"]'),
    ).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.getByRole('button', { name: 'Take a photo of your ID' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Choose a photo you already took' })).toBeTruthy();
  });

  it("opens the phone's back camera from one input and any saved photo from the other", async () => {
    stubApi([]);
    renderRoutes(routes, { path: '/visit/ed/photo' });
    await screen.findByRole('button', { name: 'Take a photo of your ID' });
    expect(cameraInput().getAttribute('capture')).toBe('environment');
    expect(savedPhotoInput().hasAttribute('capture')).toBe(false);
    for (const input of [cameraInput(), savedPhotoInput()]) {
      expect(input.type).toBe('file');
      expect(input.accept).toBe('image/jpeg,image/png,image/webp');
      expect(input.tabIndex).toBe(-1);
    }

    // Each button opens its own input.
    const u = userEvent.setup();
    const cameraClick = vi.spyOn(cameraInput(), 'click');
    const savedClick = vi.spyOn(savedPhotoInput(), 'click');
    await u.click(screen.getByRole('button', { name: 'Take a photo of your ID' }));
    expect(cameraClick).toHaveBeenCalledTimes(1);
    expect(savedClick).not.toHaveBeenCalled();
    await u.click(screen.getByRole('button', { name: 'Choose a photo you already took' }));
    expect(savedClick).toHaveBeenCalledTimes(1);
  });

  it('refuses a file that is not a JPEG, PNG or WebP photo, and uploads nothing', async () => {
    const u = userEvent.setup({ applyAccept: false });
    const api = stubApi([]);
    renderRoutes(routes, { path: '/visit/ed/photo' });
    await screen.findByRole('button', { name: 'Take a photo of your ID' });
    await u.upload(savedPhotoInput(), new File(['%PDF'], 'id.pdf', { type: 'application/pdf' }));
    expect(await screen.findByText('Please choose a JPEG, PNG or WebP photo.')).toBeTruthy();
    expect(savedPhotoInput().getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByAltText('Preview of the ID photo you chose')).toBeNull();
    await u.click(screen.getByRole('button', { name: 'Upload and continue' }));
    expect(await screen.findByText('Please choose a photo of your ID.')).toBeTruthy();
    expect(api.fetchMock).not.toHaveBeenCalled();
  });

  it('previews a chosen photo in the frame, asks for a check, and offers a retake', async () => {
    const u = userEvent.setup();
    stubApi([]);
    renderRoutes(routes, { path: '/visit/ed/photo' });
    await screen.findByRole('button', { name: 'Take a photo of your ID' });
    await u.upload(cameraInput(), idCard());

    const preview = await screen.findByAltText('Preview of the ID photo you chose');
    expect(preview.getAttribute('src')).toBe('blob:id-photo');
    expect(screen.getByText('id-card.png')).toBeTruthy();
    expect(
      screen.getByText('Check your photo: can you read every word, and see all four corners?'),
    ).toBeTruthy();
    // A screen reader is taken to the preview.
    const heading = screen.getByRole('heading', { name: 'Your ID photo' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(screen.getByRole('region', { name: 'Your ID photo' })).toBeTruthy();

    // Retake opens the camera again; a saved photo is still a choice.
    const cameraClick = vi.spyOn(cameraInput(), 'click');
    await u.click(screen.getByRole('button', { name: 'Retake' }));
    expect(cameraClick).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Choose another photo' })).toBeTruthy();
  });

  it('asks for a photo when the patient sends none, from the camera button', async () => {
    const u = userEvent.setup();
    const api = stubApi([]);
    renderRoutes(routes, { path: '/visit/ed/photo' });
    await u.click(await screen.findByRole('button', { name: 'Upload and continue' }));
    expect(await screen.findByText('Please choose a photo of your ID.')).toBeTruthy();
    const camera = screen.getByRole('button', { name: 'Take a photo of your ID' });
    expect(document.activeElement).toBe(camera);
    expect(camera.getAttribute('aria-describedby')).toContain('photo-id-error');
    expect(api.fetchMock).not.toHaveBeenCalled();
  });

  it('uploads the chosen photo for the visit and moves on to where the server says', async () => {
    const u = userEvent.setup();
    const api = stubApi([
      stub(visitsApi.uploadImage, { upload_id: 'photo-1', destination: '/visit/ed/consent' }),
    ]);
    const photo = idCard();
    renderRoutes(routes, { path: '/visit/ed/photo' });
    await screen.findByRole('button', { name: 'Take a photo of your ID' });
    await u.upload(savedPhotoInput(), photo);
    await screen.findByAltText('Preview of the ID photo you chose');
    await u.click(screen.getByRole('button', { name: 'Upload and continue' }));

    expect((await screen.findByTestId('location')).textContent).toBe('/visit/ed/consent');
    expect(api.calls.map((c) => c.path)).toEqual(['/upload_image/']);
    const body = api.fetchMock.mock.calls[0]?.[1]?.body;
    expect(body).toBeInstanceOf(FormData);
    expect((body as FormData).get('visit_id')).toBe('9');
    const sent = (body as FormData).get('fileToUpload');
    expect(sent).toBeInstanceOf(File);
    expect((sent as File).name).toBe('id-card.png');
    expect((sent as File).type).toBe('image/png');
    expect((sent as File).size).toBe(photo.size);
  });
});
