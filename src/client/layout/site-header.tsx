import { lazy, Suspense, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { CartButton } from '#client/features/cart/components/cart-button.tsx';
import { buttonClass } from '#client/components/ui/button.ts';
import { setLoginVisible, useAppState } from '#client/lib/app-state.ts';
import { runtimeConfig } from '#client/lib/runtime-config.ts';
import { paths } from '#shared/paths.ts';
import { site } from '#shared/site.ts';
import { headerAccountId } from '#client/components/layout/header-account.ts';
import { Logo } from '#client/components/layout/logo.tsx';

const navLink = ({ isActive }: { isActive: boolean }) =>
  `rounded-full px-2.5 py-2 text-[0.9375rem] font-medium transition-colors hover:bg-accent-50 hover:text-accent-800 sm:px-3 ${
    isActive ? 'text-accent-800' : 'text-ink-soft'
  }`;

/**
 * The slider (Radix Dialog and the form) is fetched when a visitor first reaches for it, so the
 * storefront's first download does not carry it.
 */
const loadSlider = () => import('#client/features/auth/components/login-slider.tsx');
const LoginSlider = lazy(() => loadSlider().then((module) => ({ default: module.LoginSlider })));
const preloadSlider = () => void loadSlider().then((module) => module.loadLoginForm());

const accountButton = `${buttonClass('secondary')} min-h-10! px-4! text-sm sm:text-[0.9375rem]`;

/** Logged out: 'Log in' opens the slider (when the login feature is on). Logged in: 'My account'. */
function AccountEntry() {
  const isLoggedIn = useAppState((state) => state.login.isLoggedIn);
  const isVisible = useAppState((state) => state.login.isVisible);
  // Once mounted the slider stays, so its closing animation can run.
  const [wanted, setWanted] = useState(isVisible);
  if (isVisible && !wanted) setWanted(true);
  if (isLoggedIn) {
    // A phone's header also holds Shop and the cart: the link shows as an icon there.
    return (
      <Link
        id={headerAccountId}
        to={paths.dashboard}
        className={`${accountButton} whitespace-nowrap max-sm:w-10 max-sm:px-0!`}
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="size-5 sm:hidden"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinecap="round"
        >
          <path d="M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm-7.5 8.5c.8-3.6 3.9-6 7.5-6s6.7 2.4 7.5 6" />
        </svg>
        <span className="max-sm:sr-only">My account</span>
      </Link>
    );
  }
  if (!runtimeConfig().features.login) return null;
  return (
    <>
      <button
        id={headerAccountId}
        type="button"
        className={accountButton}
        onClick={() => setLoginVisible(true)}
        onPointerEnter={preloadSlider}
        onFocus={preloadSlider}
        aria-haspopup="dialog"
      >
        Log in
      </button>
      {wanted ? (
        <Suspense fallback={null}>
          <LoginSlider />
        </Suspense>
      ) : null}
    </>
  );
}

/** The checkout's steps: the header leaves only the way home and a person to call. */
const checkoutSteps = [paths.checkoutShipping, paths.checkoutUpsell, paths.checkoutPayment];

/**
 * While paying, nothing leads away: the logo, that the checkout is secure, and the support line.
 * The cart is in the order summary beside the step.
 */
function CheckoutHeaderEnd() {
  return (
    <div className="flex items-center gap-3 text-sm sm:gap-5">
      <p className="flex items-center gap-1.5 font-semibold text-ink">
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          className="size-4 text-accent-800"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
        >
          <rect x="4" y="9" width="12" height="8" rx="2" />
          <path d="M7 9V6.5a3 3 0 0 1 6 0V9" strokeLinecap="round" />
        </svg>
        Secure checkout
      </p>
      <a
        href={`tel:${site.supportPhone.replace(/\D/g, '')}`}
        className="rounded-full px-2 py-2 font-medium text-ink-soft hover:text-accent-800 max-sm:hidden"
      >
        Questions? {site.supportPhone}
      </a>
    </div>
  );
}

export function SiteHeader() {
  const { pathname } = useLocation();
  const checkingOut = checkoutSteps.some((step) => pathname.startsWith(step));
  return (
    <header className="sticky top-0 print:hidden z-40 border-b border-line/80 bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/85">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-3 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <div className="container-page flex h-16 items-center justify-between gap-3">
        <Logo />
        {checkingOut ? <CheckoutHeaderEnd /> : <SiteHeaderEnd />}
      </div>
    </header>
  );
}

/** Everywhere else: Shop, FAQ, the account and the cart. */
function SiteHeaderEnd() {
  return (
    <div className="flex items-center gap-1 sm:gap-2">
      <nav aria-label="Main" className="flex items-center">
        <NavLink to={paths.shop} className={navLink}>
          Shop
        </NavLink>
        <NavLink to={paths.faq} className={(state) => `${navLink(state)} max-sm:hidden`}>
          FAQ
        </NavLink>
      </nav>
      <AccountEntry />
      <CartButton />
    </div>
  );
}
