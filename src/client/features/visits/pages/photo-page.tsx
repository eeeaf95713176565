import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { MAX_UPLOAD_BYTES } from '#shared/visits.ts';
import { FieldError, FormAlert } from '#client/components/forms/fields.tsx';
import { SubmitButton } from '#client/components/ui/submit-button.tsx';
import { errorText } from '#client/lib/api.ts';
import { paths } from '#shared/paths.ts';
import { useVisitContext, visitCardClass } from '../components/visit-layout.tsx';
import { WithVisit } from '../components/with-visit.tsx';
import { visitDestination } from '../visit-state.ts';
import { uploadPhotoId } from '../visits.api.ts';

const accepted = ['image/jpeg', 'image/png', 'image/webp'];

function PhotoForm({ visitId }: { visitId: number }) {
  const { category } = useVisitContext();
  const navigate = useNavigate();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  // The preview's object URL is released when it is replaced or the page closes.
  useEffect(() => {
    if (!preview) return;
    return () => URL.revokeObjectURL(preview);
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
      event.currentTarget.querySelector('input')?.focus();
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

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="space-y-5">
      <div>
        <label htmlFor="photo-id" className="block text-[0.9375rem] font-medium text-ink">
          Photo of your ID
        </label>
        <p id="photo-id-hint" className="mt-0.5 text-sm text-muted">
          A driver's license, state ID or passport. JPEG, PNG or WebP, up to 10 MB.
        </p>
        <input
          id="photo-id"
          type="file"
          accept={accepted.join(',')}
          aria-describedby={`photo-id-hint${error ? ' photo-id-error' : ''}`}
          aria-invalid={error ? true : undefined}
          onChange={(event) => choose(event.target.files?.[0])}
          className="mt-2 block w-full text-[0.9375rem] text-ink-soft file:mr-4 file:min-h-11 file:cursor-pointer file:rounded-full file:border file:border-accent-300 file:bg-white file:px-5 file:font-semibold file:text-accent-800 hover:file:bg-accent-50"
        />
        <FieldError id="photo-id-error" message={error ?? undefined} />
      </div>
      {preview && file ? (
        <figure className="overflow-hidden rounded-2xl border border-line bg-surface p-3">
          <img
            src={preview}
            alt="Preview of the ID photo you chose"
            className="mx-auto max-h-64 w-auto rounded-xl object-contain"
          />
          <figcaption className="mt-2 text-center text-sm text-muted">{file.name}</figcaption>
        </figure>
      ) : null}
      {alert ? <FormAlert>{alert}</FormAlert> : null}
      <SubmitButton pending={pending} size="lg" className="w-full sm:w-auto sm:min-w-48">
        Upload and continue
      </SubmitButton>
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
