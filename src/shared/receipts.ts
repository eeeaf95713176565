import { z } from 'zod';
import { apiPaths } from './api.ts';
import { endpoint } from './contract.ts';

/**
 * Issue 29, receipts a patient can claim: an online visit's order and a refill's have an itemised
 * receipt for an HSA or FSA claim (the patient, the date of service, the medicine and quantity, the
 * amount paid, the prescriber with their NPI, the pharmacy), printable on one page, as a store
 * order has its receipt. Only once something was charged: a hold is not a payment.
 */

export const CareReceiptSchema = z.object({
  order_number: z.string(),
  /** An online visit (the provider's review and the first fill) or a refill of a prescription. */
  kind: z.enum(['visit', 'refill']),
  /** The patient's full name. */
  patient: z.string(),
  /** YYYY-MM-DD: the day it was charged (a visit's approval, a refill's fill). */
  date_of_service: z.string(),
  /** The program ("Erectile dysfunction"). */
  program: z.string(),
  /** The medicine and strength, as prescribed. */
  medicine: z.string(),
  quantity: z.number().int(),
  /** What was charged for it, and what of that was refunded since. */
  amount_cents: z.number().int(),
  refunded_cents: z.number().int(),
  prescriber: z.object({
    name: z.string(),
    npi: z.string().nullable(),
    /** "OR-MD-48213 (Oregon)": the licence in the state the patient was seen in. */
    licence: z.string().nullable(),
  }),
  pharmacy: z.string(),
});
export type CareReceipt = z.infer<typeof CareReceiptSchema>;

export const receiptsApi = {
  /** The receipt of one of the patient's medicine orders; any other order number is not found. */
  careReceipt: endpoint({
    path: apiPaths.careReceipt,
    access: 'customer',
    body: z.strictObject({
      order_number: z.string({ error: 'Enter an order number' }).trim().min(1).max(40),
    }),
    response: z.object({ receipt: CareReceiptSchema }),
    errors: ['NOT_FOUND'],
  }),
};
