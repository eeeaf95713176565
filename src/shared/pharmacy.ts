import { z } from 'zod';
import { apiPaths } from './api.ts';
import { endpoint } from './contract.ts';
import { pharmacyStepNames } from './orders.ts';

/**
 * Issue 29: the pharmacy protocol (decision 022). Our messages follow the shape of Surescripts'
 * script messages (NewRx, CancelRx); the partner's callbacks say what happened to the medicine.
 * Every message carries its own id, which is also the Idempotency-Key it is sent with: the same
 * message sent twice (after a crash) is one prescription at the pharmacy.
 */

/** A prescriber as a NewRx names them. */
export interface RxPrescriber {
  name: string;
  npi: string | null;
  /** The licence in the patient's state. */
  state_licence: { state: string; number: string } | null;
}

/** A NewRx: one prescription, with its refills, to be filled and shipped by the pharmacy. */
export interface NewRxMessage {
  message_id: string;
  type: 'NewRx';
  /** Ours: the order the first fill ships for. */
  order_number: string;
  prescription_id: number;
  written_on: string;
  prescriber: RxPrescriber;
  patient: {
    first_name: string;
    last_name: string;
    date_of_birth: string;
    address: {
      line1: string;
      line2: string;
      city: string;
      state: string;
      zip: string;
    };
  };
  medication: {
    /** The medicine as the patient reads it ("Sildenafil 50 mg"). */
    description: string;
    drug: string;
    strength: string;
    quantity: number;
    days_supply: number;
    refills: number;
    directions: string;
    /** Generic substitution is allowed (NCPDP DAW code 0). */
    substitution: 'allowed';
    valid_until: string;
  };
}

/** A refill: the next fill a NewRx authorised, for a paid period of the patient's refill plan. */
export interface RefillMessage {
  message_id: string;
  type: 'Refill';
  order_number: string;
  prescription_id: number;
  /** The NewRx this fill is one of. */
  new_rx_message_id: string;
  /** The patient's address for this fill (it may have changed since the NewRx). */
  ship_to: NewRxMessage['patient']['address'];
}

/** A CancelRx: no more fills of this prescription. */
export interface CancelRxMessage {
  message_id: string;
  type: 'CancelRx';
  prescription_id: number;
  new_rx_message_id: string;
  reason: string;
}

export type PharmacyMessage = NewRxMessage | RefillMessage | CancelRxMessage;

/** What the pharmacy tells us, each callback signed (`Pharmacy-Signature: t=…,v1=…`). */
export const pharmacyEventTypes = [
  'received',
  'filled',
  'shipped',
  'delivered',
  'rejected',
] as const;
export type PharmacyEventType = (typeof pharmacyEventTypes)[number];

export const PharmacyEventSchema = z.strictObject({
  /** The pharmacy's id for this callback: a repeated delivery carries the same one. */
  id: z.string().min(1).max(100),
  /** Our message the callback is about (its NewRx or refill). */
  message_id: z.string().min(1).max(100),
  type: z.enum(pharmacyEventTypes),
  occurred_at: z.iso.datetime({ offset: true }),
  tracking_number: z.string().min(1).max(60).optional(),
  carrier: z.string().min(1).max(60).optional(),
  /** Why it could not be filled (rejected). */
  reason: z.string().min(1).max(500).optional(),
});
export type PharmacyEvent = z.infer<typeof PharmacyEventSchema>;

/** The header a callback's signature travels in, and how old a signed callback may be. */
export const PHARMACY_SIGNATURE_HEADER = 'pharmacy-signature';
export const PHARMACY_SIGNATURE_TOLERANCE_SECONDS = 300;

/** An order is stuck when it has waited this long at one step (operations' Pharmacy queue). */
export const PHARMACY_STUCK_HOURS = 24;

export const PharmacyQueueItemSchema = z.object({
  order_id: z.number().int(),
  order_number: z.string(),
  kind: z.enum(['NewRx', 'Refill']),
  /** The last step, and since when; null while the message has not been sent. */
  step: z.enum(pharmacyStepNames).nullable(),
  since: z.string(),
  /** Waiting more than PHARMACY_STUCK_HOURS at one step (or to be sent). */
  stuck: z.boolean(),
  /** The message itself: not yet sent (with its attempts and last error), sent, or refused. */
  message_status: z.enum(['pending', 'sent', 'failed']),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  rejected_reason: z.string().nullable(),
});
export type PharmacyQueueItem = z.infer<typeof PharmacyQueueItemSchema>;

export const PharmacyQueueSchema = z.object({ orders: z.array(PharmacyQueueItemSchema) });

/** Operations staff: the orders at the pharmacy that are not delivered yet, stuck ones first. */
export const pharmacyApi = {
  queue: endpoint({
    path: apiPaths.staffPharmacy,
    access: 'operations',
    view: true,
    response: PharmacyQueueSchema,
    errors: [],
  }),
};
