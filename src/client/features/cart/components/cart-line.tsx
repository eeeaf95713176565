import { useState } from 'react';
import { Link } from 'react-router';
import { bottlesText } from '#shared/catalog.ts';
import { formatCents, priceLabel } from '#shared/money.ts';
import { showToast } from '#client/components/ui/toast.tsx';
import { paths } from '#shared/paths.ts';
import type { CartLine } from '../use-cart.ts';
import { QuantityStepper } from './quantity-stepper.tsx';

interface CartLineRowProps {
  line: CartLine;
  onQuantity: (productId: number, quantity: number) => Promise<void>;
  onRemove: (productId: number) => Promise<void>;
  /** Called when a link leaves the cart (the drawer closes). */
  onNavigate?: (() => void) | undefined;
}

/**
 * One cart line: picture, name, price label, dose, quantity, line total and Remove. A line whose
 * quantity is fixed (a plan, the bundle) says the bottles it brings instead of a bare count.
 */
export function CartLineRow({ line, onQuantity, onRemove, onNavigate }: CartLineRowProps) {
  const [busy, setBusy] = useState(false);

  const run = async (change: () => Promise<void>) => {
    setBusy(true);
    try {
      await change();
    } catch (error) {
      showToast({
        kind: 'error',
        title: 'Your cart was not changed',
        description: error instanceof Error ? error.message : undefined,
      });
    } finally {
      setBusy(false);
    }
  };

  const name = line.slug ? (
    <Link
      to={paths.product(line.slug)}
      onClick={onNavigate}
      className="rounded-sm hover:text-accent-800 hover:underline hover:underline-offset-4"
    >
      {line.name}
    </Link>
  ) : (
    line.name
  );

  return (
    <li className="flex gap-4 py-5" aria-busy={busy || undefined}>
      <img
        src={line.img}
        alt=""
        width={96}
        height={96}
        loading="lazy"
        className="size-16 shrink-0 rounded-2xl bg-surface object-cover ring-1 ring-line sm:size-24"
      />
      <div className="min-w-0 flex-1">
        <div className="flex items-start justify-between gap-3">
          <h3 className="font-sans text-base font-semibold leading-snug text-ink">{name}</h3>
          <p className="shrink-0 font-semibold tabular-nums text-ink">
            <span className="sr-only">Line total </span>
            {formatCents(line.lineTotalCents)}
          </p>
        </div>
        <p className="mt-0.5 text-sm text-ink-soft">
          {priceLabel(line.unitCents, line.frequency)}
          <span aria-hidden="true"> · </span>
          <span className="sr-only">, </span>
          {line.dose}
        </p>
        <div className="mt-3 flex items-center justify-between gap-2">
          {line.canChangeQuantity ? (
            <QuantityStepper
              value={line.quantity}
              itemName={line.name}
              disabled={busy}
              onChange={(next) => void run(() => onQuantity(line.product_id, next))}
            />
          ) : (
            <p className="text-sm text-muted">{bottlesText(line, line.quantity)}</p>
          )}
          <button
            type="button"
            disabled={busy}
            onClick={() => void run(() => onRemove(line.product_id))}
            aria-label={`Remove ${line.name}`}
            className="inline-flex min-h-10 shrink-0 items-center gap-1.5 rounded-full px-2 text-sm font-semibold sm:px-3 text-ink-soft transition-colors hover:bg-danger-soft hover:text-danger disabled:opacity-60"
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 20 20"
              className="size-4"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
            >
              <path
                d="M4 6h12M8 6V4.5h4V6m-6.5 0 .7 9.5a1 1 0 0 0 1 .9h5.6a1 1 0 0 0 1-.9L14.5 6"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            </svg>
            Remove
          </button>
        </div>
      </div>
    </li>
  );
}
