import { describe, expect, it } from 'vitest';
import {
  AddressInputSchema,
  AddressPayloadFormSchema,
  AddressPayloadSchema,
  ShippingInputSchema,
} from './accounts.ts';
import { CheckoutShippingSchema, PaymentFormSchema, PlaceOrderSchema } from './checkout.ts';
import { usStates } from './us-states.ts';
import { VisitCheckoutSchema } from './visits.ts';
import { statesOfZip, zipMatchesState, zipNotInState } from './zip-prefixes.ts';

/** A real ZIP in each state and DC: its capital's or its largest city's. */
const zipInState: Record<string, string> = {
  AL: '35203', // Birmingham
  AK: '99501', // Anchorage
  AZ: '85004', // Phoenix
  AR: '72201', // Little Rock
  CA: '90012', // Los Angeles
  CO: '80202', // Denver
  CT: '06103', // Hartford
  DE: '19901', // Dover
  DC: '20001', // Washington
  FL: '32301', // Tallahassee
  GA: '30303', // Atlanta
  HI: '96813', // Honolulu
  ID: '83702', // Boise
  IL: '60601', // Chicago
  IN: '46204', // Indianapolis
  IA: '50309', // Des Moines
  KS: '66603', // Topeka
  KY: '40601', // Frankfort
  LA: '70112', // New Orleans
  ME: '04101', // Portland
  MD: '21202', // Baltimore
  MA: '02108', // Boston
  MI: '48226', // Detroit
  MN: '55101', // Saint Paul
  MS: '39201', // Jackson
  MO: '63101', // Saint Louis
  MT: '59601', // Helena
  NE: '68102', // Omaha
  NV: '89101', // Las Vegas
  NH: '03301', // Concord
  NJ: '07102', // Newark
  NM: '87501', // Santa Fe
  NY: '10001', // New York
  NC: '27601', // Raleigh
  ND: '58501', // Bismarck
  OH: '43215', // Columbus
  OK: '73102', // Oklahoma City
  OR: '97204', // Portland
  PA: '19103', // Philadelphia
  RI: '02903', // Providence
  SC: '29201', // Columbia
  SD: '57501', // Pierre
  TN: '37203', // Nashville
  TX: '78701', // Austin
  UT: '84101', // Salt Lake City
  VT: '05602', // Montpelier
  VA: '23219', // Richmond
  WA: '98501', // Olympia
  WV: '25301', // Charleston
  WI: '53703', // Madison
  WY: '82001', // Cheyenne
};

describe('zipMatchesState', () => {
  it('has a ZIP for every state the product knows (50 and DC)', () => {
    expect(Object.keys(zipInState).sort()).toEqual(usStates.map(([code]) => code).sort());
    expect(usStates).toHaveLength(51);
  });

  it.each(Object.entries(zipInState))('accepts a ZIP in %s (%s)', (state, zip) => {
    expect(zipMatchesState(zip, state)).toBe(true);
    expect(statesOfZip(zip)?.has(state as never)).toBe(true);
  });

  it.each(Object.entries(zipInState))(
    'refuses the ZIP of %s in every other state',
    (state, zip) => {
      const others = usStates.map(([code]) => code).filter((code) => code !== state);
      const accepted = others.filter((other) => zipMatchesState(zip, other));
      expect(accepted).toEqual([]);
    },
  );

  it.each([
    ['10001', 'CA'],
    ['90012', 'NY'],
    ['97204', 'ME'],
    ['04101', 'OR'],
    ['20001', 'VA'],
    ['22201', 'DC'],
    ['73102', 'TX'],
    ['87501', 'TX'],
    ['06103', 'NY'],
  ])('refuses %s in %s', (zip, state) => {
    expect(zipMatchesState(zip, state)).toBe(false);
  });

  it.each([
    ['00501', 'NY', 'Holtsville, NY (005)'],
    ['06390', 'NY', 'Fishers Island, NY (063)'],
    ['06390', 'CT', 'the rest of 063 is Connecticut'],
    ['05501', 'MA', 'Andover, MA (055)'],
    ['20101', 'VA', 'Dulles, VA (201)'],
    ['20201', 'DC', 'Washington, DC (202)'],
    ['20500', 'DC', 'Washington, DC (205)'],
    ['56901', 'DC', 'the parcel return service (569)'],
    ['39815', 'GA', 'Albany, GA (398)'],
    ['39901', 'GA', 'Atlanta, GA (399)'],
    ['73301', 'TX', 'Austin, TX (733)'],
    ['88510', 'TX', 'El Paso, TX (885)'],
    ['83414', 'WY', 'Alta, WY, served from Idaho (834)'],
    ['42223', 'TN', 'Fort Campbell, on both sides of the line (422)'],
    ['73960', 'TX', 'Texhoma, TX (739)'],
  ])('accepts %s in %s: %s', (zip, state) => {
    expect(zipMatchesState(zip, state)).toBe(true);
  });

  it.each([
    ['00601', 'a Puerto Rico prefix'],
    ['09001', 'an Armed Forces Europe prefix'],
    ['34001', 'the Armed Forces Americas prefix'],
    ['96201', 'an Armed Forces Pacific prefix'],
    ['96910', "Guam's prefix"],
    ['26901', 'an unassigned prefix (269)'],
    ['00001', 'an unassigned prefix (000)'],
    ['71501', 'an unassigned prefix (715)'],
  ])('accepts %s with any state: %s is not in the table', (zip) => {
    expect(statesOfZip(zip)).toBeNull();
    for (const [state] of usStates) expect(zipMatchesState(zip, state)).toBe(true);
  });

  it('leaves text that is not a five-digit ZIP to the format rule', () => {
    expect(statesOfZip('1000')).toBeNull();
    expect(zipMatchesState('ABCDE', 'CA')).toBe(true);
  });

  it('names the state in the message', () => {
    expect(zipNotInState('CA')).toBe("This ZIP code isn't in California.");
    expect(zipNotInState('DC')).toBe("This ZIP code isn't in District of Columbia.");
  });
});

