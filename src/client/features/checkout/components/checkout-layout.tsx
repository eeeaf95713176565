import { Suspense, useEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { formatCents } from '#shared/money.ts';
import { site } from '#shared/site.ts';
import { LoadError } from '#client/components/ui/load-error.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { showToast } from '#client/components/ui/toast.tsx';
import { cartLabel } from '#client/features/cart/components/cart-button.tsx';
import { useCart, useIsMember } from '#client/features/cart/use-cart.ts';
import { checkoutSteps, type CheckoutStep } from '#client/lib/analytics.ts';
import { paths } from '#shared/paths.ts';
import { OrderSummary } from './order-summary.tsx';
import { StepIndicator } from './step-indicator.tsx';
import { PageTitle } from '#client/components/layout/document-head.tsx';

function stepOf(pathname: string): CheckoutStep {
  if (pathname.startsWith(paths.checkoutPayment)) return 3;
  if (pathname.startsWith(paths.checkoutUpsell)) return 2;
  return 1;
}

/** An empty cart has nothing to check out: back to the shop, saying so. */
function BackToShop() {
  const told = useRef(false);
  useEffect(() => {
    if (told.current) return;
    told.current = true;
    showToast({
      title: 'Your cart is empty',
      description: 'Add something you like, then come back to check out.',
    });
  }, []);
  return <Navigate to={paths.shop} replace />;
}

/**
 * The checkout's frame: the step indicator, the step, and the order summary beside it (above it,
 * folded, on a phone). Only a cart with something in it gets this far.
 */
export function CheckoutLayout() {
  const cart = useCart();
  const { pathname } = useLocation();
  const member = useIsMember();
  const step = useRef<HTMLDivElement>(null);
  const shown = useRef<string | null>(null);

  // A new step (or step 1 turning from the account into the address form) takes focus to its
  // heading, so a screen reader says where the customer is; the first page load leaves it alone.
  const view = `${pathname}:${member ? 'member' : 'visitor'}`;
  useEffect(() => {
    const previous = shown.current;
    shown.current = view;
    if (previous === null || previous === view) return;
    const container = step.current;
    if (!container) return;
    // The step may still be loading (offers, the saved address): wait for its heading.
    const focusHeading = () => {
      const heading = container.querySelector<HTMLElement>('[data-step-heading]');
      heading?.focus();
      return heading !== null;
    };
    if (focusHeading()) return;
    const observer = new MutationObserver(() => {
      if (focusHeading()) observer.disconnect();
    });
    observer.observe(container, { childList: true, subtree: true });
    const timer = setTimeout(() => observer.disconnect(), 5000);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [view]);

  let content;
  if (cart.status === 'pending') content = <Spinner block label="Loading your cart…" />;
  else if (cart.status === 'error')
    content = <LoadError message={cart.error?.message ?? ''} onRetry={cart.retry} />;
  else if (cart.lines.length === 0) return <BackToShop />;
  else
    content = (
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start lg:gap-8">
        {/* On a phone this folded summary is the checkout's only cart: named as the header's
            cart is everywhere else, with its count, as the desktop's aside is by its heading. */}
        <details
          aria-label={cartLabel(cart.itemCount)}
          className="group rounded-3xl border border-line bg-white shadow-[0_1px_2px_rgba(15,37,51,0.04)] lg:hidden"
        >
          <summary className="flex min-h-14 cursor-pointer list-none items-center justify-between gap-3 rounded-3xl px-5 py-3 [&::-webkit-details-marker]:hidden">
            <span className="flex items-center gap-2 font-semibold text-accent-800">
              <span className="group-open:hidden">Show order summary</span>
              <span className="hidden group-open:inline">Hide order summary</span>
              <svg
                aria-hidden="true"
                viewBox="0 0 20 20"
                className="size-4 transition-transform group-open:rotate-180"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
              >
                <path d="M6 8l4 4 4-4" strokeLinecap="round" strokeLinejoin="round" />
              </svg>
            </span>
            <span className="font-semibold tabular-nums text-ink">
              {formatCents(cart.totalCents)}
            </span>
          </summary>
          <div className="border-t border-line px-5 py-5">
            <OrderSummary cart={cart} />
          </div>
        </details>
        <div ref={step} className="min-w-0">
          <Suspense fallback={<Spinner screen label="Loading the page…" />}>
            <Outlet />
          </Suspense>
        </div>
        <aside
          aria-labelledby="summary-title"
          className="rounded-3xl border border-line bg-white p-6 shadow-[0_1px_2px_rgba(15,37,51,0.04)] max-lg:hidden lg:sticky lg:top-24"
        >
          <h2 id="summary-title" className="mb-5 text-xl text-ink">
            Order summary
          </h2>
          <OrderSummary cart={cart} />
        </aside>
      </div>
    );

  return (
    <div className="bg-surface/60">
      <PageTitle>{`Checkout: ${checkoutSteps[stepOf(pathname)]} — ${site.name}`}</PageTitle>
      <div className="container-page py-6 md:py-10">
        <div className="mb-6 flex flex-col gap-5 md:mb-8 md:flex-row md:items-center md:justify-between">
          <h1 className="text-3xl text-ink md:text-4xl">Checkout</h1>
          <div className="md:w-[28rem]">
            <StepIndicator current={stepOf(pathname)} />
          </div>
        </div>
        {content}
      </div>
    </div>
  );
}
