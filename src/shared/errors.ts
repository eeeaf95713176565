/**
 * Every error code the API answers with, and its HTTP status. The server's `AppError` takes only
 * these codes, each endpoint in `shared/<feature>.ts` lists the ones it can answer with, and the
 * browser can branch only on those (`failedWith` in `client/lib/api.ts`): a misspelt code does not
 * compile on either side. The OpenAPI document describes each endpoint's errors from the same list.
 */
export const errorStatus = {
  // Any call
  VALIDATION: 400,
  BAD_REQUEST: 400,
  /** A JSON body with a character no field accepts (a NUL, a lone surrogate). */
  INVALID_CHARACTER: 400,
  CROSS_SITE: 403,
  NOT_FOUND: 404,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_ATTEMPTS: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  DATABASE_UNAVAILABLE: 503,

  // Who is asking
  UNAUTHENTICATED: 401,
  STAFF_UNAUTHENTICATED: 401,
  FORBIDDEN: 403,

  // Accounts
  INVALID_CREDENTIALS: 401,
  LOGIN_LOCKED: 429,
  EMAIL_TAKEN: 409,
  WEAK_PASSWORD: 400,
  WRONG_PASSWORD: 400,
  CURRENT_PASSWORD_REQUIRED: 400,
  WRONG_CODE: 400,
  RESET_LINK_INVALID: 400,
  UNLOCK_LINK_INVALID: 400,
  EMAIL_UNDO_INVALID: 400,
  EMAIL_VERIFY_INVALID: 400,

  // Store
  EMPTY_CART: 400,
  QUANTITY: 400,
  COUPON_REFUSED: 400,
  NO_CARD: 400,
  CARD_DECLINED: 402,
  /**
   * The card's bank asks the customer to confirm (3-D Secure): the answer's `action` carries what
   * the processor's script confirms in the browser; the same request is then sent again.
   */
  CARD_AUTHENTICATION: 402,
  /** The card came in the other form than this server takes (the page is older than its setting). */
  CARD_ENTRY_CHANGED: 409,
  SHIPPING_STATE: 400,
  CHECKOUT_IN_PROGRESS: 409,
  CHECKOUT_INTERRUPTED: 409,
  SUBSCRIPTION_REFUSED: 400,
  SUBSCRIPTION_CHANGED: 409,

  // Online visits
  VISIT_STEP: 409,
  VISIT_CLOSED: 409,
  VISIT_BUSY: 409,
  VISIT_DECIDED: 409,
  /** The patient's state is offered, but no active provider is licensed there to review the visit. */
  STATE_NOT_COVERED: 409,
  /** A provider approving a visit whose order ships outside the state the patient was seen in. */
  SHIP_STATE_MISMATCH: 409,
  /** Issue 29: the provider's licence in the patient's state is past its last valid day. */
  LICENCE_EXPIRED: 403,
  NO_AUTHORIZATION: 409,
  /** Issue 29: a request of that kind about that refill plan is already waiting for a provider. */
  REQUEST_OPEN: 409,
  /** Issue 29: a provider decides a request another provider (or a second click) decided. */
  REQUEST_DECIDED: 409,
  CAPTURE_FAILED: 402,
  BAD_UPLOAD: 400,
  NOT_MULTIPART: 415,
  TOO_LARGE: 413,
  NOT_AN_IMAGE: 415,
  UNSUPPORTED_IMAGE: 415,

  // Messages
  MESSAGE_SENT: 409,
  MESSAGE_SENDING: 409,

  // Operations
  ORDER_STATE: 409,
  ORDER_CHANGED: 409,
  REFUND_TOO_LARGE: 400,
  REFUND_FAILED: 402,
  ALREADY: 409,

  // Partners
  /** The caller already has a partner: one at a time, until they unlink. */
  PARTNER_LINKED: 409,
  /** The invitation was withdrawn, declined, accepted or has expired. */
  INVITATION_CLOSED: 409,
  /** An order to ship to the partner, who is no longer linked or no longer shares an address. */
  PARTNER_ADDRESS_UNAVAILABLE: 409,
  /** A visit invitation of that program to the partner is already waiting for them. */
  VISIT_INVITATION_PENDING: 409,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof errorStatus;

/** What any call can answer with, whatever it declares: bad input, abuse, outages. */
export const anyCallErrors = [
  'VALIDATION',
  'BAD_REQUEST',
  'INVALID_CHARACTER',
  'CROSS_SITE',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'TOO_MANY_ATTEMPTS',
  'INTERNAL',
  'UNAVAILABLE',
] as const satisfies readonly ErrorCode[];

/** What the browser itself reports when no error body came back. */
export type TransportErrorCode = 'NETWORK' | 'HTTP' | 'BAD_RESPONSE';