const address = { address: '1 Main St', address2: '', city: 'New York', state: 'CA', zip: '10001' };
const zipIssues = (result: { success: boolean; error?: { issues: unknown[] } }) =>
  (result.error?.issues ?? []) as { path: PropertyKey[]; message: string }[];

describe('the address schemas', () => {
  it('puts the mismatch on the ZIP of an address, checked after the state is upper-cased', () => {
    const result = AddressInputSchema.safeParse(address);
    expect(zipIssues(result)).toEqual([
      expect.objectContaining({ path: ['zip'], message: "This ZIP code isn't in California." }),
    ]);
    expect(AddressInputSchema.safeParse({ ...address, state: 'ny' }).success).toBe(true);
  });

  it('keeps only the format message when the ZIP or the state is not valid on its own', () => {
    const badZip = zipIssues(AddressInputSchema.safeParse({ ...address, zip: '1000' }));
    expect(new Set(badZip.map((issue) => issue.message))).toEqual(
      new Set(['Invalid ZIP code format']),
    );
    const badState = zipIssues(AddressInputSchema.safeParse({ ...address, state: 'ZZ' }));
    expect(badState.map((issue) => issue.path)).toEqual([['state']]);
  });

  it('checks the shipping address of both checkouts, with the phone', () => {
    const shipping = { ...address, phoneNo: '5035550100' };
    for (const schema of [ShippingInputSchema, CheckoutShippingSchema])
      expect(zipIssues(schema.safeParse(shipping)).map((issue) => issue.path)).toEqual([['zip']]);
    expect(ShippingInputSchema.safeParse({ ...shipping, state: 'NY' }).success).toBe(true);
    const visit = VisitCheckoutSchema.safeParse({
      visit_id: 1,
      shipping,
      billing: { ...address, state: 'NY', zip: '90012' },
      payment: { method: 'saved' },
      consent: true,
    });
    expect(zipIssues(visit).map((issue) => issue.path)).toEqual([
      ['shipping', 'zip'],
      ['billing', 'zip'],
    ]);
    const order = PlaceOrderSchema.safeParse({
      idempotency_key: '6f1c1a52-3d0e-4f6b-9b43-7f7c3f0a6f11',
      shipping: { ...shipping, state: 'NY' },
      billing: address,
      payment: { method: 'saved' },
      consent: true,
    });
    expect(zipIssues(order).map((issue) => issue.path)).toEqual([['billing', 'zip']]);
  });

  it('checks the billing address of the payment form only when it is used', () => {
    const form = {
      method: 'saved',
      cardEntry: 'fields',
      ccnum: '',
      ccexp: '',
      cccvv: '',
      billingSame: false,
      billing: address,
      consent: true,
    } as const;
    expect(zipIssues(PaymentFormSchema.safeParse(form))).toEqual([
      expect.objectContaining({ path: ['billing', 'zip'] }),
    ]);
    expect(PaymentFormSchema.safeParse({ ...form, billingSame: true }).success).toBe(true);
  });

  it('checks both addresses of the account payload, each on its own ZIP', () => {
    const payload = {
      leads_id: 'lead-1',
      address: '1 Main St',
      address2: '',
      city: 'Portland',
      state: 'OR',
      zip: '97204',
      billing_address: '1 Main St',
      billing_address2: '',
      billing_city: 'Portland',
      billing_state: 'OR',
      billing_zip: '97204',
      phoneNo: '5035550100',
      smsallow: 0,
    } as const;
    expect(AddressPayloadSchema.safeParse(payload).success).toBe(true);
    const billing = AddressPayloadSchema.safeParse({ ...payload, billing_state: 'ME' });
    expect(zipIssues(billing)).toEqual([
      expect.objectContaining({ path: ['billing_zip'], message: "This ZIP code isn't in Maine." }),
    ]);
    const { leads_id: _leadsId, ...form } = payload;
    const shipping = AddressPayloadFormSchema.safeParse({ ...form, zip: '10001' });
    expect(zipIssues(shipping).map((issue) => issue.path)).toEqual([['zip']]);
  });
});
