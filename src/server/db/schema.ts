import type { ColumnType, Generated } from 'kysely';
import type { OrderStatus } from '#shared/orders.ts';

/**
 * The database as Kysely sees it. Column names are snake_case; only `*.queries.ts` files and `db/`
 * read these types, and they map rows to our own camelCase shapes.
 *
 * Portable types only, so one set of migrations and queries runs on SQLite and PostgreSQL:
 * money in integer cents, booleans as 0/1 integers, instants as ISO-8601 UTC text (sortable).
 */
export interface ProductLinesTable {
  id: number;
  slug: string;
  name: string;
  summary: string;
  description: string;
  img: string;
  category: string;
  sort_order: number;
}

export interface ProductsTable {
  id: number;
  line_id: number;
  frequency: 'ONE_TIME' | 'MONTHLY' | 'QUARTERLY';
  price_cents: number;
  dose: string;
  quantity_supported: number;
  active: Generated<number>;
}

export interface CustomersTable {
  id: Generated<number>;
  leads_id: string;
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string;
  /** YYYY-MM-DD */
  dob: string;
  /** 10 digits */
  phone: string;
  phone_verified_at: string | null;
  /** When the customer last opened a link mailed to `email`; null until then (migration 0031). */
  email_verified_at: string | null;
  sms_allow: Generated<number>;
  clicks_id: string | null;
  /** The card processor's customer of this account (Stripe's cus_…; migration 0036). */
  gateway_customer_ref: string | null;
  created_at: string;
  updated_at: string;
}

export interface CustomerAddressesTable {
  id: Generated<number>;
  customer_id: number;
  kind: 'shipping' | 'billing';
  address: string;
  address2: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  updated_at: string;
}

export interface PaymentMethodsTable {
  id: Generated<number>;
  customer_id: number;
  gateway_token: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  updated_at: string;
}

export interface SessionsTable {
  token_hash: string;
  public_id: string;
  customer_id: number;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  user_agent: string;
  /** The masked network the session logged in from (migration 0022); null before it. */
  network: string | null;
}

