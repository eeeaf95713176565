import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { SiteLayout } from './components/layout/site-layout.tsx';
import { HomePage } from './features/catalog/pages/home-page.tsx';
import { PublicOnlyRoute, RequireAuth } from './features/accounts/components/route-guards.tsx';
import { FeatureGate } from './features/errors/components/feature-gate.tsx';
import { RouteError } from './features/errors/components/route-error.tsx';
import { NotFoundPage } from './features/errors/pages/not-found-page.tsx';
import { paths } from './paths.ts';

/** Static pages are text-heavy and rarely the first visit: loaded on demand. */
const staticPage = (name: 'privacy' | 'terms' | 'consent' | 'faq') => async () => {
  const content = await import('./features/static-pages/static-pages.content.ts');
  if (name === 'faq') {
    const { FaqPage } = await import('./features/static-pages/pages/faq-page.tsx');
    return { Component: FaqPage };
  }
  const { LegalPage } = await import('./features/static-pages/pages/legal-page.tsx');
  const page = {
    privacy: content.privacyPolicy,
    terms: content.termsOfService,
    consent: content.consentToTelehealth,
  }[name];
  return { Component: () => <LegalPage page={page} /> };
};

/**
 * Log-in screens and the member area load on demand, so the storefront's first download stays
 * small. Each entry resolves to the page's component.
 */
const accountPages = {
  login: async () => ({
    Component: (await import('./features/accounts/pages/login-page.tsx')).LoginPage,
  }),
  signup: async () => ({
    Component: (await import('./features/accounts/pages/signup-page.tsx')).SignupPage,
  }),
  resetPassword: async () => ({
    Component: (await import('./features/accounts/pages/reset-password-page.tsx'))
      .ResetPasswordPage,
  }),
  logout: async () => ({
    Component: (await import('./features/accounts/pages/logout-page.tsx')).LogoutPage,
  }),
  layout: async () => ({
    Component: (await import('./features/accounts/components/account-layout.tsx')).AccountLayout,
  }),
  dashboard: async () => ({
    Component: (await import('./features/accounts/pages/dashboard-page.tsx')).DashboardPage,
  }),
  accounts: async () => ({
    Component: (await import('./features/accounts/pages/accounts-page.tsx')).AccountsPage,
  }),
  orders: async () => ({
    Component: (await import('./features/orders/pages/orders-page.tsx')).OrdersPage,
  }),
  messages: async () => ({
    Component: (await import('./features/messages/pages/messages-page.tsx')).MessagesPage,
  }),
  subscriptions: async () => ({
    Component: (await import('./features/subscriptions/pages/subscriptions-page.tsx'))
      .SubscriptionsPage,
  }),
  editPaymentMethod: async () => ({
    Component: (await import('./features/accounts/pages/edit-payment-method-page.tsx'))
      .EditPaymentMethodPage,
  }),
};

/** The online visit (DESIGN §1, §6): its frame and each screen, loaded when a visit starts. */
const visitPages = {
  layout: async () => ({
    Component: (await import('./features/visits/components/visit-layout.tsx')).VisitLayout,
  }),
  start: async () => ({
    Component: (await import('./features/visits/pages/start-visit-page.tsx')).StartVisitPage,
  }),
  eligibility: async () => ({
    Component: (await import('./features/visits/pages/eligibility-page.tsx')).EligibilityPage,
  }),
  questions: async () => ({
    Component: (await import('./features/visits/pages/questions-page.tsx')).QuestionsPage,
  }),
  preferences: async () => ({
    Component: (await import('./features/visits/pages/preferences-page.tsx')).PreferencesPage,
  }),
  photo: async () => ({
    Component: (await import('./features/visits/pages/photo-page.tsx')).PhotoPage,
  }),
  consent: async () => ({
    Component: (await import('./features/visits/pages/consent-page.tsx')).ConsentPage,
  }),
  checkout: async () => ({
    Component: (await import('./features/visits/pages/checkout-page.tsx')).VisitCheckoutPage,
  }),
  submitted: async () => ({
    Component: (await import('./features/visits/pages/submitted-page.tsx')).SubmittedPage,
  }),
  ineligible: async () => ({
    Component: (await import('./features/visits/pages/ineligible-page.tsx')).IneligiblePage,
  }),
  notAFit: async () => ({
    Component: (await import('./features/visits/pages/not-a-fit-page.tsx')).NotAFitPage,
  }),
};

/** The shop, the cart page and the checkout load on demand too; home and the header stay eager. */
const storePages = {
  shop: async () => ({
    Component: (await import('./features/catalog/pages/shop-page.tsx')).ShopPage,
  }),
  product: async () => ({
    Component: (await import('./features/catalog/pages/product-page.tsx')).ProductPage,
  }),
  cartRoute: async () => ({
    Component: (await import('./features/cart/pages/cart-page.tsx')).CartRoute,
  }),
  cart: async () => ({
    Component: (await import('./features/cart/pages/cart-page.tsx')).CartPage,
  }),
  checkout: async () => ({
    Component: (await import('./features/checkout/components/checkout-layout.tsx')).CheckoutLayout,
  }),
  shipping: async () => ({
    Component: (await import('./features/checkout/pages/shipping-page.tsx')).ShippingPage,
  }),
  upsell: async () => ({
    Component: (await import('./features/checkout/pages/upsell-page.tsx')).UpsellPage,
  }),
  payment: async () => ({
    Component: (await import('./features/checkout/pages/payment-page.tsx')).PaymentPage,
  }),
  complete: async () => ({
    Component: (await import('./features/checkout/pages/complete-page.tsx')).CompletePage,
  }),
};

