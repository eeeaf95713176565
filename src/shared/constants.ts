/** Business constants and limits of spec §9. */
export const limits = {
  clickRetries: 3,
  toastDurationMs: 5000,
  toastSwipeThresholdPx: 50,
  toastDragCloseRatio: 0.8,
  toastQueueDelayMs: 500,
  toastHotkey: 'F8',
  toastWidthPx: 350,
  resizeDebounceMs: 200,
  sidebarBreakpointPx: 1024,
  cartDrawerBreakpointPx: 920,
  cartDrawerWidthPx: 700,
  telehealthMobileBreakpointPx: 767,
  minAge: 19,
  maxAge: 99,
  passwordMin: 8,
  passwordMax: 128,
  cardNumberMax: 16,
  cardExpiryMax: 5,
  zipLength: 5,
  persistedStateTimeoutMs: 5000,
  errorReportingHistory: 20,
  offlineQueue: 100,
  noticeMax: 64000,
} as const;

export const analytics = {
  currency: 'USD',
  tax: 0,
  shipping: 0,
} as const;

/** Date display formats of spec §9 (date-fns tokens). */
export const dateFormats = {
  short: 'MM/dd/yyyy',
  medium: 'MMM dd, yyyy',
  long: 'MMMM dd, yyyy H:mm',
  full: 'yyyy-MM-dd H:mm:ss',
} as const;

/** Storage keys the browser keeps (spec §3 and §4). */
export const storageKeys = {
  cart: 'selectedProduct',
  persistedState: 'pairwell-state',
  leadsId: 'leads_id',
  clickId: 'click_id',
  returnPath: 'pairwell-return-path',
  /** A visitor's coupon, until it joins the account cart at log-in (session storage). */
  cartCoupon: 'pairwell-cart-coupon',
  /** The checkout's idempotency key: one order per checkout, whatever the retries (session storage). */
  checkoutKey: 'pairwell-checkout-key',
  /** The order just placed, for the confirmation page (session storage). */
  lastOrder: 'pairwell-last-order',
  /**
   * A visitor's eligible state and date of birth, from a visit's first screen until the account
   * made in it sends them to the visit (session storage only: health data never stays behind).
   */
  visitEligibility: 'pairwell-visit-eligibility',
  /** The visitor's answer to the tag manager's consent banner: 'granted' or 'denied' (decision 020). */
  analyticsConsent: 'pairwell-analytics-consent',
} as const;

/** Query-cache keys named by spec §7. */
export const cacheKeys = {
  cart: '/ecom/cart',
  patientData: '/leads/patientdata',
  accountData: '/account/data',
  catalog: '/products',
} as const;

/**
 * How soon a submitted visit should have a provider's decision. Patients are told "usually within
 * one business day" (shared/orders.ts); the operator's dashboard measures the visits waiting against
 * it in clock hours, so a visit left over a weekend shows as late — stricter than a business day,
 * on purpose: a weekend is when a queue is most often forgotten.
 */
export const REVIEW_TARGET_HOURS = 24;
