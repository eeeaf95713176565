import { useState } from 'react';
import { CheckboxField, FormAlert } from '#client/components/forms/fields.tsx';
import { buttonClass } from '#client/components/ui/button.ts';
import { Dialog, DialogHeader } from '#client/components/ui/dialog.tsx';
import { errorText } from '#client/lib/api.ts';
import { useUnlinkPartner } from '../partners.api.ts';

interface UnlinkDialogProps {
  leadsId: string;
  partnerName: string;
  open: boolean;
  onClose: () => void;
}

/**
 * Unlinking, confirmed: sharing ends at once for both, and the customer chooses whether the other
 * hears of it (a quiet unlink sends nothing).
 */
export function UnlinkDialog({ leadsId, partnerName, open, onClose }: UnlinkDialogProps) {
  const [quiet, setQuiet] = useState(false);
  const unlink = useUnlinkPartner(leadsId);
  const close = () => {
    unlink.reset();
    setQuiet(false);
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} variant="modal" size="md" layout="sections">
      <DialogHeader
        title={`Unlink from ${partnerName}?`}
        description="Sharing ends at once, both ways. Neither of you will see anything of the other's."
        closeLabel="Keep the link"
      />
      <div className="space-y-5 px-5 py-5 sm:px-6">
        <CheckboxField
          label={`Don't notify ${partnerName}`}
          checked={quiet}
          onChange={(event) => setQuiet(event.target.checked)}
        />
        <p className="text-sm text-ink-soft">
          {quiet
            ? `${partnerName} gets no email. Their partner page will show that the link ended, without saying who ended it.`
            : `${partnerName} gets a short email that the link ended, nothing more.`}
        </p>
        {unlink.isError ? <FormAlert>{errorText(unlink.error)}</FormAlert> : null}
        <div className="flex flex-wrap gap-3">
          <button
            type="button"
            className={buttonClass('primary')}
            disabled={unlink.isPending}
            aria-busy={unlink.isPending || undefined}
            onClick={() => unlink.mutate({ notify: !quiet }, { onSuccess: onClose })}
          >
            Unlink
          </button>
          <button type="button" className={buttonClass('secondary')} onClick={close}>
            Keep the link
          </button>
        </div>
      </div>
    </Dialog>
  );
}
