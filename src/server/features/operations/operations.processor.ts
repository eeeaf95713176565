import type { GatewayRecord } from '#server/adapters/payments.ts';
import type { AppContext } from '#server/context.ts';
import { ledgerForOrder, type LedgerRow } from '#server/features/payments/payments.service.ts';
import type { StaffOrderProcessor } from '#shared/operations.ts';

/**
 * What operations see of an order's payment at the processor (issue 28): its id and page in the
 * processor's dashboard, how its fraud screening rated it, and why a capture of it failed. The
 * ledger names the payment; the processor is asked about it afresh each time, since a rating or
 * a payment's state is the processor's to tell.
 */

/**
 * How long the order page waits for the processor. The gateway itself may retry for most of a
 * minute (it must, for money to move once); a page an operator is reading should not.
 */
export const PROCESSOR_WAIT_MS = 5_000;

/** The ledger's calls whose answer is the payment itself: a charge, a hold, its capture. */
const PAYMENT_CALLS = new Set<LedgerRow['operation']>(['charge', 'authorize', 'capture']);

/** The order's current payment: the newest charge, hold or capture the processor answered. */
function currentPayment(calls: LedgerRow[]): string | null {
  const answered = calls.filter((call) => PAYMENT_CALLS.has(call.operation) && call.gatewayRef);
  return answered.at(-1)?.gatewayRef ?? null;
}

/** Why the newest capture that failed did: an expired or released hold, as the ledger says. */
function captureFailure(calls: LedgerRow[]): string | null {
  const failed = calls.filter((call) => call.operation === 'capture' && call.status === 'failed');
  return failed.at(-1)?.failure ?? null;
}

/** The processor's answer, or a rejection once `ms` have passed without one. */
async function withinTime<T>(answer: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`The payment processor did not answer within ${ms} ms.`)),
      ms,
    );
    timer.unref();
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The order's payment at the processor; null when it has none, or when the processor has nothing
 * to show of it and no capture failed (the simulator keeps no dashboard and rates nothing). A
 * processor that cannot answer now leaves the rest of the order readable: the section says so,
 * and the error is reported, since an outage there also stops payments.
 */
export async function processorForStaff(
  ctx: AppContext,
  orderId: number,
): Promise<StaffOrderProcessor | null> {
  const calls = await ledgerForOrder(ctx, orderId);
  const paymentId = currentPayment(calls);
  if (!paymentId) return null;
  const known = { payment_id: paymentId, capture_failure: captureFailure(calls) };
  let record: GatewayRecord | null;
  try {
    record = await withinTime(ctx.payments.find({ id: paymentId }), PROCESSOR_WAIT_MS);
  } catch (error) {
    ctx.reporter.report(error, { route: 'staff:order-processor' });
    return { ...known, dashboard_url: null, risk_level: null, unavailable: true };
  }
  const shown = {
    ...known,
    dashboard_url: record?.dashboardUrl ?? null,
    risk_level: record?.riskLevel ?? null,
    unavailable: false,
  };
  const nothingToShow = !shown.dashboard_url && !shown.risk_level && !shown.capture_failure;
  return nothingToShow ? null : shown;
}
