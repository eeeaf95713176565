import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStaff } from '#server/db/seed-demo.ts';
import { latestQuestionnaire } from '#shared/questionnaires/registry.ts';
import { buildTestApp, testDialect, type TestApp } from '#test/app.ts';
import { databaseState } from '#test/database.ts';
import {
  buildPlaceOrder,
  insertCustomer,
  multipartBody,
  post,
  staffCookie,
  type TestCustomer,
} from '#test/factories.ts';
import { completeQuestions, edVisitAtCheckout, jpegWithGps, safeAnswer } from '#test/visits.ts';
import { offers } from '#shared/catalog.ts';

/**
 * DESIGN §7: every record a customer can name is checked against the session's customer, and staff
 * reach patients' records only through the console. Each row is one endpoint and the record it
 * names, called by the record's owner, by another customer, by a visitor and by staff (the console
 * session alone). Where a cell says `no`, the answer must be exactly what the same caller gets for a
 * record that does not exist (so it confirms nothing), must carry none of the owner's details, and
 * must change nothing.
 */

/**
 * `partner` is a customer linked to the owner as their partner (issue 16), with every sharing
 * switch on: sharing reaches only the partner endpoints, so on every id-bearing row a partner gets
 * exactly what any other customer gets.
 */
type Caller = 'owner' | 'other' | 'partner' | 'visitor' | 'staff';
type Cell = 'ok' | 'no';

/** The records the rows name; each belongs to the owner. */
interface Records {
  leads: string;
  subscription: number;
  thread: number;
  /** A question about the owner's treatment: their visit's provider's to answer. */
  clinicalThread: number;
  /** A thread of the care team's that operations hand to a provider. */
  handOffThread: number;
  /** The submitted visit's photo ID, by its opaque id. */
  upload: string;
  /** An ED visit at its last step before checkout: the rows walk it, submit it, decline it. */
  visit: number;
  /** A hair visit and a sleep visit with their questions answered. */
  hairVisit: number;
  sleepVisit: number;
  /** An ED visit submitted and waiting for a provider. */
  submittedVisit: number;
  order: number;
  orderToCancel: number;
  /** The partner's invitation to the owner to start a visit (issue 16): the owner's to answer. */
  visitInvitation: number;
  /** The partner's gift subscription to the owner, waiting for the owner's answer. */
  waitingGift: number;
}
type RecordName = keyof Records;

/** What goes in the request: the record's id (or a made-up one) and a leads_id to send with it. */
interface Target {
  id: number;
  /** The photo ID's opaque id (or a made-up one). */
  uploadKey: string;
  leadsId: string;
  /** The owner's email (an account update sends it back unchanged). */
  email: string;
}

interface Row {
  endpoint: string;
  record: RecordName;
  request: (x: Target) => InjectOptions;
  owner: Cell;
  other: Cell;
  partner: Cell;
  visitor: Cell;
  staff: Cell;
}

const GHOST_ID = 987_654_321;
const GHOST_LEADS = 'Lnobody000000000';
const GHOST_UPLOAD = 'AAAAAAAAAAAAAAAAAAAAAA';

const json =
  (url: string, body: (x: Target) => Record<string, unknown>) =>
  (x: Target): InjectOptions => ({ method: 'POST', url: `/lapi${url}`, payload: body(x) });

// The first question the patient answers (the age the visit knows is not one).
const firstSleepItem = latestQuestionnaire('sleep').items.find(
  (i) => i.type !== 'display' && !i.known,
)!;
const leadsOnly = (url: string) => json(url, (x) => ({ leads_id: x.leadsId }));
const visitCall = (url: string, extra: Record<string, unknown> = {}) =>
  json(url, (x) => ({ visit_id: x.id, ...extra }));
const shipping = {
  address: '5 Oak St',
  address2: '',
  city: 'Portland',
  state: 'OR',
  zip: '97201',
  phoneNo: '5035550142',
};
const card = { method: 'card', ccnum: '4242 4242 4242 4242', ccexp: '12/30', cccvv: '123' };

