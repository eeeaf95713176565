import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import type { DataOf } from '#shared/contract.ts';
import type { operationsApi } from '#shared/operations.ts';
import { paths } from '#shared/paths.ts';
import { SelectField } from '#client/components/forms/fields.tsx';
import { buttonClass } from '#client/components/ui/button.ts';
import { Dialog } from '#client/components/ui/dialog.tsx';
import { ApiError, errorText } from '#client/lib/api.ts';
import { reportError } from '#client/lib/error-reporting.ts';
import { DialogButtons, DialogFrame } from '#client/features/staff/components/dialog-form.tsx';
import { useHandToProvider } from '../operations.api.ts';

type Providers = DataOf<typeof operationsApi.inboxThread>['providers'];

/**
 * "Hand to a provider": a question about the patient's treatment is a provider's to answer. The
 * thread goes to the provider chosen (those licensed in the patient's state first) and leaves the
 * inbox; operations no longer read it.
 */
export function HandOffButton({
  threadId,
  patient,
  providers,
}: {
  threadId: number;
  patient: string;
  providers: Providers;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={buttonClass('secondary')} onClick={() => setOpen(true)}>
        Hand to a provider
      </button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        // Handing the thread off leaves for the inbox, and this button with it: focus goes to the
        // console's main region, which stays while the inbox replaces the thread.
        returnFocusTo={() => document.getElementById('staff-main')}
        variant="modal"
        size="md"
      >
        {open ? (
          <HandOffForm
            threadId={threadId}
            patient={patient}
            providers={providers}
            onClose={() => setOpen(false)}
          />
        ) : null}
      </Dialog>
    </>
  );
}

function HandOffForm({
  threadId,
  patient,
  providers,
  onClose,
}: {
  threadId: number;
  patient: string;
  providers: Providers;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const [providerId, setProviderId] = useState(providers[0]?.id ?? 0);
  const [error, setError] = useState<string | undefined>();
  const [alert, setAlert] = useState<string | null>(null);
  const mutation = useHandToProvider(threadId);
  const licensed = providers.filter((p) => p.licensed_in_state);
  const others = providers.filter((p) => !p.licensed_in_state);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!providerId) {
      setError('Choose a provider');
      return;
    }
    setError(undefined);
    setAlert(null);
    mutation.mutate(providerId, {
      onSuccess: () => {
        onClose();
        void navigate(paths.staffInbox);
      },
      onError: (failure) => {
        const field = failure instanceof ApiError ? failure.fields.provider_id : undefined;
        if (field) {
          setError(field);
          return;
        }
        if (!(failure instanceof ApiError)) reportError(failure, 'error', 'staff-hand-off');
        setAlert(errorText(failure));
      },
    });
  };
  return (
    <DialogFrame
      title="Hand to a provider"
      description={`For a question about ${patient}'s treatment. The provider answers from their console; the conversation leaves the inbox and operations no longer read it.`}
      alert={alert}
    >
      {providers.length === 0 ? (
        <>
          <p className="text-[0.9375rem] text-ink">
            No provider is active right now, so nobody can take this conversation.
          </p>
          <div className="mt-6 flex justify-end">
            <button type="button" onClick={onClose} className={buttonClass('ghost')}>
              Go back
            </button>
          </div>
        </>
      ) : (
        <form onSubmit={submit} noValidate>
          <SelectField
            label="Provider"
            value={String(providerId)}
            onChange={(event) => setProviderId(Number(event.target.value))}
            error={error}
          >
            {licensed.length > 0 ? (
              <optgroup label="Licensed in the patient's state">
                {licensed.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </optgroup>
            ) : null}
            {others.length > 0 ? (
              <optgroup label="Not licensed in the patient's state">
                {others.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </optgroup>
            ) : null}
          </SelectField>
          <DialogButtons pending={mutation.isPending} onCancel={onClose}>
            Hand to this provider
          </DialogButtons>
        </form>
      )}
    </DialogFrame>
  );
}
