import { useRef, useState, type ChangeEvent } from 'react';
import { apiPaths, apiUrl } from '#shared/api.ts';
import { scalpViews, scalpViewWords, type ScalpPhoto, type ScalpView } from '#shared/renewals.ts';
import { MAX_UPLOAD_BYTES } from '#shared/visits.ts';
import { FieldError } from '#client/components/forms/fields.tsx';
import { buttonClass } from '#client/components/ui/button.ts';
import { QueryView } from '#client/components/ui/query-view.tsx';
import { errorText } from '#client/lib/api.ts';
import { useScalpPhotos, useUploadScalpPhoto } from '../renewals.api.ts';

const accepted = ['image/jpeg', 'image/png', 'image/webp'];
// Full width, one above the other, on a phone (two side by side would wrap their words at 375px).
const slotButtonClass = `${buttonClass('secondary')} w-full whitespace-nowrap sm:w-auto aria-disabled:cursor-wait aria-disabled:opacity-60`;

function CameraIcon() {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      className="size-5 shrink-0"
    >
      <path d="M4 8.5A2.5 2.5 0 0 1 6.5 6h1.6l1.3-2h5.2l1.3 2h1.6A2.5 2.5 0 0 1 20 8.5v8a2.5 2.5 0 0 1-2.5 2.5h-11A2.5 2.5 0 0 1 4 16.5Z" />
      <circle cx="12" cy="12.5" r="3.5" />
    </svg>
  );
}

function PictureIcon() {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      className="size-5 shrink-0"
    >
      <rect x="3.5" y="4.5" width="17" height="15" rx="2.5" />
      <circle cx="9" cy="10" r="1.75" />
      <path d="m20.5 15.5-4.5-4.5-8.5 8.5" />
    </svg>
  );
}

/** Where a photo goes before there is one: a head, seen from where this view is taken. */
function ViewSketch({ view }: { view: ScalpView }) {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 48 48"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
      strokeLinejoin="round"
      className="size-10 text-accent-700/70"
    >
      {view === 'top' ? (
        <>
          <ellipse cx="24" cy="25" rx="13" ry="16" />
          <path d="M24 10v30" strokeDasharray="2 3" />
          <path d="M11 24h-2M37 24h2" />
        </>
      ) : view === 'front' ? (
        <>
          <ellipse cx="24" cy="26" rx="12" ry="15" />
          <path d="M13 20c3-6 19-6 22 0" />
          <path d="M19 27h.01M29 27h.01M21 34c2 1.5 4 1.5 6 0" />
        </>
      ) : (
        <>
          <circle cx="24" cy="24" r="15" />
          <path d="M24 24m-5 0a5 5 0 1 0 10 0a5 5 0 1 0-10 0" strokeDasharray="2 2.5" />
          <path d="M24 19c3 0 5 2 5 5" />
        </>
      )}
    </svg>
  );
}