const addresses = {
  address: '12 Elm St',
  address2: '',
  city: 'Portland',
  state: 'OR',
  zip: '97204',
  billing_address: '12 Elm St',
  billing_address2: '',
  billing_city: 'Portland',
  billing_state: 'OR',
  billing_zip: '97204',
  phoneNo: '5035550177',
  smsallow: 0,
};

// Filled in beforeAll, once the app (and its clock) exist.
let validUntil = '';
/** The number of the owner's `order`, which `/account/orders/detail/` names it by. */
let ownerOrderNumber = '';
let demoProviderId = 0;
function prescription() {
  return {
    drug: 'sildenafil',
    dosage: '50mg',
    quantity: 6,
    refills: 2,
    valid_until: validUntil,
    directions: 'Take one tablet about an hour before, no more than once a day.',
  };
}

// prettier-ignore
const matrix: Row[] = [
  // Customer calls: only the owner.             record           request                                                                                    owner  other  partner visitor staff
  row('account/data',                            'leads',          leadsOnly('/account/data/'),                                                              'ok',  'no',  'no',  'no',   'no'),
  row('leads/patientdata',                       'leads',          leadsOnly('/leads/patientdata'),                                                          'ok',  'no',  'no',  'no',   'no'),
  row('account/orders',                          'leads',          leadsOnly('/account/orders/'),                                                            'ok',  'no',  'no',  'no',   'no'),
  row('account/orders/detail',                   'order',          json('/account/orders/detail/', (x) => ({ leads_id: x.leadsId, order_number: x.id === GHOST_ID ? 'PW-GHOST' : ownerOrderNumber })), 'ok', 'no', 'no', 'no', 'no'),
  row('account/subscriptions',                   'leads',          leadsOnly('/account/subscriptions/'),                                                     'ok',  'no',  'no',  'no',   'no'),
  row('account/pendingorders',                   'leads',          leadsOnly('/account/pendingorders/'),                                                     'ok',  'no',  'no',  'no',   'no'),
  row('messaging/getall',                        'leads',          leadsOnly('/messaging/getall/'),                                                          'ok',  'no',  'no',  'no',   'no'),
  row('messaging/getrecent',                     'leads',          leadsOnly('/messaging/getrecent/'),                                                       'ok',  'no',  'no',  'no',   'no'),
  row('account/update',                          'leads',          json('/account/update/', (x) => ({ leads_id: x.leadsId, prospect: { first_name: 'Ownerfirst', last_name: 'Ownerlast', email: x.email, phoneNo: '5035550177', dob: '04/12/1990' } })),         'ok',  'no',  'no',  'no',   'no'),
  row('account/address',                         'leads',          json('/account/address/', (x) => ({ leads_id: x.leadsId, ...addresses })), 'ok', 'no', 'no', 'no', 'no'),
  row('leads/startprogram',                      'leads',          json('/leads/startprogram', (x) => ({ leads_id: x.leadsId, new_category: 'ed' })),       'ok',  'no',  'no',  'no',   'no'),
  row('subscription/update (preview)',           'subscription',   json('/subscription/update/', (x) => ({ leads_id: x.leadsId, subscription_id: x.id, change: { action: 'skip' }, preview: true })), 'ok', 'no', 'no', 'no', 'no'),
  row('account/shipfrequency',                   'subscription',   json('/account/shipfrequency/', (x) => ({ leads_id: x.leadsId, subscription_id: x.id, frequency: 'QUARTERLY' })), 'ok', 'no', 'no', 'no', 'no'),
  row('messaging/send (reply)',                  'thread',         json('/messaging/send/', (x) => ({ leads_id: x.leadsId, thread_id: x.id, body: 'Thank you.' })), 'ok', 'no', 'no', 'no', 'no'),
  row('messaging/thread',                        'thread',         json('/messaging/thread/', (x) => ({ leads_id: x.leadsId, thread_id: x.id })),         'ok',  'no',  'no',  'no',   'no'),
  row('messaging/read',                          'thread',         json('/messaging/read/', (x) => ({ leads_id: x.leadsId, thread_id: x.id })),           'ok',  'no',  'no',  'no',   'no'),
  row('product/drug',                            'visit',          visitCall('/product/drug/', { drug: 'sildenafil' }),                                      'ok',  'no',  'no',  'no',   'no'),
  row('product/dosage',                          'visit',          visitCall('/product/dosage/', { dosage: '50mg' }),                                        'ok',  'no',  'no',  'no',   'no'),
  row('product/frequency',                       'visit',          visitCall('/product/frequency/', { frequency: 'as-needed-6' }),                           'ok',  'no',  'no',  'no',   'no'),
  row('upload_image',                            'visit',          uploadImage,                                                                              'ok',  'no',  'no',  'no',   'no'),
  row('visit/consent',                           'visit',          visitCall('/visit/consent/', { consent: true }),                                          'ok',  'no',  'no',  'no',   'no'),
  row('visit/checkout',                          'visit',          visitCall('/visit/checkout/', { shipping, billing: null, payment: card, consent: true }), 'ok',  'no',  'no',  'no',   'no'),
  row('product/hair-preferences',                'hairVisit',      visitCall('/product/hair-preferences/', { form: 'topical' }),                 'ok',  'no',  'no',  'no',   'no'),
  row('product/sleep-preferences',               'sleepVisit',     visitCall('/product/sleep-preferences/', { goal: 'both' }),               'ok',  'no',  'no',  'no',   'no'),
  // Checking eligibility or answering again sends a visit back to its questions: after its preferences.
  row('visit/eligibility',                       'sleepVisit',     visitCall('/visit/eligibility/', { state: 'OR', dob: '04/12/1985' }),                     'ok',  'no',  'no',  'no',   'no'),
  row('questionnaire/get_questions',             'sleepVisit',     visitCall('/questionnaire/get_questions/'),                                               'ok',  'no',  'no',  'no',   'no'),
  row('questionnaire/get_next_question',         'sleepVisit',     visitCall('/questionnaire/get_next_question/'),                                           'ok',  'no',  'no',  'no',   'no'),
  row('questionnaire/get_previous_question',     'sleepVisit',     visitCall('/questionnaire/get_previous_question/', { linkId: firstSleepItem.linkId }),      'ok',  'no',  'no',  'no',   'no'),
  row('v2/questionnaire/next_question',          'sleepVisit',     visitCall('/v2/questionnaire/next_question'),                                             'ok',  'no',  'no',  'no',   'no'),
  row('v2/questionnaire/previous_question',      'sleepVisit',     visitCall('/v2/questionnaire/previous_question', { linkId: firstSleepItem.linkId }),        'ok',  'no',  'no',  'no',   'no'),
  row('questionnaire/save_question',             'sleepVisit',     visitCall('/questionnaire/save_question/', { linkId: firstSleepItem.linkId, value: safeAnswer(firstSleepItem) }), 'ok', 'no', 'no', 'no', 'no'),
  row('v2/questionnaire/submit_question',        'sleepVisit',     visitCall('/v2/questionnaire/submit_question', { linkId: firstSleepItem.linkId, value: safeAnswer(firstSleepItem) }), 'ok', 'no', 'no', 'no', 'no'),
  row('doctor',                                  'submittedVisit', visitCall('/doctor'),                                                                     'ok',  'no',  'no',  'no',   'no'),
  row('visit/checkout/summary',                  'submittedVisit', visitCall('/visit/checkout/summary/'),                                                    'ok',  'no',  'no',  'no',   'no'),
  row('survey',                                  'submittedVisit', visitCall('/survey/', { rating: 5, would_recommend: true }),                              'ok',  'no',  'no',  'no',   'no'),
  // The photo ID: its owner, and a provider licensed in the state while the visit waits for review (each view audited).
  row('GET uploads/:id',                         'upload',         (x) => ({ method: 'GET', url: `/lapi/uploads/${x.uploadKey}` }),                         'ok',  'no',  'no',  'no',   'ok'),
  // Provider console: staff only (a provider licensed in the patient's state).
  row('staff/visits/detail',                     'submittedVisit', visitCall('/staff/visits/detail/'),                                                       'no',  'no',  'no',  'no',   'ok'),
  row('risk/assessment',                         'submittedVisit', visitCall('/risk/assessment/'),                                                           'no',  'no',  'no',  'no',   'ok'),
  row('staff/messages',                          'submittedVisit', visitCall('/staff/messages/'),                                                            'no',  'no',  'no',  'no',   'ok'),
  row('staff/messages/send',                     'submittedVisit', visitCall('/staff/messages/send/', { body: 'Your visit is in review.' }),                 'no',  'no',  'no',  'no',   'ok'),
  row('staff/visits/approve',                    'submittedVisit', json('/staff/visits/approve/', (x) => ({ visit_id: x.id, prescription: prescription() })),                    'no',  'no',  'no',  'no',   'ok'),
  row('staff/visits/decline',                    'visit',          visitCall('/staff/visits/decline/', { reason: 'Not a good fit for this treatment today.' }), 'no', 'no', 'no', 'no', 'ok'),
  // Operations console: staff only.
  row('staff/orders/detail',                     'order',          json('/staff/orders/detail/', (x) => ({ order_id: x.id })),                             'no',  'no',  'no',  'no',   'ok'),
  row('staff/orders/ship',                       'order',          json('/staff/orders/ship/', (x) => ({ order_id: x.id, tracking_number: '9400111899223197428490' })), 'no', 'no', 'no', 'no', 'ok'),
  row('staff/orders/deliver',                    'order',          json('/staff/orders/deliver/', (x) => ({ order_id: x.id })),                            'no',  'no',  'no',  'no',   'ok'),
  row('staff/orders/refund',                     'order',          json('/staff/orders/refund/', (x) => ({ order_id: x.id, amount_cents: 100, reason: 'Arrived damaged' })),          'no',  'no',  'no',  'no',   'ok'),
  row('staff/orders/cancel',                     'orderToCancel',  json('/staff/orders/cancel/', (x) => ({ order_id: x.id })),                             'no',  'no',  'no',  'no',   'ok'),
  // The care team's inbox (operations staff): threads not about a visit or treatment.
  row('staff/inbox/thread',                      'thread',         json('/staff/inbox/thread/', (x) => ({ thread_id: x.id })),                             'no',  'no',  'no',  'no',   'ok'),
  row('staff/inbox/reply',                       'thread',         json('/staff/inbox/reply/', (x) => ({ thread_id: x.id, body: 'It ships tomorrow.' })),  'no',  'no',  'no',  'no',   'ok'),
  row('staff/inbox/hand-off',                    'handOffThread',  json('/staff/inbox/hand-off/', (x) => ({ thread_id: x.id, provider_id: demoProviderId })), 'no', 'no', 'no', 'no', 'ok'),
  // A patient's clinical question: their provider's (the messages test has the other provider).
  row('messaging/send (clinical reply)',         'clinicalThread', json('/messaging/send/', (x) => ({ leads_id: x.leadsId, thread_id: x.id, body: 'And with coffee?' })), 'ok', 'no', 'no', 'no', 'no'),
  row('staff/patient-messages/thread',           'clinicalThread', json('/staff/patient-messages/thread/', (x) => ({ thread_id: x.id })),                  'no',  'no',  'no',  'no',   'ok'),
  // Partners (issue 16): a visit invitation is its invitee's to dismiss; not even its inviter may.
  row('partners/visit-invitation/dismiss',       'visitInvitation', json('/partners/visit-invitation/dismiss/', (x) => ({ invitation_id: x.id })), 'ok', 'no', 'no', 'no', 'no'),
  // Only the one it is given to answers it: its payer, the partner, gets what anyone gets.
  row('partners/together/decline',               'waitingGift',    json('/partners/together/decline/', (x) => ({ together_id: x.id })),               'ok',  'no',  'no',  'no',   'no'),
  row('staff/patient-messages/reply',            'clinicalThread', json('/staff/patient-messages/reply/', (x) => ({ thread_id: x.id, body: 'Best not with wine.' })), 'no', 'no', 'no', 'no', 'ok'),
];

