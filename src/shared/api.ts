// zod/mini, not classic zod: every first visit reads the runtime configuration and error bodies
// (docs/decisions/007-measured-quality.md).
import * as z from 'zod/mini';

/**
 * The API contract: every call of spec §7 at its stated path (v1 under /lapi/, v2 commerce under
 * /lapi/v2/), and ours for what the spec leaves unshown, in the same style. Both sides import paths
 * from here; the server registers exactly these.
 */
export const API_PREFIX = '/lapi';

export const apiPaths = {
  // Catalogue (ours; GET so it can be cached)
  products: '/products/',
  product: '/products/:slug',

  // Accounts (spec §7)
  login: '/account/login/',
  logout: '/account/logout/',
  reset: '/account/reset/',
  passwordUpdate: '/account/passwordupdate/',
  /** Whether a reset link can still be used, asked before its form shows (ours). */
  passwordResetCheck: '/account/passwordupdate/check/',
  basics: '/account/basics',
  verifyAuthentication: '/account/verifyauthentication/',
  accountCreate: '/account/create/',
  accountData: '/account/data/',
  accountUpdate: '/account/update/',
  changePassword: '/account/password/',
  /** Log-in protection (ours, decision 004): the emailed link that lets a new device log in. */
  loginUnlock: '/account/login/unlock/',
  loginUnlockConfirm: '/account/login/unlock/confirm/',
  /** The link sent to the old address puts it back after an email change. */
  emailRestore: '/account/email/restore/',
  /** Issue 26: the emailed link that proves an address, and sending it again (ours). */
  emailVerify: '/account/email/verify/',
  emailVerifySend: '/account/email/verify/send/',
  sessions: '/account/sessions/',
  sessionsRevoke: '/account/sessions/revoke/',
  /** Log out one other device (ours). */
  sessionEnd: '/account/sessions/end/',
  address: '/account/address/',
  ccUpdate: '/account/ccupdate/',
  /** The card on file from Stripe's Payment Element: a payment method, never a card number (ours). */
  paymentMethodUpdate: '/account/payment-method/',
  /** "Confirm your payment": a renewal the bank refused until the customer confirms it (ours). */
  paymentConfirm: '/account/payment/confirm/',
  smsAuth: '/account/smsauth/',
  shipFrequency: '/account/shipfrequency/',
  subscriptions: '/account/subscriptions/',
  pendingOrders: '/account/pendingorders/',
  ordersDetails: '/account/orders/',
  /** One of the customer's orders by its number, on whatever page of the history it is (ours). */
  orderDetail: '/account/orders/detail/',
  patientData: '/leads/patientdata',
  startProgram: '/leads/startprogram',
  upsells: '/leads/upsells',
  /** Where a customer's store checkout has got to, and saving it (ours). */
  checkoutProgress: '/checkout/progress/',
  checkoutProgressSave: '/checkout/progress/save/',

  // Store (spec §7)
  clickCreate: '/click/create/',
  statesAllowed: '/click/statesallowed/',
  orderCreate: '/order/create/',
  couponCode: '/coupon/code',
  subscriptionUpdate: '/subscription/update/',

  // Telehealth (spec §7)
  productFrequency: '/product/frequency/',
  productDrug: '/product/drug/',
  productDosage: '/product/dosage/',
  hairPreferences: '/product/hair-preferences/',
  sleepPreferences: '/product/sleep-preferences/',
  visitEligibility: '/visit/eligibility/',
  /** A visitor's eligibility (state and age) before any account or visit exists (ours). */
  visitEligibilityCheck: '/visit/eligibility/check/',
  visitConsent: '/visit/consent/',
  visitCheckout: '/visit/checkout/',
  /** What the visit's checkout asks the patient to pay, and how refills renew (ours). */
  visitCheckoutSummary: '/visit/checkout/summary/',
  /** A closed visit (ineligible, not a fit): why, and what the patient can do instead (ours). */
  visitClosed: '/visit/closed/',
  /** The patient's closed visits Home tells them about (ours). */
  visitsClosed: '/visit/closed/list/',
  /** The patient confirms the answer that ends the visit (ours). */
  questionConfirmKnockout: '/visit/questions/confirm-knockout/',
  /** The questions the patient was shown, with their answers, before the next step (ours). */
  questionAnswers: '/visit/questions/answers/',
  /** Reopens one answered question from the review of answers (ours). */
  questionChange: '/visit/questions/change/',
  /** After a knock-out answer: a provider reads the answers as given (ours). */
  visitRequestReview: '/visit/request-review/',
  /** "Tell me when my state opens" (ours). */
  visitWaitlist: '/visit/waitlist/',
  visitVisitorWaitlist: '/visit/waitlist/visitor/',
  /** Issue 29: open (or resume) the renewal of a prescription running out (ours). */
  visitRenew: '/visit/renew/',
  /** Issue 29: send a renewal's answers to the provider (ours). */
  visitRenewSend: '/visit/renew/send/',
  /** Issue 29: a scalp photo for a Hair renewal, and the ones it has (ours). */
  visitRenewScalpPhoto: '/visit/renew/scalp-photo/',
  visitRenewScalpPhotos: '/visit/renew/scalp-photos/',
  /** Issue 29: a patient's requests between visits, and asking one (ours). */
  treatmentRequests: '/account/treatment-requests/',
  treatmentRequestCreate: '/account/treatment-requests/create/',
  /** Issue 29: the receipt of a visit's or a refill's order, for an HSA or FSA claim (ours). */
  careReceipt: '/account/orders/care-receipt/',
  /** Issue 29: a provider decides a request between visits (ours). */
  staffRequestDecide: '/staff/requests/decide/',
  staffVisits: '/staff/visits/',
  staffVisit: '/staff/visits/detail/',
  staffApprove: '/staff/visits/approve/',
  staffDecline: '/staff/visits/decline/',
  visitUpload: '/uploads/:id',
  doctor: '/doctor',
  riskAssessment: '/risk/assessment/',
  survey: '/survey/',
  feedback: '/feedback/',
  uploadImage: '/upload_image/',
  messagingGetAll: '/messaging/getall/',
  messagingGetRecent: '/messaging/getrecent/',
  messagingSend: '/messaging/send/',
  messagingRead: '/messaging/read/',
  /** One conversation a page at a time, for "Load earlier messages" (ours). */
  messagingThread: '/messaging/thread/',
  staffMessages: '/staff/messages/',
  staffMessageSend: '/staff/messages/send/',
  /** Operations staff answer the threads that are not about a visit. */
  staffInbox: '/staff/inbox/',
  staffInboxThread: '/staff/inbox/thread/',
  staffInboxReply: '/staff/inbox/reply/',
  /** Operations hand a thread to a provider (a clinical question asked as something else). */
  staffInboxHandOff: '/staff/inbox/hand-off/',
  /** Providers answer patients' clinical threads that are not about a visit. */
  staffPatientMessages: '/staff/patient-messages/',
  staffPatientThread: '/staff/patient-messages/thread/',
  staffPatientReply: '/staff/patient-messages/reply/',
  questionsGet: '/questionnaire/get_questions/',
  questionSave: '/questionnaire/save_question/',
  questionNext: '/questionnaire/get_next_question/',
  questionPrevious: '/questionnaire/get_previous_question/',
  v2QuestionNext: '/v2/questionnaire/next_question',
  v2QuestionPrevious: '/v2/questionnaire/previous_question',
  v2QuestionSubmit: '/v2/questionnaire/submit_question',

  // Staff console (ours)
  staffLogin: '/staff/login/',
  staffLoginUnlock: '/staff/login/unlock/',
  staffLoginUnlockConfirm: '/staff/login/unlock/confirm/',
  staffLogout: '/staff/logout/',
  staffMe: '/staff/me/',
  staffOrders: '/staff/orders/',
  staffOrder: '/staff/orders/detail/',
  staffShip: '/staff/orders/ship/',
  staffDeliver: '/staff/orders/deliver/',
  staffRefund: '/staff/orders/refund/',
  staffCancel: '/staff/orders/cancel/',
  /** Operations staff see email and text messages that could not be sent, and send them again. */
  staffOutbox: '/staff/outbox/',
  staffOutboxRetry: '/staff/outbox/retry/',
  /** Operations staff see the orders at the pharmacy that are not delivered yet (issue 29). */
  staffPharmacy: '/staff/pharmacy/',
  /** Operations staff see which offered states have a licensed provider. */
  staffCoverage: '/staff/coverage/',
  /** Operations staff see the last 30 days: orders, subscriptions, visits waiting, payments. */
  staffDashboard: '/staff/dashboard/',

  // Partners (ours, issue 16): linking two accounts and what each chooses to share
  partners: '/partners/',
  partnerInvite: '/partners/invite/',
  partnerInviteWithdraw: '/partners/invite/withdraw/',
  partnerInviteAccept: '/partners/invite/accept/',
  partnerInviteDecline: '/partners/invite/decline/',
  partnerUnlink: '/partners/unlink/',
  partnerSharing: '/partners/sharing/',
  /** What the linked partner chose to share with the caller, and nothing else. */
  partnerShared: '/partners/shared/',
  /** Invite the partner to start their own visit of a program the caller finished (issue 16). */
  partnerVisitInvite: '/partners/visit-invitation/',
  partnerVisitInviteDismiss: '/partners/visit-invitation/dismiss/',
  /** Gifts and couples' plans between partners (decision 018). */
  partnerTogether: '/partners/together/',
  partnerGift: '/partners/gift/',
  partnerPlan: '/partners/plan/',
  partnerTogetherAccept: '/partners/together/accept/',
  partnerTogetherDecline: '/partners/together/decline/',
  partnerTogetherCancel: '/partners/together/cancel/',
  partnerTogetherChange: '/partners/together/change/',
  partnerTogetherAddress: '/partners/together/address/',

  // v2 commerce (spec §7)
  v2Cart: '/v2/ecom/cart',
  v2AddProduct: '/v2/ecom/add-product',
  v2RemoveProduct: '/v2/ecom/remove-product',
  v2ApplyCoupon: '/v2/ecom/apply-coupon',
  v2UpdateCart: '/v2/ecom/update-cart',
  v2PlaceOrder: '/v2/ecom/place-order',
} as const;

