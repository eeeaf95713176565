import { useQuery } from '@tanstack/react-query';
import { pharmacyApi } from '#shared/pharmacy.ts';
import { call } from '#client/lib/api.ts';

/** Orders at the pharmacy not delivered yet (operations staff), under the console's `/staff`. */
export const pharmacyKeys = { queue: ['/staff', 'pharmacy'] as const };

export function usePharmacyQueue(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: pharmacyKeys.queue,
    queryFn: async ({ signal }) => (await call(pharmacyApi.queue, { signal })).orders,
    enabled: options.enabled ?? true,
    refetchInterval: 60_000,
    refetchIntervalInBackground: false,
  });
}
