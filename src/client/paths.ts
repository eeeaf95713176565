/**
 * Every route of the web app: the spec's (§2) and ours (DESIGN §6). Links are built from here so a
 * route changes in one place.
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
  logout: '/logout',
  dashboard: '/dashboard',
  messages: '/messages',
  orders: '/orders',
  subscriptions: '/subscriptions',
  accounts: '/accounts',
  editPaymentMethod: '/accounts/editPaymentMethod',
  visit: (category: string) => `/visit/${encodeURIComponent(category)}`,
  staff: '/staff',
  staffLogin: '/staff/login',
  staffOrder: (id: number | string) => `/staff/orders/${encodeURIComponent(String(id))}`,
  staffVisit: (id: number | string) => `/staff/visits/${encodeURIComponent(String(id))}`,
  privacy: '/privacy',
  terms: '/terms',
  consentToTelehealth: '/consent-to-telehealth',
  faq: '/faq',
} as const;
