import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Order } from '#shared/orders.ts';
import { messages } from '#shared/wording.ts';
import { buttonClass } from '#client/components/ui/button.ts';
import { errorText } from '#client/lib/api.ts';
import { fetchCatalog } from '#client/features/catalog/catalog.api.ts';
import { mergeIntoServerCart } from '#client/features/cart/cart.api.ts';
import { setCartDrawerOpen } from '#client/features/cart/cart-drawer-state.ts';
import { planBuyAgain, unavailableText } from '../buy-again.ts';

/**
 * "Buy again" on a past store order: its products, as the catalogue sells them today, go into the
 * customer's cart and the cart opens. Lines no longer sold are left out, and the customer is told.
 */
export function BuyAgainButton({ order }: { order: Order }) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const [note, setNote] = useState<{ kind: 'info' | 'error'; text: string } | null>(null);

  const buyAgain = async () => {
    setPending(true);
    setNote(null);
    try {
      const catalog = await fetchCatalog(queryClient);
      const plan = planBuyAgain(order, catalog);
      if (plan.items.length === 0) {
        setNote({
          kind: 'info',
          text: `${unavailableText(plan.unavailable)} Nothing was added to your cart.`,
        });
        return;
      }
      await mergeIntoServerCart(queryClient, plan.items);
      if (plan.unavailable.length > 0)
        setNote({ kind: 'info', text: unavailableText(plan.unavailable) });
      setCartDrawerOpen(true);
    } catch (error) {
      setNote({ kind: 'error', text: errorText(error, messages.v2Failed) });
    } finally {
      setPending(false);
    }
  };

  return (
    <div className="space-y-2">
      <button
        type="button"
        className={buttonClass('secondary')}
        disabled={pending}
        aria-busy={pending}
        onClick={() => void buyAgain()}
      >
        {pending ? 'Adding to cart…' : 'Buy again'}
        <span className="sr-only"> (order {order.order_number})</span>
      </button>
      <p
        role="status"
        className={`text-sm empty:hidden ${note?.kind === 'error' ? 'text-danger' : 'text-ink-soft'}`}
      >
        {note?.text}
      </p>
    </div>
  );
}
