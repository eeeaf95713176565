import { useQuery } from '@tanstack/react-query';
import { dashboardApi } from '#shared/dashboard.ts';
import { call } from '#client/lib/api.ts';

/** The operator's dashboard, under the console's `/staff` (logging out forgets it). */
export const dashboardKeys = { summary: ['/staff', 'dashboard'] as const };

/** The last 30 days' figures; read again every 5 minutes while the page is open and in view. */
export function useDashboard(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: dashboardKeys.summary,
    queryFn: async ({ signal }) => call(dashboardApi.summary, { body: {}, signal }),
    enabled: options.enabled ?? true,
    staleTime: 60_000,
    refetchInterval: 5 * 60_000,
    refetchIntervalInBackground: false,
  });
}
