import { isValidElement, lazy, type ComponentType } from 'react';
import { matchRoutes, Navigate, useRoutes, type Params, type RouteObject } from 'react-router';
import { SiteLayout } from '#client/layout/site-layout.tsx';
import { HomePage } from './features/catalog/pages/home-page.tsx';
import { ProductPage } from './features/catalog/pages/product-page.tsx';
import { PublicOnlyRoute, RequireAuth } from './features/auth/components/route-guards.tsx';
import { FeatureGate } from './features/errors/components/feature-gate.tsx';
import { RouteErrors } from './features/errors/components/route-errors.tsx';
import { NotFoundPage } from './features/errors/pages/not-found-page.tsx';
import { paths } from '#shared/paths.ts';

/** A route's page that can fetch its code ahead of its first render (see `preloadRoute`). */
type PreloadablePage = ComponentType & { preload: () => Promise<void> };

/**
 * A page whose code downloads when it is first shown (the frames around it wait in Suspense).
 * Once its code is here, through `preloadRoute` or an earlier render, it renders at once, without
 * suspending.
 */
function page(load: () => Promise<{ Component: ComponentType }>) {
  let loaded: ComponentType | undefined;
  const fetchCode = () =>
    load().then((module) => {
      loaded = module.Component;
      return { default: module.Component };
    });
  const Lazy = lazy(fetchCode);
  const Page: PreloadablePage = Object.assign(
    () => {
      const Loaded = loaded;
      return Loaded ? <Loaded /> : <Lazy />;
    },
    { preload: () => fetchCode().then(() => undefined) },
  );
  return <Page />;
}

/**
 * Fetches the code of every lazy page the address shows, so its first render draws it at once —
 * over the markup the server drew (decision 011) instead of a spinner.
 */
