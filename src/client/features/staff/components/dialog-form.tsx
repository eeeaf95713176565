import type { ReactNode } from 'react';
import { FormAlert } from '#client/components/forms/fields.tsx';
import { buttonClass } from '#client/components/ui/button.ts';
import { DialogDescription, DialogTitle } from '#client/components/ui/dialog.tsx';
import { SubmitButton } from '#client/components/ui/submit-button.tsx';

/** A staff dialog's title, what the action does, the server's refusal if any, and the form. */
export function DialogFrame({
  title,
  description,
  alert,
  children,
}: {
  title: string;
  description: ReactNode;
  alert: string | null;
  children: ReactNode;
}) {
  return (
    <>
      <DialogTitle>{title}</DialogTitle>
      <DialogDescription className="mt-2 text-[0.9375rem] text-ink-soft">
        {description}
      </DialogDescription>
      {alert ? (
        <div className="mt-4">
          <FormAlert>{alert}</FormAlert>
        </div>
      ) : null}
      <div className="mt-5">{children}</div>
    </>
  );
}

/** A way back and the action, the action last (first on small screens, under the thumb). */
export function DialogButtons({
  pending,
  onCancel,
  cancelLabel = 'Go back',
  children,
}: {
  pending: boolean;
  onCancel: () => void;
  cancelLabel?: string;
  children: ReactNode;
}) {
  return (
    <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
      <button type="button" onClick={onCancel} className={buttonClass('ghost')}>
        {cancelLabel}
      </button>
      <SubmitButton pending={pending}>{children}</SubmitButton>
    </div>
  );
}
