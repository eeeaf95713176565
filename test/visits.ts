import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type {
  AnswerValue,
  Questionnaire,
  QuestionnaireItem,
} from '#shared/questionnaires/format.ts';
import { latestQuestionnaire } from '#shared/questionnaires/registry.ts';
import type { z } from 'zod';
import type { UsStateCode } from '#shared/us-states.ts';
import {
  visitsApi,
  type ProgramCategory,
  type QuestionState,
  type VisitCheckoutSchema,
} from '#shared/visits.ts';
import { createStaff } from '#server/features/staff/staff.service.ts';
import { reviewsApi } from '#shared/reviews.ts';
import { callAs, malformed } from './contract.ts';
import { multipartBody, type TestCustomer } from './factories.ts';
import { knockoutAnswer, safeAnswer } from './safe-answer.ts';

export { knockoutAnswer, safeAnswer };

/**
 * An active provider licensed in `licensedStates`: a visit is accepted only from a state where one
 * is (eligibility and checkout refuse the others). They have no usable password: tests that log a
 * provider in use the demo staff. Answers the provider's email, to change their licences by.
 */
export async function insertProvider(
  app: FastifyInstance,
  licensedStates: UsStateCode[],
): Promise<string> {
  const email = `provider-${crypto.randomUUID()}@pairwell.test`;
  await createStaff(app.ctx, {
    email,
    name: 'Dr. Test Provider',
    role: 'provider',
    passwordHash: 'no-log-in',
    totpSecret: 'JBSWY3DPEHPK3PXP',
    npi: '1234567893',
    licences: licensedStates.map((state) => ({
      state,
      number: `${state}-TEST-1`,
      expiresOn: '2099-12-31',
    })),
  });
  return email;
}

/**
 * Makes a staff member licensed in exactly `states` (until `expiresOn`), as operations record a
 * licence gained, given up or renewed: their licences are replaced.
 */
export async function setLicensedStates(
  app: FastifyInstance,
  email: string,
  states: string[],
  expiresOn = '2099-12-31',
): Promise<void> {
  const staff = await app.db
    .selectFrom('staff_users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  await app.db.deleteFrom('staff_licences').where('staff_id', '=', staff.id).execute();
  if (states.length > 0)
    await app.db
      .insertInto('staff_licences')
      .values(
        states.map((state) => ({
          staff_id: staff.id,
          state,
          number: `${state}-TEST-1`,
          expires_on: expiresOn,
        })),
      )
      .execute();
}

/**
 * Answers every question safely (or as `answer` says), through the v2 calls, until the visit moves
 * on. Answers what each question offered before it was answered (a renewal's prefill), by linkId.
 * A known item (the age from the date of birth) is the visit's to answer: being asked one fails.
 */
export async function completeQuestions(
  app: FastifyInstance,
  c: TestCustomer,
  visitId: number,
  category: ProgramCategory,
  options: {
    questionnaire?: Questionnaire;
    answer?: (item: QuestionnaireItem, offered: AnswerValue | null) => AnswerValue;
  } = {},
): Promise<Record<string, AnswerValue | null>> {
  const questionnaire = options.questionnaire ?? latestQuestionnaire(category);
  const offered: Record<string, AnswerValue | null> = {};
  let state = (await callAs(app, visitsApi.v2NextQuestion, { visit_id: visitId }, c)).json<{
    data: QuestionState;
  }>().data;
  while (state.item) {
    const item = questionnaire.items.find((i) => i.linkId === state.item?.linkId);
    if (!item) throw new Error('unknown item');
    if (item.known) throw new Error(`asked ${item.linkId}, which the visit knows`);
    offered[item.linkId] = state.answer;
    state =
      item.type === 'display'
        ? (
            await callAs(
              app,
              visitsApi.v2NextQuestion,
              { visit_id: visitId, linkId: item.linkId },
              c,
            )
          ).json<{ data: QuestionState }>().data
        : (
            await callAs(
              app,
              visitsApi.v2SubmitQuestion,
              {
                visit_id: visitId,
                linkId: item.linkId,
                value: options.answer ? options.answer(item, state.answer) : safeAnswer(item),
              },
              c,
            )
          ).json<{ data: QuestionState }>().data;
  }
  expect(state.done).toBe(true);
  return offered;
}

export const jpegWithGps = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x07]),
  Buffer.from('JFIF\0', 'latin1'),
  Buffer.from([0xff, 0xe1, 0x00, 0x19]),
  Buffer.from('Exif\0\0GPS canary 45.52N', 'latin1'),
  Buffer.from([0xff, 0xda, 0x00, 0x04, 0x01, 0x02, 0x12, 0x34, 0xff, 0xd9]),
]);

