import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { lineTotal, orderDiscount } from '#shared/cart.ts';
import { bottlesText } from '#shared/catalog.ts';
import { cacheKeys } from '#shared/constants.ts';
import { formatCents, priceLabel } from '#shared/money.ts';
import { site } from '#shared/site.ts';
import { buttonClass, textLinkClass } from '#client/components/ui/button.ts';
import { paths } from '#shared/paths.ts';
import { forgetCheckoutProgress } from '../checkout.api.ts';
import { readPlacedOrder, setCheckoutShipping } from '../checkout-state.ts';
import { PageTitle } from '#client/components/layout/document-head.tsx';
import { refreshOrderViews } from '#client/features/orders/orders.api.ts';

const orderLink = (orderNumber: string) => `${paths.orders}#${encodeURIComponent(orderNumber)}`;

/** /checkout/complete: the order number (a link to it on /orders) and what happens next. */
export function CompletePage() {
  const [order] = useState(readPlacedOrder);
  const queryClient = useQueryClient();

  // The checkout is over: forget its address, and reload what the order changed — the cart is
  // empty now, a new card may be on file, and the member area has a new order.
  useEffect(() => {
    setCheckoutShipping(null);
    forgetCheckoutProgress(queryClient);
    void queryClient.invalidateQueries({ queryKey: [cacheKeys.cart] });
    refreshOrderViews(queryClient);
  }, [queryClient]);

  if (!order) {
    return (
      <div className="container-page flex min-h-[50vh] flex-col items-center justify-center py-16 text-center">
        <PageTitle>{`Order — ${site.name}`}</PageTitle>
        <h1 className="text-3xl text-ink md:text-4xl">No recent order here</h1>
        <p className="mt-3 max-w-md text-ink-soft">
          Your orders are always in your account, with their status and tracking.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Link to={paths.orders} className={buttonClass('primary', 'lg')}>
            See your orders
          </Link>
          <Link to={paths.shop} className={buttonClass('secondary', 'lg')}>
            Keep shopping
          </Link>
        </div>
      </div>
    );
  }

  const count = order.items.reduce((sum, item) => sum + item.quantity, 0);
  const discount = orderDiscount(order.items, order.total_cents);
  const steps = [
    {
      title: 'Confirmation by email',
      text: "We've sent a receipt with your order number to the email address on your account.",
    },
    {
      title: 'Packed and shipped',
      text: "Your order ships free in plain packaging, usually within 1–2 business days. You'll get a tracking number by email, and it appears on your Orders page.",
    },
    ...(order.subscriptions > 0
      ? [
          {
            title:
              order.subscriptions === 1
                ? 'Your subscription has started'
                : `Your ${order.subscriptions} subscriptions have started`,
            text: (
              <>
                Refills ship on schedule and are charged to your card on file. You can skip, pause
                or cancel any time from{' '}
                <Link to={paths.subscriptions} className={textLinkClass}>
                  Subscriptions
                </Link>{' '}
                in your account.
              </>
            ),
          },
        ]
      : []),
  ];

  return (
    <div className="bg-gradient-to-b from-accent-50 via-accent-50/40 to-white">
      <PageTitle>{`Order ${order.order_number} placed — ${site.name}`}</PageTitle>
      <div className="container-page flex justify-center py-10 md:py-16">
        <div className="w-full max-w-2xl rounded-3xl border border-line bg-white p-6 shadow-[0_8px_30px_rgba(15,37,51,0.06)] sm:p-10">
          <span
            aria-hidden="true"
            className="grid size-14 place-items-center rounded-full bg-success-soft text-success"
          >
            <svg
              viewBox="0 0 24 24"
              className="size-7"
              fill="none"
              stroke="currentColor"
              strokeWidth="2.4"
            >
              <path d="M5 12.5l4.5 4.5L19 7.5" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
          </span>
          <h1 className="mt-5 text-3xl text-ink md:text-4xl">Thank you, your order is placed</h1>
          <p className="mt-3 text-lg text-ink-soft">
            Order number{' '}
            <Link to={orderLink(order.order_number)} className={`${textLinkClass} font-semibold`}>
              {order.order_number}
            </Link>
          </p>
          {order.ship_to_partner ? (
            <p className="mt-2 text-lg font-semibold text-ink">
              Shipping to {order.ship_to_partner.first_name}
            </p>
          ) : null}

          <section aria-labelledby="placed-items-title" className="mt-8">
            <h2 id="placed-items-title" className="font-sans text-base font-semibold text-ink">
              {count} {count === 1 ? 'item' : 'items'}
            </h2>
            <ul className="mt-3 divide-y divide-line rounded-2xl border border-line">
              {order.items.map((item) => (
                <li
                  key={item.product_id}
                  className="flex items-baseline justify-between gap-4 px-4 py-3"
                >
                  <span className="min-w-0">
                    <span className="block font-medium text-ink">{item.name}</span>
                    <span className="block text-sm text-ink-soft">
                      {bottlesText(item, item.quantity)} ·{' '}
                      {priceLabel(item.price_cents, item.frequency)}
                    </span>
                  </span>
                  <span className="shrink-0 tabular-nums text-ink">
                    {formatCents(lineTotal(item))}
                  </span>
                </li>
              ))}
              {discount > 0 ? (
                <li className="flex items-baseline justify-between gap-4 px-4 py-3">
                  <span className="text-ink-soft">Discount</span>
                  <span className="tabular-nums text-success">−{formatCents(discount)}</span>
                </li>
              ) : null}
              <li className="flex items-baseline justify-between gap-4 px-4 py-3 font-semibold">
                <span className="text-ink">Total charged</span>
                <span className="tabular-nums text-ink">{formatCents(order.total_cents)}</span>
              </li>
            </ul>
          </section>

          <section aria-labelledby="next-title" className="mt-8">
            <h2 id="next-title" className="text-2xl text-ink">
              What happens next
            </h2>
            <ol className="mt-4 space-y-4">
              {steps.map((step, index) => (
                <li key={step.title} className="flex gap-4">
                  <span
                    aria-hidden="true"
                    className="grid size-8 shrink-0 place-items-center rounded-full bg-accent-100 font-display font-semibold text-accent-800"
                  >
                    {index + 1}
                  </span>
                  <div>
                    <h3 className="font-sans font-semibold text-ink">{step.title}</h3>
                    <p className="mt-0.5 text-[0.9375rem] text-ink-soft">{step.text}</p>
                  </div>
                </li>
              ))}
            </ol>
          </section>

          <div className="mt-10 flex flex-col gap-3 sm:flex-row">
            <Link to={orderLink(order.order_number)} className={buttonClass('primary', 'lg')}>
              See your order
            </Link>
            <Link to={paths.shop} className={buttonClass('secondary', 'lg')}>
              Keep shopping
            </Link>
          </div>
        </div>
      </div>
    </div>
  );
}
