// Must pass lint: a feature's writes live in its <feature>.api.ts, beside its reads. Linted as
// src/client/features/orders/orders.api.ts.
import { useMutation } from '@tanstack/react-query';

export function useCancel(cancel: () => Promise<void>) {
  return useMutation({ mutationFn: cancel });
}
