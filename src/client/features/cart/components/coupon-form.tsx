import { useState, type FormEvent } from 'react';
import { CouponCheckSchema } from '#shared/cart.ts';
import { TextField } from '#client/components/forms/fields.tsx';
import { buttonClass } from '#client/components/ui/button.ts';
import { showToast } from '#client/components/ui/toast.tsx';
import type { CartView } from '../use-cart.ts';

interface CouponFormProps {
  cart: CartView;
  onApply: (code: string, subtotalCents: number) => Promise<void>;
  onRemove: () => Promise<void>;
}

const removeButton =
  'min-h-10 shrink-0 rounded-full px-3 text-sm font-semibold text-accent-800 hover:bg-accent-50 disabled:opacity-60';

/** Apply a coupon, or see and remove the one applied. Every refusal shows the server's reason. */
export function CouponForm({ cart, onApply, onRemove }: CouponFormProps) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  /** Said in a live region that stays on the page, so a screen reader hears it. */
  const [announcement, setAnnouncement] = useState('');

  const remove = async () => {
    setBusy(true);
    try {
      await onRemove();
    } catch (failure) {
      showToast({
        kind: 'error',
        title: 'The coupon was not removed',
        description: failure instanceof Error ? failure.message : undefined,
      });
    } finally {
      setBusy(false);
    }
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = CouponCheckSchema.shape.code.safeParse(code);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      await onApply(parsed.data, cart.subtotalCents);
      // Said where it happened, not in a toast: at 375px a toast would sit over the drawer's
      // Checkout button. The panel shows the coupon; the live region says it.
      setCode('');
      setAnnouncement(`Coupon ${parsed.data} applied`);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : undefined);
    } finally {
      setBusy(false);
    }
  };

  let content;
  if (cart.coupon) {
    content = (
      <div className="flex items-center justify-between gap-3 rounded-2xl border border-success/25 bg-success-soft px-4 py-3">
        <p className="text-sm text-ink">
          <span className="font-semibold text-success">{cart.coupon.code}</span> applied
          <span className="block text-ink-soft">{cart.coupon.description}</span>
        </p>
        <button
          type="button"
          className={removeButton}
          disabled={busy}
          aria-label={`Remove coupon ${cart.coupon.code}`}
          onClick={() => void remove()}
        >
          Remove
        </button>
      </div>
    );
  } else if (cart.couponProblem) {
    content = (
      <div className="flex items-center justify-between gap-3 rounded-2xl border border-danger/25 bg-danger-soft px-4 py-3">
        <p role="alert" className="text-sm text-danger">
          <span className="font-semibold">{cart.couponProblem.code}</span> no longer applies:{' '}
          {cart.couponProblem.message}
        </p>
        <button
          type="button"
          className={removeButton}
          disabled={busy}
          aria-label={`Remove coupon ${cart.couponProblem.code}`}
          onClick={() => void remove()}
        >
          Remove
        </button>
      </div>
    );
  } else {
    content = (
      <form onSubmit={(event) => void submit(event)} noValidate>
        <div className="flex items-start gap-2">
          <TextField
            label="Coupon code"
            wrapperClassName="flex-1"
            autoCapitalize="characters"
            autoComplete="off"
            spellCheck={false}
            value={code}
            error={error}
            onChange={(event) => {
              setCode(event.target.value);
              if (error) setError(undefined);
            }}
          />
          <button
            type="submit"
            disabled={busy}
            aria-busy={busy || undefined}
            className={`${buttonClass('secondary')} mt-[1.9rem] shrink-0`}
          >
            Apply
          </button>
        </div>
      </form>
    );
  }

  return (
    <>
      {content}
      <p role="status" className="sr-only">
        {announcement}
      </p>
    </>
  );
}
