import { useQuery } from '@tanstack/react-query';
import { receiptsApi } from '#shared/receipts.ts';
import { call } from '#client/lib/api.ts';

/** Issue 29: a visit's or a refill's receipt, for an HSA or FSA claim. */
export const receiptKeys = {
  care: (orderNumber: string) => ['/account/orders/care-receipt', orderNumber] as const,
};

/** The receipt of one of the patient's medicine orders; not found for any other number. */
export function useCareReceipt(orderNumber: string) {
  return useQuery({
    queryKey: receiptKeys.care(orderNumber),
    queryFn: async ({ signal }) =>
      (
        await call(receiptsApi.careReceipt, {
          body: { order_number: orderNumber },
          fallbackMessage: 'We could not load your receipt. Please try again.',
          signal,
        })
      ).receipt,
    enabled: orderNumber !== '',
    retry: false,
  });
}