export type ApiPath = (typeof apiPaths)[keyof typeof apiPaths];

/** `/lapi` + path, with `:param` segments filled in. */
export function apiUrl(path: ApiPath, params: Record<string, string> = {}): string {
  const filled = path.replace(/:([a-zA-Z]+)/g, (_, name: string) =>
    encodeURIComponent(params[name] ?? ''),
  );
  return `${API_PREFIX}${filled}`;
}

/**
 * The one error body every failure answers with, v1 and v2 alike: v1 reads `status` and `message`,
 * v2 reads `message`; `fields` carries per-field messages for forms.
 */
export const ErrorBodySchema = z.object({
  status: z.literal('FAILURE'),
  code: z.string(),
  message: z.string(),
  fields: z.optional(z.record(z.string(), z.string())),
  /**
   * With CARD_AUTHENTICATION: what the card processor's script must confirm in the browser (the
   * client secret of its intent). Nothing else ever rides here.
   */
  action: z.optional(z.object({ client_secret: z.string() })),
  requestId: z.optional(z.string()),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const HealthSchema = z.object({ status: z.literal('ok'), database: z.literal('ok') });

/** `/readyz`: this instance may be sent traffic (its database answers and is fully migrated). */
export const ReadySchema = z.object({
  status: z.literal('ready'),
  database: z.literal('ok'),
  migrations: z.literal('applied'),
});

/** What the server tells the browser at page load (feature flags, error reporting, version check). */
export const RuntimeConfigSchema = z.object({
  features: z.object({ login: z.boolean(), onlineVisit: z.boolean() }),
  sentryDsn: z.nullable(z.string()),
  /**
   * Who takes the cards (issue 28): the built-in simulator, whose forms take the spec's card
   * fields, or Stripe, whose Payment Element does (its script's address and the publishable key).
   */
  payments: z.discriminatedUnion('processor', [
    z.object({ processor: z.literal('simulator') }),
    z.object({
      processor: z.literal('stripe'),
      publishableKey: z.string(),
      scriptUrl: z.string(),
    }),
  ]),
  /** The operator's tag manager container (GTM_ID), or null for none (decision 020). */
  gtmId: z.nullable(z.string()),
  environment: z.string(),
  versionCheck: z.boolean(),
  version: z.string(),
});
export type RuntimeConfig = z.infer<typeof RuntimeConfigSchema>;
export type FeatureName = keyof RuntimeConfig['features'];
