import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { catalogApi, type Catalog } from '#shared/catalog.ts';
import { cacheKeys } from '#shared/constants.ts';
import { messages } from '#shared/wording.ts';
import { call } from '#client/lib/api.ts';

const catalogQuery = {
  queryKey: [cacheKeys.catalog],
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    call(catalogApi.products, { signal, fallbackMessage: messages.productsFailed }),
  staleTime: 5 * 60_000,
};

export function useCatalog() {
  return useQuery(catalogQuery);
}

/** The catalogue now, from the cache while it is fresh (for an action, not a screen). */
export function fetchCatalog(queryClient: QueryClient): Promise<Catalog> {
  return queryClient.fetchQuery(catalogQuery);
}

/** One product line by its slug; shown at once from the catalogue when that is already loaded. */
export function useProductLine(slug: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: [cacheKeys.catalog, slug],
    queryFn: ({ signal }) =>
      call(catalogApi.product, {
        params: { slug },
        signal,
        fallbackMessage: messages.productsFailed,
      }),
    initialData: () =>
      queryClient
        .getQueryData<Catalog>([cacheKeys.catalog])
        ?.lines.find((line) => line.slug === slug),
    staleTime: 5 * 60_000,
  });
}