/**
 * The staff console (DESIGN §6, §7): its own log-in and frame, outside the customer site, loaded
 * only by staff.
 */
const staffPages = {
  login: async () => ({
    Component: (await import('./features/staff/pages/staff-login-page.tsx')).StaffLoginPage,
  }),
  layout: async () => ({
    Component: (await import('./features/staff/components/staff-layout.tsx')).StaffLayout,
  }),
  home: async () => ({
    Component: (await import('./features/staff/pages/staff-home-page.tsx')).StaffHomePage,
  }),
  order: async () => ({
    Component: (await import('./features/staff/pages/staff-order-page.tsx')).StaffOrderPage,
  }),
  visit: async () => ({
    Component: (await import('./features/staff/pages/staff-visit-page.tsx')).StaffVisitPage,
  }),
  inbox: async () => ({
    Component: (await import('./features/staff/pages/staff-inbox-page.tsx')).StaffInboxPage,
  }),
  thread: async () => ({
    Component: (await import('./features/staff/pages/staff-thread-page.tsx')).StaffThreadPage,
  }),
};

export const routes: RouteObject[] = [
  {
    element: <SiteLayout />,
    errorElement: <RouteError />,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          { path: paths.home, element: <HomePage /> },
          { path: paths.privacy, lazy: staticPage('privacy') },
          { path: paths.terms, lazy: staticPage('terms') },
          { path: paths.consentToTelehealth, lazy: staticPage('consent') },
          { path: paths.faq, lazy: staticPage('faq') },
          { path: paths.shop, lazy: storePages.shop },
          { path: `${paths.shop}/:slug`, lazy: storePages.product },
          {
            // A visitor's cart is this browser's; a customer's shows in the member area (spec §2).
            path: paths.cart,
            lazy: storePages.cartRoute,
            children: [{ index: true, lazy: storePages.cart }],
          },
          {
            lazy: storePages.checkout,
            children: [
              { path: paths.checkoutShipping, lazy: storePages.shipping },
              { path: paths.checkoutUpsell, lazy: storePages.upsell },
              { path: paths.checkoutPayment, lazy: storePages.payment },
            ],
          },
          { path: paths.checkoutComplete, lazy: storePages.complete },
          { path: '/checkout', element: <Navigate to={paths.checkoutShipping} replace /> },
          {
            element: (
              <FeatureGate feature="login">
                <PublicOnlyRoute />
              </FeatureGate>
            ),
            children: [
              { path: paths.login, lazy: accountPages.login },
              { path: paths.signup, lazy: accountPages.signup },
              { path: paths.resetPassword, lazy: accountPages.resetPassword },
            ],
          },
          { path: paths.logout, lazy: accountPages.logout },
          {
            element: <RequireAuth />,
            children: [
              {
                lazy: accountPages.layout,
                children: [
                  { path: paths.dashboard, lazy: accountPages.dashboard },
                  { path: paths.messages, lazy: accountPages.messages },
                  { path: paths.orders, lazy: accountPages.orders },
                  { path: paths.subscriptions, lazy: accountPages.subscriptions },
                  { path: paths.accounts, lazy: accountPages.accounts },
                  { path: paths.editPaymentMethod, lazy: accountPages.editPaymentMethod },
                ],
              },
              {
                path: '/visit/:category',
                lazy: visitPages.layout,
                children: [
                  { index: true, lazy: visitPages.start },
                  { path: 'eligibility', lazy: visitPages.eligibility },
                  { path: 'questions', lazy: visitPages.questions },
                  { path: 'preferences', lazy: visitPages.preferences },
                  { path: 'photo', lazy: visitPages.photo },
                  { path: 'consent', lazy: visitPages.consent },
                  { path: 'checkout', lazy: visitPages.checkout },
                  { path: 'submitted', lazy: visitPages.submitted },
                  { path: 'ineligible', lazy: visitPages.ineligible },
                  { path: 'not-a-fit', lazy: visitPages.notAFit },
                  { path: '*', element: <NotFoundPage /> },
                ],
              },
            ],
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
  {
    errorElement: <RouteError />,
    children: [
      { path: paths.staffLogin, lazy: staffPages.login },
      {
        lazy: staffPages.layout,
        children: [
          { path: paths.staff, lazy: staffPages.home },
          { path: `${paths.staff}/orders/:id`, lazy: staffPages.order },
          { path: `${paths.staff}/visits/:id`, lazy: staffPages.visit },
          { path: paths.staffInbox, lazy: staffPages.inbox },
          { path: `${paths.staffInbox}/:id`, lazy: staffPages.thread },
        ],
      },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
