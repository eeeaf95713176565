import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import type { Upsell } from '#shared/checkout.ts';
import { formatCents, priceLabel } from '#shared/money.ts';
import { FormAlert } from '#client/components/forms/fields.tsx';
import { buttonClass } from '#client/components/ui/button.ts';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { addToServerCart, setServerQuantities } from '#client/features/cart/cart.api.ts';
import { itemSource, useCart, useIsMember, type CartView } from '#client/features/cart/use-cart.ts';
import { trackAddToCart, trackRemoveFromCart } from '#client/lib/analytics.ts';
import { reportError } from '#client/lib/error-reporting.ts';
import { paths } from '#shared/paths.ts';
import { upsellsKey, useShippingSoFar, useUpsells } from '../checkout.api.ts';
import { useCheckoutStepEvent } from '../use-checkout-step.ts';
import { stepCardClass } from './shipping-page.tsx';

/** Takes an offer: add the product, or put the subscription in place of the one-time line. */
async function accept(
  queryClient: ReturnType<typeof useQueryClient>,
  offer: Upsell,
  cart: CartView,
): Promise<void> {
  let updated;
  let quantity = 1;
  if (offer.kind === 'switch_to_subscription' && offer.replaces_product_id !== null) {
    const replaced = cart.lines.find((line) => line.product_id === offer.replaces_product_id);
    quantity = replaced?.quantity ?? 1;
    updated = await setServerQuantities(queryClient, [
      { product_id: offer.replaces_product_id, quantity: 0 },
      { product_id: offer.product_id, quantity },
    ]);
    // The one-time line leaves the cart as the subscription comes in: GA4 hears both.
    if (replaced) trackRemoveFromCart(itemSource(replaced));
  } else {
    updated = await addToServerCart(queryClient, offer.product_id, 1);
  }
  const line = updated.products.items.find((item) => item.product_id === offer.product_id);
  trackAddToCart({
    product_id: offer.product_id,
    name: line?.name ?? offer.title,
    category: line?.category ?? 'supplements',
    frequency: offer.frequency,
    price_cents: offer.price_cents,
    quantity,
  });
}

function OfferCard({
  offer,
  taken,
  onTake,
}: {
  offer: Upsell;
  taken: boolean;
  onTake: () => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const action = offer.kind === 'switch_to_subscription' ? 'Switch' : 'Add to order';
  return (
    <li className="flex flex-col gap-4 rounded-2xl border border-line bg-surface/60 p-4 sm:flex-row sm:items-center sm:p-5">
      <img
        src={offer.img}
        alt=""
        width={96}
        height={96}
        className="size-20 shrink-0 rounded-2xl bg-white object-cover ring-1 ring-line sm:size-24"
      />
      <div className="min-w-0 flex-1">
        <h3 className="font-sans text-lg font-semibold leading-snug text-ink">{offer.title}</h3>
        <p className="mt-1 text-[0.9375rem] text-ink-soft">{offer.description}</p>
        <p className="mt-2 flex flex-wrap items-baseline gap-x-3 text-[0.9375rem]">
          <span className="font-semibold text-ink">
            {priceLabel(offer.price_cents, offer.frequency)}
          </span>
          {offer.savings_cents > 0 ? (
            <span className="rounded-full bg-success-soft px-2.5 py-0.5 text-sm font-semibold text-success">
              Save {formatCents(offer.savings_cents)}
            </span>
          ) : null}
        </p>
      </div>
      {taken ? (
        <p className="flex shrink-0 items-center gap-2 font-semibold text-success" role="status">
          <svg
            aria-hidden="true"
            viewBox="0 0 20 20"
            className="size-5"
            fill="none"
            stroke="currentColor"
            strokeWidth="2.5"
          >
            <path d="M4 10.5l4 4 8-9" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          {offer.kind === 'switch_to_subscription' ? 'Switched' : 'Added'}
        </p>
      ) : (
        <button
          type="button"
          disabled={busy}
          aria-busy={busy || undefined}
          onClick={() => {
            setBusy(true);
            void onTake().finally(() => setBusy(false));
          }}
          aria-label={`${action}: ${offer.title}`}
          className={`${buttonClass('secondary')} shrink-0`}
        >
          {action}
        </button>
      )}
    </li>
  );
}

/** /checkout/upsell, step 2: the real offers for this cart; skippable, and skipped when there are none. */
export function UpsellPage() {
  const member = useIsMember();
  const soFar = useShippingSoFar(member);
  const shipping = soFar.status === 'ready' ? soFar.shipping : null;
  const cart = useCart();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const offers = useUpsells(member && shipping !== null);
  // The offers as first shown: taking one does not make the list jump.
  const [shown, setShown] = useState<Upsell[] | null>(null);
  const [taken, setTaken] = useState<number[]>([]);
  const [problem, setProblem] = useState<string | null>(null);

  if (offers.data && shown === null) setShown(offers.data);
  useCheckoutStepEvent(2, cart, shown !== null || offers.isError);

  const nothingToOffer = offers.isError || (shown !== null && shown.length === 0);
  useEffect(() => {
    if (offers.isError) reportError(offers.error, 'warning', 'upsells');
  }, [offers.isError, offers.error]);
  useEffect(() => {
    if (nothingToOffer) void navigate(paths.checkoutPayment, { replace: true });
  }, [nothingToOffer, navigate]);

  if (soFar.status === 'pending') return <Spinner block label="Loading your checkout…" />;
  if (!member || !shipping) return <Navigate to={paths.checkoutShipping} replace />;
  if (shown === null || nothingToOffer) return <Spinner block label="Loading offers…" />;

  const take = async (offer: Upsell) => {
    setProblem(null);
    try {
      await accept(queryClient, offer, cart);
      setTaken((list) => [...list, offer.product_id]);
      void queryClient.invalidateQueries({ queryKey: upsellsKey });
    } catch (error) {
      setProblem(error instanceof Error ? error.message : null);
    }
  };

  return (
    <section aria-labelledby="upsell-title" className={stepCardClass}>
      <h2
        id="upsell-title"
        tabIndex={-1}
        data-step-heading
        className="text-2xl text-ink outline-none"
      >
        Before you pay
      </h2>
      <p className="mt-2 text-ink-soft">A little more for the two of you. Entirely optional.</p>
      {problem ? (
        <div className="mt-5">
          <FormAlert>{problem}</FormAlert>
        </div>
      ) : null}
      <ul className="mt-6 space-y-4">
        {shown.map((offer) => (
          <OfferCard
            key={`${offer.kind}-${offer.product_id}`}
            offer={offer}
            taken={taken.includes(offer.product_id)}
            onTake={() => take(offer)}
          />
        ))}
      </ul>
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-between">
        <Link to={paths.checkoutShipping} className={buttonClass('ghost')}>
          Back to shipping
        </Link>
        <Link to={paths.checkoutPayment} className={buttonClass('primary', 'lg')}>
          {taken.length > 0 ? 'Continue to payment' : 'No thanks, continue'}
        </Link>
      </div>
    </section>
  );
}
