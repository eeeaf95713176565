import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { MAX_UPLOAD_BYTES } from '#shared/visits.ts';
import { FieldError, FormAlert } from '#client/components/forms/fields.tsx';
import { buttonClass } from '#client/components/ui/button.ts';
import { SubmitButton } from '#client/components/ui/submit-button.tsx';
import { errorText } from '#client/lib/api.ts';
import { paths } from '#shared/paths.ts';
import { IdFrame, PhotoIdExample, PhotoIdTips } from '../components/photo-id-guide.tsx';
import { useVisitContext, visitCardClass } from '../components/visit-layout.tsx';
import { WithVisit } from '../components/with-visit.tsx';
import { visitDestination } from '../visit-state.ts';
import { uploadPhotoId } from '../visits.api.ts';

const accepted = ['image/jpeg', 'image/png', 'image/webp'];

/*
 * A phone's camera is the first way in; from 768px, where there is seldom a camera pointed at a
 * desk, choosing a saved photo is. Both are there at every width. Below 768px each spans the
 * width, its words centred, so a narrow side padding keeps "Choose a photo you already took" on
 * one line on a 375px phone.
 */
const pickerSize =
  'w-full text-balance max-md:gap-1.5 max-md:px-2 md:min-h-12 md:w-auto md:px-7 md:text-base';
const cameraButtonClass = `${buttonClass('primary')} ${pickerSize} md:border md:border-accent-300 md:bg-white md:text-accent-800 md:hover:bg-accent-50 md:active:bg-accent-100`;
const libraryButtonClass = `${buttonClass('secondary')} ${pickerSize} md:border-accent-700 md:bg-accent-700 md:text-white md:hover:bg-accent-800 md:active:bg-accent-900`;
const againButtonClass = `${buttonClass('secondary')} ${pickerSize}`;

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

