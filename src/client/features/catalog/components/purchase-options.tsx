import { useId, useState, type FormEvent } from 'react';
import { stacks } from '#shared/cart.ts';
import type { Frequency, ProductLine } from '#shared/catalog.ts';
import { priceLabel } from '#shared/money.ts';
import { FormAlert } from '#client/components/forms/fields.tsx';
import { buttonClass } from '#client/components/ui/button.ts';
import { showToast } from '#client/components/ui/toast.tsx';
import { setCartDrawerOpen } from '#client/features/cart/cart-drawer-state.ts';
import { QuantityStepper } from '#client/features/cart/components/quantity-stepper.tsx';
import { useCart, useCartActions } from '#client/features/cart/use-cart.ts';

/** How each way to buy reads (spec §3 frequencies). */
export const frequencyTitles: Record<Frequency, string> = {
  ONE_TIME: 'One-time purchase',
  MONTHLY: 'Monthly',
  QUARTERLY: 'Quarterly',
};

const frequencyOrder: Record<Frequency, number> = { ONE_TIME: 0, MONTHLY: 1, QUARTERLY: 2 };

interface PurchaseOptionsProps {
  line: ProductLine;
  /** A smaller layout for the /shop list. */
  compact?: boolean;
}

/**
 * The ways to buy a product as one radio group (one-time, monthly, quarterly, with the spec's price
 * labels), a quantity for a one-time purchase that allows it, and 'Add to cart'. The bundle is
 * one-time only, without a quantity.
 */
export function PurchaseOptions({ line, compact = false }: PurchaseOptionsProps) {
  const offers = [...line.offers].sort(
    (a, b) => frequencyOrder[a.frequency] - frequencyOrder[b.frequency],
  );
  const [selectedId, setSelectedId] = useState(offers[0]?.product_id);
  const [quantity, setQuantity] = useState(1);
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const cart = useCart();
  const actions = useCartActions();
  const groupName = useId();
  const quantityLabel = useId();

  const selected = offers.find((offer) => offer.product_id === selectedId) ?? offers[0];
  if (!selected) return null;
  const withQuantity = stacks(selected);
  const inCart = cart.lines.find((l) => l.product_id === selected.product_id)?.quantity ?? null;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setProblem(null);
    setPending(true);
    try {
      const added = await actions.add(selected, withQuantity ? quantity : 1, inCart);
      if (!added)
        showToast({
          title: 'Already in your cart',
          description: `${line.name}, ${frequencyTitles[selected.frequency].toLowerCase()}`,
        });
      setQuantity(1);
      setCartDrawerOpen(true);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : 'Something went wrong.');
    } finally {
      setPending(false);
    }
  };

  return (
    // `post`: see login-form.tsx (a submit before the page has become interactive).
    <form
      method="post"
      onSubmit={(event) => void submit(event)}
      className={compact ? 'space-y-4' : 'space-y-6'}
    >
      {offers.length > 1 ? (
        <fieldset>
          <legend className="font-sans text-[0.9375rem] font-semibold text-ink">
            How would you like it?
          </legend>
          <div className="mt-3 grid gap-2.5">
            {offers.map((offer) => (
              <label
                key={offer.product_id}
                className="flex cursor-pointer items-center gap-3 rounded-2xl border border-line bg-white px-4 py-3 transition-colors hover:border-accent-400 has-checked:border-accent-600 has-checked:bg-accent-50 has-checked:ring-1 has-checked:ring-accent-600"
              >
                <input
                  type="radio"
                  name={groupName}
                  value={offer.product_id}
                  checked={offer.product_id === selected.product_id}
                  onChange={() => {
                    setSelectedId(offer.product_id);
                    setProblem(null);
                  }}
                  className="size-5 shrink-0 cursor-pointer accent-accent-700"
                />
                <span className="min-w-0 flex-1">
                  <span className="flex flex-wrap items-baseline justify-between gap-x-3">
                    <span className="font-semibold text-ink">
                      {frequencyTitles[offer.frequency]}
                    </span>
                    <span className="font-semibold tabular-nums text-ink">
                      {priceLabel(offer.price_cents, offer.frequency)}
                    </span>
                  </span>
                  <span className="block text-sm text-ink-soft">{offer.dose}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      ) : (
        <div className="flex items-baseline justify-between gap-4 rounded-2xl border border-line bg-surface px-4 py-3">
          <span>
            <span className="block font-semibold text-ink">
              {frequencyTitles[selected.frequency]}
            </span>
            <span className="block text-sm text-ink-soft">{selected.dose}</span>
          </span>
          <span className="font-semibold tabular-nums text-ink">
            {priceLabel(selected.price_cents, selected.frequency)}
          </span>
        </div>
      )}
      {selected.frequency !== 'ONE_TIME' ? (
        <p className="text-sm text-muted">
          Ships free. Skip, pause or cancel any time from your account.
        </p>
      ) : null}
      {problem ? <FormAlert>{problem}</FormAlert> : null}
      <div className="flex flex-wrap items-center gap-3">
        {withQuantity ? (
          <div className="flex items-center gap-3">
            <span id={quantityLabel} className="text-[0.9375rem] font-medium text-ink">
              Quantity
            </span>
            <QuantityStepper
              value={quantity}
              labelledBy={quantityLabel}
              itemName={line.name}
              onChange={(next) => {
                setQuantity(next);
                setProblem(null);
              }}
            />
          </div>
        ) : null}
        <button
          type="submit"
          disabled={pending}
          aria-busy={pending || undefined}
          // On /shop several products sit side by side: each button names its own.
          aria-label={compact ? `Add to cart: ${line.name}` : undefined}
          className={`${buttonClass('primary', 'lg')} flex-1 whitespace-nowrap`}
        >
          {pending ? (
            <span
              aria-hidden="true"
              className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent"
            />
          ) : null}
          Add to cart
        </button>
      </div>
    </form>
  );
}