/** An ED visit in `state` taken through eligibility, questions, treatment, photo ID and consent. */
export async function edVisitAtCheckout(
  app: FastifyInstance,
  c: TestCustomer,
  state: UsStateCode = 'OR',
): Promise<number> {
  const started = await callAs(
    app,
    visitsApi.startProgram,
    { leads_id: c.leadsId, new_category: 'ed' },
    c,
  );
  const visitId = started.json<{ data: { visit_id: number } }>().data.visit_id;
  await callAs(app, visitsApi.eligibility, { visit_id: visitId, state, dob: '04/12/1985' }, c);
  await completeQuestions(app, c, visitId, 'ed');
  await callAs(app, visitsApi.drug, { visit_id: visitId, drug: 'sildenafil' }, c);
  await callAs(app, visitsApi.dosage, { visit_id: visitId, dosage: '50mg' }, c);
  await callAs(app, visitsApi.frequency, { visit_id: visitId, frequency: 'as-needed-6' }, c);
  const body = multipartBody(
    { visit_id: String(visitId) },
    { field: 'fileToUpload', filename: 'id.jpg', contentType: 'image/jpeg', bytes: jpegWithGps },
  );
  // The form's bytes as the browser sends them (the declaration's body only names its fields).
  await callAs(app, visitsApi.uploadImage, malformed(body.payload), c, { headers: body.headers });
  const consent = await callAs(app, visitsApi.consent, { visit_id: visitId, consent: true }, c);
  expect(consent.json()).toMatchObject({ data: { destination: '/visit/ed/checkout' } });
  return visitId;
}

/**
 * A street address in every state: prescriptions ship only to the visit's state, and a ZIP must
 * be one of its state's.
 */
const addressIn: Record<UsStateCode, { city: string; zip: string }> = {
  AL: { city: 'Birmingham', zip: '35203' },
  AK: { city: 'Anchorage', zip: '99501' },
  AZ: { city: 'Phoenix', zip: '85004' },
  AR: { city: 'Little Rock', zip: '72201' },
  CA: { city: 'Sacramento', zip: '95814' },
  CO: { city: 'Denver', zip: '80202' },
  CT: { city: 'Hartford', zip: '06103' },
  DE: { city: 'Dover', zip: '19901' },
  DC: { city: 'Washington', zip: '20001' },
  FL: { city: 'Tallahassee', zip: '32301' },
  GA: { city: 'Atlanta', zip: '30303' },
  HI: { city: 'Honolulu', zip: '96813' },
  ID: { city: 'Boise', zip: '83702' },
  IL: { city: 'Chicago', zip: '60601' },
  IN: { city: 'Indianapolis', zip: '46204' },
  IA: { city: 'Des Moines', zip: '50309' },
  KS: { city: 'Topeka', zip: '66603' },
  KY: { city: 'Frankfort', zip: '40601' },
  LA: { city: 'New Orleans', zip: '70112' },
  ME: { city: 'Portland', zip: '04101' },
  MD: { city: 'Baltimore', zip: '21202' },
  MA: { city: 'Boston', zip: '02108' },
  MI: { city: 'Detroit', zip: '48226' },
  MN: { city: 'Saint Paul', zip: '55101' },
  MS: { city: 'Jackson', zip: '39201' },
  MO: { city: 'Saint Louis', zip: '63101' },
  MT: { city: 'Helena', zip: '59601' },
  NE: { city: 'Omaha', zip: '68102' },
  NV: { city: 'Las Vegas', zip: '89101' },
  NH: { city: 'Concord', zip: '03301' },
  NJ: { city: 'Newark', zip: '07102' },
  NM: { city: 'Santa Fe', zip: '87501' },
  NY: { city: 'Albany', zip: '12207' },
  NC: { city: 'Raleigh', zip: '27601' },
  ND: { city: 'Bismarck', zip: '58501' },
  OH: { city: 'Columbus', zip: '43215' },
  OK: { city: 'Oklahoma City', zip: '73102' },
  OR: { city: 'Portland', zip: '97201' },
  PA: { city: 'Philadelphia', zip: '19103' },
  RI: { city: 'Providence', zip: '02903' },
  SC: { city: 'Columbia', zip: '29201' },
  SD: { city: 'Pierre', zip: '57501' },
  TN: { city: 'Nashville', zip: '37203' },
  TX: { city: 'Austin', zip: '78701' },
  UT: { city: 'Salt Lake City', zip: '84101' },
  VT: { city: 'Montpelier', zip: '05602' },
  VA: { city: 'Richmond', zip: '23219' },
  WA: { city: 'Olympia', zip: '98501' },
  WV: { city: 'Charleston', zip: '25301' },
  WI: { city: 'Madison', zip: '53703' },
  WY: { city: 'Cheyenne', zip: '82001' },
};