/** One view: how to take it, its photo once there is one, and the ways to take or choose it. */
function ScalpPhotoSlot({
  visitId,
  view,
  photo,
  onAdded,
}: {
  visitId: number;
  view: ScalpView;
  photo: ScalpPhoto | undefined;
  onAdded: (() => void) | undefined;
}) {
  const words = scalpViewWords[view];
  const upload = useUploadScalpPhoto(visitId);
  const [error, setError] = useState<string | null>(null);
  const camera = useRef<HTMLInputElement>(null);
  const library = useRef<HTMLInputElement>(null);
  const id = `scalp-${view}`;
  const pending = upload.isPending;

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file can be chosen again (after a failed upload, say).
    event.target.value = '';
    if (!file) return;
    if (!accepted.includes(file.type)) {
      setError('Please choose a JPEG, PNG or WebP photo.');
      return;
    }
    if (file.size > MAX_UPLOAD_BYTES) {
      setError('Please choose a photo smaller than 10 MB.');
      return;
    }
    setError(null);
    upload.mutate(
      { view, file },
      {
        onSuccess: () => onAdded?.(),
        onError: (caught) =>
          setError(errorText(caught, 'We could not upload your photo. Please try again.')),
      },
    );
  };

  const describedBy = `${id}-title ${id}-hint${error ? ` ${id}-error` : ''}`;
  // The inputs stay out of the tab order: their buttons open them, and say what each does.
  const inputProps = {
    type: 'file',
    accept: accepted.join(','),
    tabIndex: -1,
    className: 'sr-only',
    'aria-describedby': describedBy,
    'aria-invalid': error ? true : undefined,
    onChange: choose,
  } as const;
  // Not `disabled` while a photo uploads: a disabled button would lose the keyboard's focus.
  const open = (input: HTMLInputElement | null) => {
    if (!pending) input?.click();
  };

  return (
    <div
      role="group"
      aria-labelledby={`${id}-title`}
      className={`rounded-2xl border p-4 ${error ? 'border-danger/40' : 'border-line'}`}
    >
      <div className="flex items-start gap-4">
        <div
          className={`flex size-20 shrink-0 items-center justify-center overflow-hidden rounded-xl border ${
            photo ? 'border-line bg-surface' : 'border-dashed border-accent-300 bg-accent-50'
          }`}
        >
          {photo ? (
            <img
              src={apiUrl(apiPaths.visitUpload, { id: photo.upload_id })}
              alt={words.alt}
              className="size-full object-cover"
            />
          ) : (
            <ViewSketch view={view} />
          )}
        </div>
        <div className="min-w-0">
          <h4 id={`${id}-title`} className="font-sans text-[0.9375rem] font-semibold text-ink">
            {words.label}
          </h4>
          <p id={`${id}-hint`} className="mt-0.5 text-sm text-ink-soft">
            {words.howTo}
          </p>
          <p aria-live="polite" className="mt-1 text-sm font-medium">
            {pending ? (
              <span className="text-ink-soft">Uploading your photo…</span>
            ) : photo ? (
              <span className="inline-flex items-center gap-1 text-success">
                <svg
                  aria-hidden="true"
                  focusable="false"
                  viewBox="0 0 20 20"
                  fill="currentColor"
                  className="size-4 shrink-0"
                >
                  <path d="M16.7 5.3a1 1 0 0 1 0 1.4l-7.5 7.5a1 1 0 0 1-1.4 0L3.3 9.7a1 1 0 1 1 1.4-1.4l3.8 3.79 6.8-6.8a1 1 0 0 1 1.4 0Z" />
                </svg>
                Photo added
              </span>
            ) : null}
          </p>
        </div>
      </div>
      <input
        {...inputProps}
        ref={camera}
        capture="environment"
        aria-label={`Take a photo: ${words.label}`}
      />
      <input {...inputProps} ref={library} aria-label={`Choose a photo: ${words.label}`} />
      <div className="mt-3 grid gap-2 sm:flex sm:flex-wrap">
        <button
          type="button"
          aria-describedby={describedBy}
          aria-disabled={pending || undefined}
          onClick={() => open(camera.current)}
          className={slotButtonClass}
        >
          <CameraIcon />
          {photo ? 'Retake' : 'Take a photo'}
        </button>
        <button
          type="button"
          aria-describedby={describedBy}
          aria-disabled={pending || undefined}
          onClick={() => open(library.current)}
          className={slotButtonClass}
        >
          <PictureIcon />
          {photo ? 'Choose another' : 'Choose a photo'}
        </button>
      </div>
      <div aria-live="polite">
        <FieldError id={`${id}-error`} message={error ?? undefined} />
      </div>
    </div>
  );
}

/**
 * A Hair renewal's scalp photos (issue 29, decision 023), on its send step: why they are asked,
 * and a slot for each view. Each photo is uploaded as soon as it is taken or chosen; a retake
 * replaces it. The server refuses to send the renewal until all three are there.
 */
export function ScalpPhotos({
  visitId,
  onAdded,
}: {
  visitId: number;
  /** A photo was added (the page's refusal to send without them no longer holds). */
  onAdded?: () => void;
}) {
  const photos = useScalpPhotos(visitId);
  return (
    <section aria-labelledby="scalp-photos-title" className="space-y-4">
      <div>
        <h3 id="scalp-photos-title" className="text-xl text-ink">
          Photos of your scalp
        </h3>
        <p className="mt-1 text-ink-soft">
          Your provider compares them with how your hair looked before, to see how treatment is
          working. Only your provider sees them.
        </p>
        <p className="mt-1 text-sm text-muted">
          In good light, with dry hair. JPEG, PNG or WebP, up to 10 MB each.
        </p>
      </div>
      <QueryView query={photos} loading="Loading your photos…" size="inline">
        {({ photos: current }) => (
          <>
            <p className="text-sm font-medium text-ink-soft">
              {current.length} of {scalpViews.length} photos added
            </p>
            <ul className="space-y-3">
              {scalpViews.map((view) => (
                <li key={view}>
                  <ScalpPhotoSlot
                    visitId={visitId}
                    view={view}
                    photo={current.find((p) => p.view === view)}
                    onAdded={onAdded}
                  />
                </li>
              ))}
            </ul>
          </>
        )}
      </QueryView>
    </section>
  );
}