export async function preloadRoute(pathname: string): Promise<void> {
  const preloads = (matchRoutes(routes, pathname) ?? []).map(({ route }) => {
    const type: unknown = isValidElement(route.element) ? route.element.type : undefined;
    return typeof type === 'function' && 'preload' in type
      ? (type as PreloadablePage).preload()
      : undefined;
  });
  await Promise.all(preloads);
}

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
    Component: (await import('./features/auth/pages/login-page.tsx')).LoginPage,
  }),
  signup: async () => ({
    Component: (await import('./features/accounts/pages/signup-page.tsx')).SignupPage,
  }),
  resetPassword: async () => ({
    Component: (await import('./features/auth/pages/reset-password-page.tsx')).ResetPasswordPage,
  }),
  logout: async () => ({
    Component: (await import('./features/auth/pages/logout-page.tsx')).LogoutPage,
  }),
  loginUnlock: async () => ({
    Component: (await import('./features/auth/pages/login-unlock-page.tsx')).LoginUnlockPage,
  }),
  undoEmailChange: async () => ({
    Component: (await import('./features/accounts/pages/undo-email-change-page.tsx'))
      .UndoEmailChangePage,
  }),
  verifyEmail: async () => ({
    Component: (await import('./features/accounts/pages/verify-email-page.tsx')).VerifyEmailPage,
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
  receipt: async () => ({
    Component: (await import('./features/orders/pages/receipt-page.tsx')).ReceiptPage,
  }),
  careReceipt: async () => ({
    Component: (await import('./features/receipts/pages/care-receipt-page.tsx')).CareReceiptPage,
  }),
  messages: async () => ({
    Component: (await import('./features/messages/pages/messages-page.tsx')).MessagesPage,
  }),
  subscriptions: async () => ({
    Component: (await import('./features/subscriptions/pages/subscriptions-page.tsx'))
      .SubscriptionsPage,
  }),
  partner: async () => ({
    Component: (await import('./features/partners/pages/partner-page.tsx')).PartnerPage,
  }),
  editPaymentMethod: async () => ({
    Component: (await import('./features/accounts/pages/edit-payment-method-page.tsx'))
      .EditPaymentMethodPage,
  }),
  confirmPayment: async () => ({
    Component: (await import('./features/accounts/pages/confirm-payment-page.tsx'))
      .ConfirmPaymentPage,
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
  account: async () => ({
    Component: (await import('./features/visits/pages/account-page.tsx')).VisitAccountPage,
  }),
  eligibility: async () => ({
    Component: (await import('./features/visits/pages/eligibility-page.tsx')).EligibilityPage,
  }),
  questions: async () => ({
    Component: (await import('./features/visits/pages/questions-page.tsx')).QuestionsPage,
  }),
  answers: async () => ({
    Component: (await import('./features/visits/pages/answers-page.tsx')).AnswersPage,
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
  notFound: async () => ({
    Component: (await import('./features/visits/components/visit-layout.tsx')).VisitNotFound,
  }),
  submitted: async () => ({
    Component: (await import('./features/visits/pages/submitted-page.tsx')).SubmittedPage,
  }),
  ineligible: async () => ({
    Component: (await import('./features/visits/pages/ineligible-page.tsx')).IneligiblePage,
  }),
  renew: async () => ({
    Component: (await import('./features/renewals/pages/renew-page.tsx')).RenewPage,
  }),
  send: async () => ({
    Component: (await import('./features/renewals/pages/send-page.tsx')).SendRenewalPage,
  }),
  notAFit: async () => ({
    Component: (await import('./features/visits/pages/not-a-fit-page.tsx')).NotAFitPage,
  }),
};

/**
 * The shop, the cart page and the checkout load on demand too. Home and the product page come with
 * the first download: they are where visitors arrive, and a lazy page would cost them one more
 * round trip before anything shows.
 */
const storePages = {
  shop: async () => ({
    Component: (await import('./features/catalog/pages/shop-page.tsx')).ShopPage,
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
  unlock: async () => ({
    Component: (await import('./features/staff/pages/staff-unlock-page.tsx')).StaffUnlockPage,
  }),
  layout: async () => ({
    Component: (await import('./features/staff/components/staff-layout.tsx')).StaffLayout,
  }),
  home: async () => ({
    Component: (await import('./features/staff/pages/staff-home-page.tsx')).StaffHomePage,
  }),
  order: async () => ({
    Component: (await import('./features/operations/pages/staff-order-page.tsx')).StaffOrderPage,
  }),
  visit: async () => ({
    Component: (await import('./features/reviews/pages/staff-visit-page.tsx')).StaffVisitPage,
  }),
  inbox: async () => ({
    Component: (await import('./features/operations/pages/staff-inbox-page.tsx')).StaffInboxPage,
  }),
  thread: async () => ({
    Component: (await import('./features/operations/pages/staff-thread-page.tsx')).StaffThreadPage,
  }),
  outbox: async () => ({
    Component: (await import('./features/outbox/pages/staff-outbox-page.tsx')).StaffOutboxPage,
  }),
  pharmacy: async () => ({
    Component: (await import('./features/pharmacy/pages/staff-pharmacy-page.tsx'))
      .StaffPharmacyPage,
  }),
  dashboard: async () => ({
    Component: (await import('./features/dashboard/pages/staff-dashboard-page.tsx'))
      .StaffDashboardPage,
  }),
  patientMessages: async () => ({
    Component: (await import('./features/reviews/pages/patient-messages-page.tsx'))
      .PatientMessagesPage,
  }),
  patientThread: async () => ({
    Component: (await import('./features/reviews/pages/patient-thread-page.tsx')).PatientThreadPage,
  }),
};

/** Where a visitor who opens a visit's later screen goes: the visit's start. */
const visitStart = (params: Readonly<Params>) => paths.visit(params.category ?? '');

export const routes: RouteObject[] = [
  {
    element: <SiteLayout />,
    children: [
      {
        element: <RouteErrors />,
        children: [
          { path: paths.home, element: <HomePage /> },
          { path: paths.privacy, element: page(staticPage('privacy')) },
          { path: paths.terms, element: page(staticPage('terms')) },
          { path: paths.consentToTelehealth, element: page(staticPage('consent')) },
          { path: paths.faq, element: page(staticPage('faq')) },
          { path: paths.shop, element: page(storePages.shop) },
          { path: `${paths.shop}/:slug`, element: <ProductPage /> },
          {
            // A visitor's cart is this browser's; a customer's shows in the member area (spec §2).
            path: paths.cart,
            element: page(storePages.cartRoute),
            children: [{ index: true, element: page(storePages.cart) }],
          },
          {
            element: page(storePages.checkout),
            children: [
              { path: paths.checkoutShipping, element: page(storePages.shipping) },
              { path: paths.checkoutUpsell, element: page(storePages.upsell) },
              { path: paths.checkoutPayment, element: page(storePages.payment) },
            ],
          },
          { path: paths.checkoutComplete, element: page(storePages.complete) },
          { path: '/checkout', element: <Navigate to={paths.checkoutShipping} replace /> },
          {
            element: (
              <FeatureGate feature="login">
                <PublicOnlyRoute />
              </FeatureGate>
            ),
            children: [
              { path: paths.login, element: page(accountPages.login) },
              { path: paths.signup, element: page(accountPages.signup) },
              { path: paths.resetPassword, element: page(accountPages.resetPassword) },
              { path: paths.loginUnlock, element: page(accountPages.loginUnlock) },
            ],
          },
          { path: paths.logout, element: page(accountPages.logout) },
          // Open to anyone holding the link: its owner may no longer have a session.
          { path: paths.undoEmailChange, element: page(accountPages.undoEmailChange) },
          { path: paths.verifyEmail, element: page(accountPages.verifyEmail) },
          {
            element: <RequireAuth />,
            children: [
              {
                element: page(accountPages.layout),
                children: [
                  { path: paths.dashboard, element: page(accountPages.dashboard) },
                  { path: paths.messages, element: page(accountPages.messages) },
                  { path: paths.orders, element: page(accountPages.orders) },
                  {
                    path: `${paths.orders}/receipt/:orderNumber`,
                    element: page(accountPages.receipt),
                  },
                  {
                    path: `${paths.orders}/care-receipt/:orderNumber`,
                    element: page(accountPages.careReceipt),
                  },
                  { path: paths.subscriptions, element: page(accountPages.subscriptions) },
                  { path: paths.accounts, element: page(accountPages.accounts) },
                  { path: paths.editPaymentMethod, element: page(accountPages.editPaymentMethod) },
                  { path: paths.confirmPaymentPage, element: page(accountPages.confirmPayment) },
                  { path: paths.partner, element: page(accountPages.partner) },
                ],
              },
            ],
          },
          {
            // "Start your visit" opens to anyone: a visitor answers eligibility and creates the
            // account as a step of the visit; the screens after it need the session, and send a
            // visitor back to the start rather than to /login.
            path: '/visit/:category',
            element: page(visitPages.layout),
            children: [
              { index: true, element: page(visitPages.start) },
              { path: 'account', element: page(visitPages.account) },
              { path: 'ineligible', element: page(visitPages.ineligible) },
              {
                element: <RequireAuth visitorTo={visitStart} />,
                children: [
                  { path: 'eligibility', element: page(visitPages.eligibility) },
                  { path: 'questions', element: page(visitPages.questions) },
                  { path: 'answers', element: page(visitPages.answers) },
                  { path: 'preferences', element: page(visitPages.preferences) },
                  { path: 'photo', element: page(visitPages.photo) },
                  { path: 'consent', element: page(visitPages.consent) },
                  { path: 'checkout', element: page(visitPages.checkout) },
                  { path: 'submitted', element: page(visitPages.submitted) },
                  { path: 'send', element: page(visitPages.send) },
                  { path: 'not-a-fit', element: page(visitPages.notAFit) },
                ],
              },
              {
                // A renewal's e-mail link: a patient signed out signs in and comes back here.
                element: <RequireAuth />,
                children: [{ path: 'renew', element: page(visitPages.renew) }],
              },
              { path: '*', element: page(visitPages.notFound) },
            ],
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
  {
    element: <RouteErrors />,
    children: [
      { path: paths.staffLogin, element: page(staffPages.login) },
      { path: paths.staffLoginUnlock, element: page(staffPages.unlock) },
      {
        element: page(staffPages.layout),
        children: [
          { path: paths.staff, element: page(staffPages.home) },
          { path: `${paths.staff}/orders/:id`, element: page(staffPages.order) },
          { path: `${paths.staff}/visits/:id`, element: page(staffPages.visit) },
          { path: paths.staffInbox, element: page(staffPages.inbox) },
          { path: `${paths.staffInbox}/:id`, element: page(staffPages.thread) },
          { path: paths.staffOutbox, element: page(staffPages.outbox) },
          { path: paths.staffPharmacy, element: page(staffPages.pharmacy) },
          { path: paths.staffDashboard, element: page(staffPages.dashboard) },
          { path: paths.staffPatientMessages, element: page(staffPages.patientMessages) },
          {
            path: `${paths.staffPatientMessages}/:id`,
            element: page(staffPages.patientThread),
          },
        ],
      },
    ],
  },
];

/** The page for the address, from the table above (inside a BrowserRouter or MemoryRouter). */
export function AppRoutes() {
  return useRoutes(routes);
}