/** The body of the visit's checkout as a browser sends it (before the server's parsing). */
export type VisitCheckoutBody = z.input<typeof VisitCheckoutSchema>;

/**
 * The visit's checkout with `ccnum`, shipping to `state` (Portland, OR by default): the card is
 * authorised, the visit submitted.
 */
export function visitCheckoutBody(
  visitId: number,
  ccnum = '4242 4242 4242 4242',
  state: UsStateCode = 'OR',
): VisitCheckoutBody {
  const place = addressIn[state];
  return {
    visit_id: visitId,
    shipping: {
      address: '5 Oak St',
      address2: '',
      city: place.city,
      state,
      zip: place.zip,
      phoneNo: '5035550142',
    },
    billing: null,
    payment: { method: 'card', ccnum, ccexp: '12/30', cccvv: '123' },
    consent: true,
  };
}

/** An ED visit submitted for review: its id and the order number the patient sees. */
export async function submittedEdVisit(
  app: FastifyInstance,
  c: TestCustomer,
  state: UsStateCode = 'OR',
  options: { savedCard?: boolean } = {},
): Promise<{ visitId: number; orderNumber: string }> {
  const visitId = await edVisitAtCheckout(app, c, state);
  const body = visitCheckoutBody(visitId, undefined, state);
  const response = await callAs(
    app,
    visitsApi.checkout,
    options.savedCard ? { ...body, payment: { method: 'saved' } } : body,
    c,
  );
  expect(response.statusCode, response.body).toBe(200);
  return {
    visitId,
    orderNumber: response.json<{ data: { order_number: string } }>().data.order_number,
  };
}

/**
 * A provider approves a visit with an ED prescription (6 tablets, 2 refills, valid `validDays`
 * from the app's today, with directions), as the approve dialog sends it; the answer as given.
 */
export function approveWithPrescription(
  app: FastifyInstance,
  cookie: string,
  visitId: number,
  { validDays = 180, refills = 2 }: { validDays?: number; refills?: number } = {},
) {
  return callAs(
    app,
    reviewsApi.approve,
    {
      visit_id: visitId,
      prescription: {
        drug: 'sildenafil',
        dosage: '50mg',
        quantity: 6,
        refills,
        valid_until: new Date(app.ctx.clock.now().getTime() + validDays * 86_400_000)
          .toISOString()
          .slice(0, 10),
        directions: 'Take one tablet about an hour before, no more than once a day.',
      },
    },
    cookie,
  );
}
