/**
 * Every user-facing message the specification names (spec §5 and §8), word for word, plus the few
 * DESIGN.md adds. Both the server (validation, error bodies) and the client (forms, toasts) read them
 * from here so the wording cannot drift.
 */
export const messages = {
  fieldRequired: 'Field required',

  // Reset and password (spec §5)
  emailRequired: 'Email is required',
  invalidEmail: 'Invalid Email',
  passwordRequired: 'Password is required',
  passwordConfirmRequired: 'Password confirm is required',
  passwordsMustMatch: 'Passwords must match',
  // DESIGN §7 supersedes the spec's 6–16 rule on purpose (NIST SP 800-63B).
  passwordTooShort: 'Password must be at least 8 characters',
  passwordTooLong: 'Password must be at most 128 characters',
  passwordTooCommon: 'This password is too common. Please choose another.',
  passwordHoldsEmail: "Your password can't contain your email address.",

  // Card (spec §5)
  cardNumberRequired: 'Card number is required',
  cardNumberMax: 'Max 16 digits allowed',
  cardExpiryInvalid: 'Not a valid expiration date',
  cardCvvRequired: 'Card security code is Required',
  paymentConsent: 'Continue your payment by checking the box above',
  /** A payment method id from Stripe's card form that is missing or not one (issue 28). */
  cardEntryAgain: 'Please enter your card again.',
  /** The card came in the form this server no longer takes (simulator or Stripe switched). */
  cardEntryChanged: 'Our card form has changed. Please reload the page and enter your card again.',

  // Address (spec §5)
  zipInvalid: 'Invalid ZIP code format',

  // Signup (spec §5)
  visitConsent: 'Continue your online visit by checking the box above',
  /** A supplement order's sign-up: the terms a store customer agrees to (ours). */
  storeConsent: 'Agree to the Terms of Service and the Privacy Policy to continue',

  // Date of birth (spec §5)
  dobRequired: 'You must enter a date of birth.',
  dobFormat: 'Date format must be MM/DD/YYYY.',
  dobInvalid: 'Invalid date',
  dobMinAge: 'Minimum age is 19',
  dobMaxAge: 'Maximum age is 99',

  // Reset and password (spec §8)
  somethingWentWrong: 'Something went wrong.',
  /** A reset link opened after it was used or expired: said before any form (request mode). */
  resetLinkUsed: 'This link has already been used or has expired.',
  resetRequested:
    'If an account under that email address is found we will email you a password reset email',

  // Payment (spec §8)
  paymentFailureNotice:
    'We were unable to process this order using the provided payment information. Please update your credit card details to resolve this issue.',

  // Success toast (spec §8)
  accountUpdateTitle: 'Account update',
  accountUpdateContent: 'Account updated successfully',

  // Call failure messages (spec §8)
  eligibilityFailed: 'Failed to determine eligibility',
  productPreferencesFailed: 'Failed to save product preferences',
  addressFailed: 'Failed to save address.',
  subscriptionFailed: 'Failed to update subscription.',
  feedbackFailed: 'Failed to submit feedback. Please try again.',
  clickFailed: 'Failed to create click',
  patientDataMissing: 'Did not receive expected lead patient data',
  consultationFailed: 'Unable to start consultation, please try again later.',
  productsFailed: 'Unable to retrieve available products, please try again later.',
  questionsFailed: 'Failed to retrieve questions',
  previousQuestionFailed: 'Failed to retrieve previous question',
  submitQuestionFailed: 'Failed to submit question',
  saveQuestionFailed: 'Failed to save question',
  nextQuestionFailed: 'Failed to retrieve next question',

  // v2 commerce calls (spec §8)
  v2Failed: 'An error occurred, please try again later.',

  // Screens (spec §2)
  unexpectedError: 'Unexpected error',
  refreshPage: 'Refresh page',

  // Our own, for what the spec leaves unshown
  notFound: 'Not found',
  invalidRequest: 'Please check the highlighted fields.',
  internalError: 'Something went wrong on our side. Please try again in a moment.',
  serviceUnavailable: 'Pairwell is briefly unavailable. Please try again in a minute.',
  forbidden: 'You do not have access to this record.',
  unauthorized: 'Please log in to continue.',
  tooManyRequests: 'Too many attempts. Please wait a moment and try again.',
} as const;

export type MessageKey = keyof typeof messages;