function row(
  endpoint: string,
  record: RecordName,
  request: (x: Target) => InjectOptions,
  owner: Cell,
  other: Cell,
  partner: Cell,
  visitor: Cell,
  staff: Cell,
): Row {
  return { endpoint, record, request, owner, other, partner, visitor, staff };
}

function uploadImage(x: Target): InjectOptions {
  const body = multipartBody(
    { visit_id: String(x.id) },
    { field: 'fileToUpload', filename: 'id.jpg', contentType: 'image/jpeg', bytes: jpegWithGps },
  );
  return {
    method: 'POST',
    url: '/lapi/upload_image/',
    payload: body.payload,
    headers: body.headers,
  };
}

describe(`access matrix: who may name whose records (${testDialect})`, () => {
  let t: TestApp;
  let owner: TestCustomer;
  let other: TestCustomer;
  let partner: TestCustomer;
  let records: Records;
  let providerCookie: string;
  let opsCookie: string;
  let databaseNow: () => Promise<Record<string, string>>;

  const staffLogin = (role: 'provider' | 'operations'): Promise<string> =>
    staffCookie(
      t,
      demoStaff.find((s) => s.role === role)!,
    );

  async function startVisit(c: TestCustomer, category: 'hair' | 'sleep'): Promise<number> {
    const started = await post(
      t.app,
      '/lapi/leads/startprogram',
      { leads_id: c.leadsId, new_category: category },
      c.cookie,
    );
    const visitId = started.json<{ data: { visit_id: number } }>().data.visit_id;
    await post(
      t.app,
      '/lapi/visit/eligibility/',
      { visit_id: visitId, state: 'OR', dob: '04/12/1985' },
      c.cookie,
    );
    await completeQuestions(t.app, c, visitId, category);
    return visitId;
  }

  async function placeOrder(c: TestCustomer, productId: number): Promise<number> {
    await post(
      t.app,
      '/lapi/v2/ecom/add-product',
      { product_id: productId, quantity: 1 },
      c.cookie,
    );
    const placed = await post(t.app, '/lapi/v2/ecom/place-order', buildPlaceOrder(), c.cookie);
    expect(placed.statusCode, placed.body).toBe(200);
    const orderNumber = placed.json<{ data: { order_number: string } }>().data.order_number;
    const order = await t.app.db
      .selectFrom('orders')
      .select('id')
      .where('order_number', '=', orderNumber)
      .executeTakeFirstOrThrow();
    return order.id;
  }

  beforeAll(async () => {
    t = await buildTestApp({ env: { SEED_DEMO: 'true' } });
    validUntil = new Date(t.clock.now().getTime() + 180 * 86_400_000).toISOString().slice(0, 10);

    owner = await insertCustomer(t.app, {
      first_name: 'Ownerfirst',
      last_name: 'Ownerlast',
      phoneNo: '(503) 555-0177',
    });
    other = await insertCustomer(t.app, { first_name: 'Otherfirst', last_name: 'Otherlast' });
    partner = await insertCustomer(t.app, { first_name: 'Partnerfirst', last_name: 'Partnerlast' });

    const order = await placeOrder(owner, 41); // a monthly product: it starts a subscription
    ownerOrderNumber = (
      await t.app.db
        .selectFrom('orders')
        .select('order_number')
        .where('id', '=', order)
        .executeTakeFirstOrThrow()
    ).order_number;
    const orderToCancel = await placeOrder(owner, 41);
    const subscription = await t.app.db
      .selectFrom('subscriptions')
      .select('id')
      .where('customer_id', '=', owner.customerId)
      .executeTakeFirstOrThrow();
    const sent = await post(
      t.app,
      '/lapi/messaging/send/',
      { leads_id: owner.leadsId, subject: 'A question', topic: 'other', body: 'Is this private?' },
      owner.cookie,
    );
    expect(sent.statusCode, sent.body).toBe(200);
    const thread = sent.json<{ data: { message: { thread_id: number } } }>().data.message.thread_id;
    const toHandOff = await post(
      t.app,
      '/lapi/messaging/send/',
      { leads_id: owner.leadsId, subject: 'Wine', topic: 'other', body: 'Is this private?' },
      owner.cookie,
    );
    const handOffThread = toHandOff.json<{ data: { message: { thread_id: number } } }>().data
      .message.thread_id;

    const submittedVisit = await edVisitAtCheckout(t.app, owner);
    const checkout = await post(
      t.app,
      '/lapi/visit/checkout/',
      { visit_id: submittedVisit, shipping, billing: null, payment: card, consent: true },
      owner.cookie,
    );
    expect(checkout.statusCode, checkout.body).toBe(200);
    const clinical = await post(
      t.app,
      '/lapi/messaging/send/',
      {
        leads_id: owner.leadsId,
        subject: 'Melatonin',
        topic: 'treatment',
        body: 'Is this private?',
      },
      owner.cookie,
    );
    expect(clinical.statusCode, clinical.body).toBe(200);
    const clinicalThread = clinical.json<{ data: { message: { thread_id: number } } }>().data
      .message.thread_id;
    demoProviderId = (
      await t.app.db
        .selectFrom('staff_users')
        .select('id')
        .where('role', '=', 'provider')
        .where('email', '=', demoStaff.find((s) => s.role === 'provider')!.email)
        .executeTakeFirstOrThrow()
    ).id;
    const visit = await edVisitAtCheckout(t.app, owner);
    const hairVisit = await startVisit(owner, 'hair');
    const sleepVisit = await startVisit(owner, 'sleep');
    const upload = await t.app.db
      .selectFrom('uploads')
      .innerJoin('visits', 'visits.photo_upload_id', 'uploads.id')
      .select('uploads.public_id')
      .where('visits.id', '=', submittedVisit)
      .executeTakeFirstOrThrow();

    records = {
      leads: owner.leadsId,
      subscription: subscription.id,
      thread,
      clinicalThread,
      handOffThread,
      upload: upload.public_id ?? '',
      visit,
      hairVisit,
      sleepVisit,
      submittedVisit,
      order,
      orderToCancel,
      visitInvitation: 0,
      waitingGift: 0,
    };
    // The partner: linked by invitation and acceptance, the owner sharing everything there is.
    const invited = await post(
      t.app,
      '/lapi/partners/invite/',
      { email: partner.email },
      owner.cookie,
    );
    expect(invited.statusCode, invited.body).toBe(200);
    const waiting = await post(t.app, '/lapi/partners/', {}, partner.cookie);
    const invitationId = waiting.json<{ data: { received: { invitation_id: number }[] } }>().data
      .received[0]?.invitation_id;
    const accepted = await post(
      t.app,
      '/lapi/partners/invite/accept/',
      { invitation_id: invitationId },
      partner.cookie,
    );
    expect(accepted.statusCode, accepted.body).toBe(200);
    for (const item of ['address', 'orders', 'subscriptions'])
      for (const who of [owner, partner])
        expect(
          (await post(t.app, '/lapi/partners/sharing/', { item, shared: true }, who.cookie))
            .statusCode,
        ).toBe(200);

    // The partner's invitation to the owner to start a sleep visit (as sent from a finished visit).
    const visitInvitation = await t.app.db
      .insertInto('partner_visit_invitations')
      .values({
        inviter_id: partner.customerId,
        invitee_id: owner.customerId,
        program: 'sleep',
        reveal_started: 0,
        status: 'pending',
        created_at: t.clock.now().toISOString(),
        closed_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    records.visitInvitation = visitInvitation.id;
    // The partner's gift to the owner, waiting for the owner's answer (as given from the page).
    const waitingGift = await t.app.db
      .insertInto('together_items')
      .values({
        kind: 'gift',
        from_id: partner.customerId,
        to_id: owner.customerId,
        product_id: offers.sleep.monthly,
        quantity: 1,
        partner_product_id: null,
        partner_quantity: null,
        status: 'pending',
        subscription_id: null,
        created_at: t.clock.now().toISOString(),
        answered_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    records.waitingGift = waitingGift.id;

    providerCookie = await staffLogin('provider');
    opsCookie = await staffLogin('operations');
    // Refusals change nothing, not even the audit log; a session's last-seen time may move.
    databaseNow = await databaseState(t, {
      skip: ['rate_limits'],
      countOnly: ['sessions', 'staff_sessions'],
    });
  });
  afterAll(() => t.close());

  /** Who calls, with which session, naming which record (real, or made up). */
  function requestFor(r: Row, caller: Caller, ghost: boolean): InjectOptions {
    const real = r.record === 'leads' || r.record === 'upload' ? 0 : records[r.record];
    const id = ghost ? GHOST_ID : real;
    const uploadKey = ghost ? GHOST_UPLOAD : records.upload;
    // leads_id rows name the owner's leads_id; other rows send the caller's own with the record.
    let leadsId: string;
    if (r.record === 'leads') leadsId = ghost ? GHOST_LEADS : owner.leadsId;
    else
      leadsId =
        caller === 'other' ? other.leadsId : caller === 'partner' ? partner.leadsId : owner.leadsId;
    const request = r.request({ id, uploadKey, leadsId, email: owner.email });
    const cookie = {
      owner: owner.cookie,
      other: other.cookie,
      partner: partner.cookie,
      visitor: undefined,
      staff:
        r.endpoint.startsWith('staff/orders') || r.endpoint.startsWith('staff/inbox')
          ? opsCookie
          : providerCookie,
    }[caller];
    return {
      ...request,
      headers: { ...(request.headers as Record<string, string>), ...(cookie ? { cookie } : {}) },
    };
  }

  const ownerDetails = () => [
    owner.email,
    owner.leadsId,
    'Ownerfirst',
    'Ownerlast',
    '5035550177',
    'Is this private?',
  ];

  it.each(matrix)(
    '$endpoint ($record): owner $owner, other customer $other, partner $partner, visitor $visitor, staff $staff',
    async (r) => {
      const callers: Caller[] = ['owner', 'other', 'partner', 'visitor', 'staff'];
      // Refusals first (they must change nothing), then whoever may.
      const refused = callers.filter((c) => r[c] === 'no');
      const allowed = callers.filter((c) => r[c] === 'ok');

      const before = await databaseNow();
      for (const caller of refused) {
        const response = await t.app.inject(requestFor(r, caller, false));
        const ghost = await t.app.inject(requestFor(r, caller, true));
        const what = `${r.endpoint} as ${caller}: ${response.statusCode} ${response.body.slice(0, 200)}`;
        expect(response.statusCode, what).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, what).toBeLessThan(500);
        expect([401, 403, 404], what).toContain(response.statusCode);
        // Exactly what a record that does not exist gets: nothing confirmed, nothing told.
        const { requestId: _a, ...body } = response.json<Record<string, unknown>>();
        const { requestId: _b, ...ghostBody } = ghost.json<Record<string, unknown>>();
        expect({ status: response.statusCode, body }, what).toEqual({
          status: ghost.statusCode,
          body: ghostBody,
        });
        for (const detail of ownerDetails()) expect(response.body, what).not.toContain(detail);
      }
      expect(await databaseNow(), `${r.endpoint}: a refused call changed something`).toEqual(
        before,
      );

      for (const caller of allowed) {
        const response = await t.app.inject(requestFor(r, caller, false));
        expect(
          response.statusCode,
          `${r.endpoint} as ${caller}: ${response.statusCode} ${response.body.slice(0, 300)}`,
        ).toBe(200);
      }
    },
  );

  /**
   * The partner endpoints, by contrast, answer with the owner's records: exactly the items the
   * owner shares, and to the partner alone. Nothing clinical or contact-like is among them, even
   * with every switch on; another customer, a visitor and staff get nothing of the owner.
   */
  it('partners/shared: the partner sees exactly what the owner shares; no one else sees any of it', async () => {
    const shared = (cookie: string | undefined) =>
      t.app.inject({
        method: 'POST',
        url: '/lapi/partners/shared/',
        payload: {},
        headers: cookie ? { cookie } : {},
      });
    const storeOrders = await t.app.db
      .selectFrom('orders')
      .select('order_number')
      .where('customer_id', '=', owner.customerId)
      .where('kind', '=', 'store')
      .execute();
    const visitOrders = await t.app.db
      .selectFrom('orders')
      .select('order_number')
      .where('customer_id', '=', owner.customerId)
      .where('kind', '!=', 'store')
      .execute();
    expect(visitOrders.length).toBeGreaterThan(0);

    const all = await shared(partner.cookie);
    expect(all.statusCode, all.body).toBe(200);
    const data = all.json<{
      data: {
        partner: { first_name: string };
        address: { address: string } | null;
        orders: { order_number: string }[] | null;
        subscriptions: { product_name: string }[] | null;
      };
    }>().data;
    expect(data.partner).toEqual({ first_name: 'Ownerfirst' });
    const onFile = await t.app.db
      .selectFrom('customer_addresses')
      .select(['address', 'address2', 'city', 'state', 'zip'])
      .where('customer_id', '=', owner.customerId)
      .where('kind', '=', 'shipping')
      .executeTakeFirstOrThrow();
    expect(data.address).toEqual(onFile);
    expect(data.orders?.map((o) => o.order_number).sort()).toEqual(
      storeOrders.map((o) => o.order_number).sort(),
    );
    const supplements = await t.app.db
      .selectFrom('subscriptions')
      .select('id')
      .where('customer_id', '=', owner.customerId)
      .where('product_id', 'is not', null)
      .where('status', 'in', ['ACTIVE', 'PAUSED'])
      .execute();
    expect(supplements.length).toBeGreaterThan(0);
    expect(data.subscriptions?.map((s) => s.product_name)).toEqual(
      supplements.map(() => 'Sleep Gummies'),
    );
    for (const detail of [
      ...ownerDetails().filter((d) => d !== 'Ownerfirst'),
      ...visitOrders.map((o) => o.order_number),
      records.upload,
      'sildenafil',
    ])
      expect(all.body).not.toContain(detail);

    // One switch on: that item alone.
    for (const item of ['orders', 'subscriptions'])
      await post(t.app, '/lapi/partners/sharing/', { item, shared: false }, owner.cookie);
    const addressOnly = (await shared(partner.cookie)).json<{ data: Record<string, unknown> }>();
    expect(addressOnly.data).toMatchObject({ orders: null, subscriptions: null });
    expect(addressOnly.data.address).not.toBeNull();

    // Another customer has no partner: nothing at all. A visitor and staff are refused.
    expect((await shared(other.cookie)).json<{ data: unknown }>().data).toEqual({
      partner: null,
      address: null,
      orders: null,
      subscriptions: null,
    });
    expect((await shared(undefined)).statusCode).toBe(401);
    expect((await shared(opsCookie)).statusCode).toBe(401);
  });
});
