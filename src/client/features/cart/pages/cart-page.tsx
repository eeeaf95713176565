import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { site } from '#shared/site.ts';
import {
  AccountHeader,
  AccountLayout,
} from '#client/features/accounts/components/account-layout.tsx';
import { CartContents } from '../components/cart-contents.tsx';
import { useIsMember } from '../use-cart.ts';
import { PageTitle } from '#client/components/layout/document-head.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';

const subtitle =
  'Free shipping on every order. Subscriptions can be skipped, paused or cancelled any time.';

/**
 * /cart's frame. A logged-in customer finds the cart in the member area, beside the sidebar whose
 * Cart entry shows the count (spec §2); a visitor's cart is this browser's, on a page of its own.
 */
export function CartRoute() {
  const member = useIsMember();
  if (member) return <AccountLayout />;
  return (
    <div className="bg-surface/60">
      <div className="container-page py-8 md:py-12">
        <Suspense fallback={<Spinner screen label="Loading the page…" />}>
          <Outlet />
        </Suspense>
      </div>
    </div>
  );
}

/** /cart: the same cart as the drawer, as a page. */
export function CartPage() {
  const member = useIsMember();
  return (
    <>
      {member ? (
        <AccountHeader title="Cart" subtitle={subtitle} />
      ) : (
        <header className="mb-6 md:mb-8">
          <PageTitle>{`Cart — ${site.name}`}</PageTitle>
          <h1 className="text-3xl text-ink md:text-4xl">Cart</h1>
          <p className="mt-2 text-ink-soft">{subtitle}</p>
        </header>
      )}
      <CartContents layout="page" />
    </>
  );
}