export interface PasswordResetsTable {
  token_hash: string;
  customer_id: number;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface SmsCodesTable {
  customer_id: number;
  code_hash: string;
  phone: string;
  attempts: number;
  expires_at: string;
}

export interface RateLimitsTable {
  key: string;
  window_start: string;
  count: number;
}

export interface OrdersTable {
  id: Generated<number>;
  order_number: string;
  customer_id: number;
  kind: 'store' | 'renewal' | 'visit';
  status: OrderStatus;
  payment_status: string;
  subtotal_cents: number;
  discount_cents: number;
  total_cents: number;
  refund_cents: Generated<number>;
  /** Refunds asked of the gateway and not yet answered (migration 0016). */
  refund_reserved_cents: Generated<number>;
  coupon_code: string | null;
  tracking_number: string | null;
  decline_reason: string | null;
  ship_address: string;
  ship_address2: string;
  ship_city: string;
  ship_state: string;
  ship_zip: string;
  ship_country: string;
  click_id: string | null;
  idempotency_key: string | null;
  charge_id: string | null;
  subscription_id: number | null;
  /** The subscription period (its billing date) a renewal order pays for. */
  billing_period: string | null;
  payment_attempts: Generated<number>;
  next_retry_at: string | null;
  payment_failure: string | null;
  /** The payment the customer can confirm with their bank for this unpaid order (migration 0036). */
  payment_confirmation_ref: string | null;
  shipped_at: string | null;
  delivered_at: string | null;
  /** The customer's partner the order ships to (migration 0025); null: their own address. */
  ship_to_partner_id: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: string;
  updated_at: string;
}

export interface OrderItemsTable {
  id: Generated<number>;
  order_id: number;
  product_id: number;
  product_name: string;
  product_image: string;
  category: string;
  frequency: string;
  unit_price_cents: number;
  quantity: number;
}

export interface CartsTable {
  customer_id: number;
  coupon_code: string | null;
  checkout_key: string | null;
  /** When `checkout_key` claimed the cart (migration 0016). */
  checkout_claimed_at: string | null;
  updated_at: string;
}

export interface CartItemsTable {
  customer_id: number;
  product_id: number;
  quantity: number;
  added_at: string;
}

export interface CouponsTable {
  code: string;
  description: string;
  kind: 'percent' | 'fixed';
  /** Percent (1–100) or cents. */
  value: number;
  min_subtotal_cents: number | null;
  expires_at: string | null;
  usage_limit: number | null;
  used_count: Generated<number>;
  first_order_only: Generated<number>;
  active: Generated<number>;
}

export interface ClicksTable {
  id: string;
  /** JSON of the query parameters (a, c1, s1–s5, campaigns_id, token). */
  params: string;
  url: string;
  referrer: string | null;
  user_agent: string;
  device_type: string;
  ip_address: string;
  created_at: string;
}

export interface SubscriptionsTable {
  id: Generated<number>;
  customer_id: number;
  /** The catalogue offer; null for a prescription refill. */
  product_id: number | null;
  frequency: 'MONTHLY' | 'QUARTERLY';
  quantity: number;
  unit_price_cents: number;
  status: 'ACTIVE' | 'PAUSED' | 'PAST_DUE' | 'CANCELLED' | 'COMPLETED';
  /** YYYY-MM-DD */
  next_billing_date: string;
  paused_until: string | null;
  cancelled_at: string | null;
  cancel_reason: string | null;
  created_order_id: number | null;
  billing_anchor_day: number;
  created_at: string;
  updated_at: string;
  /** Refills only: the prescription, fills left, the last day one may bill, and the line sold. */
  prescription_id: number | null;
  refills_remaining: number | null;
  refill_until: string | null;
  item_name: string | null;
  item_image: string | null;
  item_category: string | null;
  /** A gift (migration 0026): who receives it, and which of their addresses it ships to. */
  recipient_id: number | null;
  ship_to: 'shipping' | 'billing' | null;
  /** A couples' plan (migration 0026): the partner's line, delivered and charged with this one. */
  plan_partner_id: number | null;
  plan_partner_product_id: number | null;
  plan_partner_quantity: number | null;
  /** YYYY-MM-DD: where the last paid period moved the billing date (migration 0030). */
  paid_through: string | null;
}

export interface SimulatorChargesTable {
  id: string;
  idempotency_key: string;
  token: string;
  amount_cents: number;
  status: 'succeeded' | 'failed' | 'authorized' | 'released';
  failure_message: string | null;
  /** How much of the charge the simulator has refunded (migration 0016). */
  refunded_cents: Generated<number>;
  created_at: string;
}

export interface StaffUsersTable {
  id: Generated<number>;
  email: string;
  name: string;
  role: 'provider' | 'operations';
  password_hash: string;
  totp_secret: string;
  totp_last_step: Generated<number>;
  licensed_states: Generated<string>;
  active: Generated<number>;
  created_at: string;
  /** The prescriber's National Provider Identifier (migration 0037); null for operations staff. */
  npi: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A prescriber's licence in one state (migration 0037). */
export interface StaffLicencesTable {
  staff_id: number;
  state: string;
  number: string;
  /** YYYY-MM-DD: the last day it is valid. */
  expires_on: string;
}

export type PharmacyMessageKind = 'NewRx' | 'Refill' | 'CancelRx';

/** What we send the pharmacy, written where it is decided and sent by a job (migration 0037). */
export interface PharmacyMessagesTable {
  id: Generated<number>;
  /** The idempotency key the pharmacy sees: `newrx:<prescription>`, `refill:<order>`, `cancelrx:<prescription>`. */
  message_key: string;
  kind: PharmacyMessageKind;
  order_id: number | null;
  prescription_id: number;
  customer_id: number;
  visit_id: number;
  /** JSON, as the pharmacy receives it. */
  payload: string;
  status: Generated<'pending' | 'sent' | 'failed'>;
  attempts: Generated<number>;
  next_attempt_at: string;
  claimed_until: string | null;
  pharmacy_ref: string | null;
  last_error: string | null;
  sent_at: string | null;
  created_at: string;
  /** When the pharmacy rejected it (migration 0039): a provider's task until closed. */
  rejected_at: string | null;
  /** When, and by which provider, the patient was written to about the rejection. */
  rejection_closed_at: string | null;
  rejection_closed_by: number | null;
}

/** The pharmacy's callbacks, by their id: a repeated one is applied once (migration 0037). */
export interface PharmacyEventsTable {
  event_id: string;
  message_key: string;
  type: string;
  occurred_at: string;
  received_at: string;
}

/** One step of an order's medicine at the pharmacy (migration 0037). */
export interface OrderPharmacyStepsTable {
  order_id: number;
  step: 'sent' | 'received' | 'filled' | 'shipped' | 'delivered' | 'rejected';
  at: string;
  detail: string | null;
}

/** The built-in pharmacy's book (migration 0037). */
export interface SimulatorPharmacyTable {
  message_key: string;
  kind: PharmacyMessageKind;
  payload: string;
  accepted_at: string;
  steps_sent: Generated<number>;
  /** When its next callback is due; null once it has made them all. */
  next_step_at: string | null;
  cancelled_at: string | null;
}

export interface StaffSessionsTable {
  token_hash: string;
  staff_id: number;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

export interface AuditLogTable {
  id: Generated<number>;
  staff_id: number;
  action: string;
  subject_type: string;
  subject_id: string | null;
  customer_id: number | null;
  ip_address: string;
  at: string;
}

export interface SimulatorRefundsTable {
  id: string;
  idempotency_key: string;
  charge_id: string;
  amount_cents: number;
  created_at: string;
}

export interface VisitsTable {
  id: Generated<number>;
  customer_id: number;
  category: 'ed' | 'sleep' | 'hair';
  status:
    | 'IN_PROGRESS'
    | 'INELIGIBLE'
    | 'DISQUALIFIED'
    | 'PENDING_REVIEW'
    | 'APPROVED'
    | 'DECLINED'
    | 'CANCELLED';
  step: 'eligibility' | 'questions' | 'preferences' | 'photo' | 'consent' | 'checkout';
  questionnaire_id: string;
  questionnaire_version: string;
  current_link_id: string | null;
  state: string | null;
  dob: string | null;
  closed_reason: string | null;
  /** JSON: drug, dosage, frequency and program preferences. */
  preferences: Generated<string>;
  consent_at: string | null;
  provider_id: number | null;
  order_id: number | null;
  submitted_at: string | null;
  photo_upload_id: number | null;
  /** Set when the patient, closed out by a knock-out answer, asked a provider to review it. */
  review_requested_at: string | null;
  created_at: string;
  updated_at: string;
  /** A first visit, or the short one that renews a prescription (migration 0038). */
  kind: Generated<'intake' | 'renewal'>;
  /** A renewal's prescription, whose refill plan its approval continues. */
  renews_prescription_id: number | null;
}

/** A patient waiting for online visits to open in their state; told once (`notified_at`). */
export interface StateWaitlistTable {
  id: Generated<number>;
  customer_id: number;
  state: string;
  created_at: string;
  notified_at: string | null;
}

/** A visitor's address, told once when online visits open in the state (migration 0040). */
export interface VisitorWaitlistTable {
  id: Generated<number>;
  /** Lower-cased. */
  email: string;
  state: string;
  created_at: string;
}

/** A renewal announced to its subscriber: once per subscription and billing period. */
export interface RenewalRemindersTable {
  id: Generated<number>;
  subscription_id: number;
  /** The billing date (YYYY-MM-DD) the reminder announced. */
  billing_period: string;
  sent_at: string;
}

export interface VisitAnswersTable {
  visit_id: number;
  link_id: string;
  /** JSON of the answer value. */
  value: string;
  answered_at: string;
}

export interface UploadsTable {
  id: Generated<number>;
  customer_id: number;
  visit_id: number | null;
  /** A photo ID (an identity check) or a scalp photo of a Hair renewal (migration 0042). */
  kind: 'photo_id' | 'scalp_photo';
  /** Which part of the scalp a scalp photo shows; null for a photo ID. */
  view: 'top' | 'front' | 'crown' | null;
  mime_type: string;
  size_bytes: number;
  stored_name: string;
  /** Opaque (random) id that URLs name; null only for rows no migration has reached. */
  public_id: string | null;
  created_at: string;
}

export interface PrescriptionsTable {
  id: Generated<number>;
  visit_id: number;
  customer_id: number;
  provider_id: number;
  drug: string;
  dosage: string;
  quantity: number;
  refills: number;
  valid_until: string;
  created_at: string;
  /** The provider's directions (sig); null on prescriptions written before they were asked for. */
  directions: string | null;
  /** When the patient was e-mailed that it is due for renewal (migration 0038); once. */
  renewal_reminded_at: string | null;
  /**
   * The request whose decision wrote it (a dose change, migration 0041); null for the prescription
   * of its visit. Either way `visit_id` is the visit that began the care, whose chart it is on.
   */
  request_id: number | null;
}

/** A patient's request between visits and its decision (migration 0041, decision 024). */
export interface TreatmentRequestsTable {
  id: Generated<number>;
  customer_id: number;
  subscription_id: number;
  prescription_id: number;
  thread_id: number;
  kind: 'early_refill' | 'dose_change' | 'side_effect';
  reason: string;
  status: Generated<'OPEN' | 'APPROVED' | 'DECLINED' | 'ANSWERED'>;
  created_at: string;
  decided_at: string | null;
  decided_by: number | null;
  outcome: 'refill_date' | 'new_prescription' | 'decline' | 'answer' | null;
  refill_date: string | null;
  new_prescription_id: number | null;
}

export interface MessageThreadsTable {
  id: Generated<number>;
  customer_id: number;
  visit_id: number | null;
  order_id: number | null;
  subject: string;
  /** What the patient said it is about; `treatment` is clinical (a provider answers). */
  topic: Generated<'treatment' | 'order' | 'other'>;
  /** A clinical thread's provider; null while it is open to every provider licensed in the state. */
  provider_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface MessagesTable {
  id: Generated<number>;
  thread_id: number;
  sender: 'patient' | 'care_team';
  staff_id: number | null;
  body: string;
  created_at: string;
  /** When the other side read it. */
  read_at: string | null;
}

export interface FeedbackTable {
  id: Generated<number>;
  customer_id: number;
  visit_id: number | null;
  kind: 'survey' | 'feedback';
  rating: number | null;
  would_recommend: number | null;
  comments: string | null;
  created_at: string;
}

/** An email or text message waiting to be sent, being sent, sent or given up on (migration 0014). */
export interface OutboxMessagesTable {
  id: Generated<number>;
  kind: 'email' | 'sms';
  message_id: string;
  recipient: string;
  subject: string;
  /** Emptied once sent: a sent message keeps its envelope, not its words. */
  text: string;
  html: string | null;
  secret_purpose: string | null;
  secret_ref: string | null;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  next_attempt_at: string;
  claimed_until: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

/** A browser that has logged in to an account; `account` is `customer:<id>` or `staff:<id>`. */
export interface KnownDevicesTable {
  token_hash: string;
  account: string;
  created_at: string;
  last_login_at: string;
  expires_at: string;
}

/** A one-time link that lets a new browser log in while an account's log-in is limited. */
export interface LoginUnlocksTable {
  token_hash: string;
  account: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A one-time link, sent to the old address, that undoes an email change. */
export interface EmailChangeUndosTable {
  id: Generated<number>;
  /** Null until the notice is sent and its token minted. */
  token_hash: string | null;
  customer_id: number;
  old_email: string;
  new_email: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A one-time link, mailed to `email`, that proves the customer reads it (migration 0031). */
export interface EmailVerificationsTable {
  id: Generated<number>;
  /** Null until the email is sent and its token minted. */
  token_hash: string | null;
  customer_id: number;
  /** The account's address, or the new one an email change waits to switch to. */
  email: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A Stripe event, written down by id before it is handled (migration 0035, issue 28). */
export interface StripeEventsTable {
  id: string;
  type: string;
  created: string;
  received_at: string;
  handled_at: string | null;
}

/** A card holder's dispute of an order's payment, as Stripe's events tell it (migration 0035). */
export interface PaymentDisputesTable {
  id: string;
  order_id: number;
  payment_ref: string;
  amount_cents: number;
  reason: string;
  status: string;
  evidence_due_by: string | null;
  opened_at: string;
  closed_at: string | null;
  event_created: string;
}

/** An issuer's early fraud warning on an order's payment (Stripe Radar, migration 0035). */
export interface PaymentFraudWarningsTable {
  id: string;
  order_id: number;
  payment_ref: string;
  fraud_type: string;
  actionable: number;
  warned_at: string;
}

/** One gateway call, written before it is made and settled after (migration 0016, decision 012). */
export interface PaymentLedgerTable {
  id: Generated<number>;
  operation: 'charge' | 'authorize' | 'capture' | 'release' | 'refund';
  purpose: string;
  idempotency_key: string;
  order_id: number | null;
  visit_id: number | null;
  subscription_id: number | null;
  billing_period: string | null;
  amount_cents: number;
  status: 'started' | 'succeeded' | 'failed';
  source_ref: string | null;
  gateway_ref: string | null;
  failure: string | null;
  staff_id: number | null;
  staff_ip: string | null;
  details: string | null;
  claimed_until: string | null;
  /** A payment waiting for the customer's 3-D Secure on the page, until then (migration 0036). */
  awaiting_customer_until: string | null;
  reconcile_attempts: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** Where a customer's store checkout has got to (migration 0021). */
export interface CheckoutProgressTable {
  customer_id: number;
  step: 'shipping' | 'upsell' | 'payment';
  /** The shipping address and phone, as JSON (PlaceOrder `shipping`). */
  shipping: string;
  updated_at: string;
}

/** One row per partner of a link: what `customer_id` shares with `partner_id` (0/1 each). */
export interface PartnerLinksTable {
  customer_id: number;
  partner_id: number;
  linked_at: string;
  share_address: Generated<number>;
  share_orders: Generated<number>;
  share_subscriptions: Generated<number>;
}

export interface PartnerInvitationsTable {
  id: Generated<number>;
  inviter_id: number;
  email: string;
  token_hash: string | null;
  /** `closed`: its invitee linked with someone else; its inviter is not told (decision 016). */
  status: 'pending' | 'accepted' | 'declined' | 'withdrawn' | 'closed';
  created_at: string;
  expires_at: string;
  answered_at: string | null;
}

export interface PartnerEventsTable {
  id: Generated<number>;
  customer_id: number;
  kind: string;
  item: string | null;
  counterpart: string;
  quiet: Generated<number>;
  at: string;
  /** The program a visit invitation's line is about (migration 0025). */
  program: string | null;
}

/** An invitation to start a visit of a program, from one partner to the other (migration 0025). */
export interface PartnerVisitInvitationsTable {
  id: Generated<number>;
  inviter_id: number;
  invitee_id: number;
  program: 'ed' | 'sleep' | 'hair';
  reveal_started: Generated<number>;
  /**
   * `started`: only in rows from before issue 26, when the invitee's starting a visit answered it;
   * now only the invitee's dismissal or the link's end closes one (decision 016).
   */
  status: 'pending' | 'dismissed' | 'ended' | 'started';
  created_at: string;
  closed_at: string | null;
}

/**
 * A gift or couples' plan one partner proposes and the other answers (decision 018; named
 * `partner_offers` until migration 0034).
 */
export interface TogetherItemsTable {
  id: Generated<number>;
  kind: 'gift' | 'plan';
  /** The payer: who gives the gift, or who starts the plan and pays for both lines. */
  from_id: number;
  /** Who answers it: the gift's recipient, or the plan's partner. */
  to_id: number;
  product_id: number;
  quantity: number;
  /** A plan only: the partner's line. */
  partner_product_id: number | null;
  partner_quantity: number | null;
  status: 'pending' | 'accepted' | 'declined' | 'withdrawn' | 'closed';
  subscription_id: number | null;
  created_at: string;
  answered_at: string | null;
}

/**
 * A version of each customer's own data, raised by triggers whenever a row a member answer reads
 * changes (migration 0028); no row yet reads as version 0.
 */
export interface CustomerVersionsTable {
  customer_id: number;
  version: number;
}

/** One row (id 1): the catalogue's version, raised on every write to it (migration 0029). */
export interface CatalogVersionTable {
  id: number;
  version: number;
}

export interface Database {
  product_lines: ProductLinesTable;
  products: ProductsTable;
  customers: CustomersTable;
  customer_addresses: CustomerAddressesTable;
  payment_methods: PaymentMethodsTable;
  sessions: SessionsTable;
  password_resets: PasswordResetsTable;
  sms_codes: SmsCodesTable;
  rate_limits: RateLimitsTable;
  orders: OrdersTable;
  order_items: OrderItemsTable;
  carts: CartsTable;
  cart_items: CartItemsTable;
  coupons: CouponsTable;
  clicks: ClicksTable;
  subscriptions: SubscriptionsTable;
  simulator_charges: SimulatorChargesTable;
  staff_users: StaffUsersTable;
  staff_sessions: StaffSessionsTable;
  audit_log: AuditLogTable;
  simulator_refunds: SimulatorRefundsTable;
  visits: VisitsTable;
  visit_answers: VisitAnswersTable;
  uploads: UploadsTable;
  prescriptions: PrescriptionsTable;
  message_threads: MessageThreadsTable;
  messages: MessagesTable;
  feedback: FeedbackTable;
  payment_ledger: PaymentLedgerTable;
  outbox_messages: OutboxMessagesTable;
  known_devices: KnownDevicesTable;
  login_unlocks: LoginUnlocksTable;
  email_change_undos: EmailChangeUndosTable;
  email_verifications: EmailVerificationsTable;
  checkout_progress: CheckoutProgressTable;
  state_waitlist: StateWaitlistTable;
  visitor_waitlist: VisitorWaitlistTable;
  treatment_requests: TreatmentRequestsTable;
  renewal_reminders: RenewalRemindersTable;
  partner_links: PartnerLinksTable;
  partner_invitations: PartnerInvitationsTable;
  partner_events: PartnerEventsTable;
  partner_visit_invitations: PartnerVisitInvitationsTable;
  together_items: TogetherItemsTable;
  customer_versions: CustomerVersionsTable;
  catalog_version: CatalogVersionTable;
  stripe_events: StripeEventsTable;
  payment_disputes: PaymentDisputesTable;
  payment_fraud_warnings: PaymentFraudWarningsTable;
  staff_licences: StaffLicencesTable;
  pharmacy_messages: PharmacyMessagesTable;
  pharmacy_events: PharmacyEventsTable;
  order_pharmacy_steps: OrderPharmacyStepsTable;
  simulator_pharmacy: SimulatorPharmacyTable;
}