function PhotoForm({ visitId }: { visitId: number }) {
  const { category } = useVisitContext();
  const navigate = useNavigate();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const cameraInput = useRef<HTMLInputElement>(null);
  const libraryInput = useRef<HTMLInputElement>(null);
  const cameraButton = useRef<HTMLButtonElement>(null);
  const previewHeading = useRef<HTMLHeadingElement>(null);

  // The preview's object URL is released when it is replaced or the page closes.
  useEffect(() => {
    if (!preview) return;
    return () => URL.revokeObjectURL(preview);
  }, [preview]);

  // A photo was chosen: a screen reader hears the preview and the check that follows it.
  useEffect(() => {
    if (preview) previewHeading.current?.focus();
  }, [preview]);

  const choose = (chosen: File | undefined) => {
    setAlert(null);
    setPreview(null);
    if (!chosen) {
      setFile(null);
      return;
    }
    if (!accepted.includes(chosen.type)) {
      setFile(null);
      setError('Please choose a JPEG, PNG or WebP photo.');
      return;
    }
    if (chosen.size > MAX_UPLOAD_BYTES) {
      setFile(null);
      setError('Please choose a photo smaller than 10 MB.');
      return;
    }
    setError(null);
    setFile(chosen);
    setPreview(URL.createObjectURL(chosen));
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    if (!file) {
      setError('Please choose a photo of your ID.');
      cameraButton.current?.focus();
      return;
    }
    setPending(true);
    setAlert(null);
    try {
      const result = await uploadPhotoId(visitId, file);
      await navigate(visitDestination(result.destination, category) ?? paths.visit(category));
    } catch (caught) {
      setAlert(errorText(caught, 'We could not upload your photo.'));
    } finally {
      setPending(false);
    }
  };

  const describedBy = `photo-id-hint${error ? ' photo-id-error' : ''}`;
  // Both inputs stay out of the tab order: their buttons open them, and say what each does.
  const inputProps = {
    type: 'file',
    accept: accepted.join(','),
    tabIndex: -1,
    className: 'sr-only',
    'aria-describedby': describedBy,
    'aria-invalid': error ? true : undefined,
  } as const;

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="space-y-6">
      <div>
        <h3 id="photo-id-title" className="text-xl text-ink">
          Photo of your ID
        </h3>
        <p id="photo-id-hint" className="mt-1 text-sm text-muted">
          A driver's license, state ID or passport. JPEG, PNG or WebP, up to 10 MB.
        </p>
      </div>

      <div className="grid gap-5 md:grid-cols-2 md:items-start md:gap-7">
        {preview && file ? (
          <section aria-labelledby="photo-preview-title">
            <h4
              id="photo-preview-title"
              ref={previewHeading}
              tabIndex={-1}
              className="mb-2 font-sans text-[0.9375rem] font-semibold text-ink outline-none"
            >
              Your ID photo
            </h4>
            <figure>
              <IdFrame>
                <img
                  src={preview}
                  alt="Preview of the ID photo you chose"
                  className="size-full object-contain"
                />
              </IdFrame>
              <figcaption className="mt-2 truncate text-sm text-muted">{file.name}</figcaption>
            </figure>
          </section>
        ) : (
          <PhotoIdExample />
        )}
        <div className="space-y-4">
          {preview && file ? (
            <p className="rounded-2xl border border-accent-200 bg-accent-50 p-4 text-[0.9375rem] font-medium text-ink">
              Check your photo: can you read every word, and see all four corners?
            </p>
          ) : null}
          <PhotoIdTips />
        </div>
      </div>

      <div className="relative">
        <input
          {...inputProps}
          ref={cameraInput}
          id="photo-id-camera"
          capture="environment"
          aria-label="Take a picture of your ID with the camera"
          onChange={(event) => choose(event.target.files?.[0])}
        />
        <input
          {...inputProps}
          ref={libraryInput}
          id="photo-id"
          aria-labelledby="photo-id-title"
          onChange={(event) => choose(event.target.files?.[0])}
        />
        {preview && file ? (
          <div className="flex flex-col gap-3 md:flex-row md:flex-wrap">
            <button
              type="button"
              aria-describedby={describedBy}
              onClick={() => cameraInput.current?.click()}
              className={`${againButtonClass} md:hidden`}
            >
              <CameraIcon />
              Retake
            </button>
            <button
              type="button"
              aria-describedby={describedBy}
              onClick={() => libraryInput.current?.click()}
              className={againButtonClass}
            >
              <PictureIcon />
              Choose another photo
            </button>
          </div>
        ) : (
          <div className="flex flex-col gap-3 md:flex-row md:flex-wrap">
            <button
              ref={cameraButton}
              type="button"
              aria-describedby={describedBy}
              onClick={() => cameraInput.current?.click()}
              className={cameraButtonClass}
            >
              <CameraIcon />
              Take a photo of your ID
            </button>
            <button
              type="button"
              aria-describedby={describedBy}
              onClick={() => libraryInput.current?.click()}
              className={libraryButtonClass}
            >
              <PictureIcon />
              Choose a photo you already took
            </button>
          </div>
        )}
        <div aria-live="polite">
          <FieldError id="photo-id-error" message={error ?? undefined} />
        </div>
      </div>

      {alert ? <FormAlert>{alert}</FormAlert> : null}
      <div className="border-t border-line pt-5">
        {/*
         * The step's main action is the camera until there is a photo, then the upload. The
         * button is replaced rather than restyled: faded from one look to the other, its words
         * would pass through colours too close to its background to read.
         */}
        <SubmitButton
          key={file ? 'ready' : 'waiting'}
          pending={pending}
          size="lg"
          variant={file ? 'primary' : 'secondary'}
          className="w-full sm:w-auto sm:min-w-48"
        >
          Upload and continue
        </SubmitButton>
      </div>
    </form>
  );
}

/** /visit/:category/photo: a photo ID, so the provider knows who they are treating. */
export function PhotoPage() {
  return (
    <section aria-labelledby="photo-title" className={visitCardClass}>
      <h2 id="photo-title" className="text-2xl text-ink">
        Confirm who you are
      </h2>
      <p className="mt-2 text-ink-soft">
        US law requires your provider to confirm your identity before prescribing. Your ID is seen
        only by your care team, stored securely, and never shared. We remove the photo's hidden
        details (such as location) when it is uploaded.
      </p>
      <div className="mt-6">
        <WithVisit>{(visitId) => <PhotoForm visitId={visitId} />}</WithVisit>
      </div>
    </section>
  );
}
