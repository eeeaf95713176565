// Receipts a patient can claim (issue 29): an online visit's order and a refill's, itemised for an
// HSA or FSA claim. Above orders (the order and what was charged), pharmacy (which prescription the
// medicine was filled under), visits (that prescription) and staff (its prescriber and their NPI).
import type { AppContext } from '#server/context.ts';
import { sessionUser } from '#server/features/auth/auth.service.ts';
import { orderByNumber } from '#server/features/orders/orders.history.ts';
import { prescriptionOfOrder } from '#server/features/pharmacy/pharmacy.service.ts';
import { prescriberOf } from '#server/features/staff/staff.service.ts';
import { prescriptionById } from '#server/features/visits/visits.review.ts';
import { AppError, notFound } from '#server/lib/errors.ts';
import { hasCareReceipt } from '#shared/orders.ts';
import type { CareReceipt } from '#shared/receipts.ts';
import { stateName } from '#shared/us-states.ts';
import { medicineName, programs } from '#shared/visits.ts';

/**
 * The receipt of one of the customer's own medicine orders, once it was charged: the medicine as
 * prescribed and filled, the amount charged (and refunded since), on the day it was charged, with
 * the prescriber's NPI and licence in the patient's state and the pharmacy's name. Any other order
 * number, a store order (which has its own receipt) and an order not charged yet are not found.
 */
export async function careReceipt(
  ctx: AppContext,
  customerId: number,
  orderNumber: string,
): Promise<CareReceipt> {
  const missing = () => notFound('We could not find a receipt for that order in your account.');
  const order = await orderByNumber(ctx, customerId, orderNumber).catch((error: unknown) => {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
    throw error;
  });
  if (!order || !hasCareReceipt(order)) throw missing();
  const prescriptionId = await prescriptionOfOrder(ctx, order.orders_id);
  const prescription =
    prescriptionId === null ? undefined : await prescriptionById(ctx, prescriptionId);
  if (!prescription || prescription.customerId !== customerId) throw missing();
  const paid = order.payments.filter((line) => line.kind === 'paid');
  const prescriber = prescription.state
    ? await prescriberOf(ctx, prescription.providerId, prescription.state)
    : undefined;
  const patient = await sessionUser(ctx, customerId);
  return {
    order_number: order.order_number,
    kind: order.order_kind === 'visit' ? 'visit' : 'refill',
    patient: `${patient.first_name} ${patient.last_name}`,
    date_of_service: (paid[0]?.date ?? order.order_date).slice(0, 10),
    program: programs[prescription.category].headline,
    medicine: medicineName(prescription.category, prescription.drug, prescription.dosage),
    quantity: prescription.quantity,
    amount_cents: paid.reduce((sum, line) => sum + line.amount_cents, 0),
    refunded_cents: order.refund_cents,
    prescriber: {
      name: prescriber?.name ?? 'Your Pairwell provider',
      npi: prescriber?.npi ?? null,
      licence:
        prescriber?.licence && prescription.state
          ? `${prescriber.licence.number} (${stateName(prescription.state)})`
          : null,
    },
    pharmacy: ctx.env.PHARMACY_NAME,
  };
}
