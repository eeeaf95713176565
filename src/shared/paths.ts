/** The screens of an online visit, below `/visit/:category` (the index starts or resumes it). */
export type VisitScreen =
  | 'eligibility'
  | 'account'
  | 'questions'
  | 'answers'
  | 'preferences'
  | 'photo'
  | 'consent'
  | 'checkout'
  | 'renew'
  | 'send'
  | 'submitted'
  | 'ineligible'
  | 'not-a-fit';

/**
 * Every route of the web app: the spec's (§2) and ours (DESIGN §6). Links are built from here, by
 * the pages and by the server (visit destinations, the links in emails), so a route changes in one
 * place.
 */
export const paths = {
  home: '/',
  shop: '/shop',
  product: (slug: string) => `/shop/${encodeURIComponent(slug)}`,
  cart: '/cart',
  checkoutShipping: '/checkout/shipping',
  checkoutUpsell: '/checkout/upsell',
  checkoutPayment: '/checkout/payment',
  checkoutComplete: '/checkout/complete',
  login: '/login',
  signup: '/signup',
  resetPassword: '/reset-password',
  /** The emailed link that lets a new device log in while an account is paused (decision 004). */
  loginUnlock: '/login/unlock',
  /** The link emailed to the old address after an email change. */
  undoEmailChange: '/undo-email-change',
  /** The link that proves an email address: at sign-up, on request, or for an email change. */
  verifyEmail: '/verify-email',
  logout: '/logout',
  dashboard: '/dashboard',
  messages: '/messages',
  /** One conversation on the Messages page. */
  messageThread: (id: number) => `/messages?thread=${id}`,
  orders: '/orders',
  /** One order on the Orders page: the page scrolls to the order its hash names. */
  order: (orderNumber: string) => `/orders#${encodeURIComponent(orderNumber)}`,
  /** A store order's printable receipt. */
  orderReceipt: (orderNumber: string) => `/orders/receipt/${encodeURIComponent(orderNumber)}`,
  /** A visit's or a refill's printable receipt, for an HSA or FSA claim (issue 29). */
  careReceipt: (orderNumber: string) => `/orders/care-receipt/${encodeURIComponent(orderNumber)}`,
  subscriptions: '/subscriptions',
  accounts: '/accounts',
  editPaymentMethod: '/accounts/editPaymentMethod',
  /** "Confirm your payment": a renewal the bank wants the customer to confirm (issue 28). */
  confirmPaymentPage: '/accounts/confirm-payment',
  confirmPayment: (orderNumber: string) =>
    `/accounts/confirm-payment?order=${encodeURIComponent(orderNumber)}`,
  /** Linking with a partner and choosing what they see (issue 16). */
  partner: '/accounts/partner',
  visit: (category: string) => `/visit/${encodeURIComponent(category)}`,
  visitScreen: (category: string, screen: VisitScreen) =>
    `/visit/${encodeURIComponent(category)}/${screen}`,
  staff: '/staff',
  staffLogin: '/staff/login',
  staffLoginUnlock: '/staff/login/unlock',
  staffOrder: (id: number | string) => `/staff/orders/${encodeURIComponent(String(id))}`,
  staffVisit: (id: number | string) => `/staff/visits/${encodeURIComponent(String(id))}`,
  staffInbox: '/staff/inbox',
  staffOutbox: '/staff/outbox',
  staffPharmacy: '/staff/pharmacy',
  staffDashboard: '/staff/dashboard',
  staffThread: (id: number | string) => `/staff/inbox/${encodeURIComponent(String(id))}`,
  /** A provider's patient messages: clinical questions not about a visit. */
  staffPatientMessages: '/staff/patient-messages',
  staffPatientThread: (id: number | string) =>
    `/staff/patient-messages/${encodeURIComponent(String(id))}`,
  privacy: '/privacy',
  terms: '/terms',
  consentToTelehealth: '/consent-to-telehealth',
  faq: '/faq',
} as const;
