import { useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPaths, v1Success } from '#shared/api.ts';
import { CatalogSchema, ProductLineSchema, type Catalog } from '#shared/catalog.ts';
import { cacheKeys } from '#shared/constants.ts';
import { messages } from '#shared/messages.ts';
import { apiGet } from '#client/lib/api.ts';

const CatalogResponseSchema = v1Success(CatalogSchema);
const ProductLineResponseSchema = v1Success(ProductLineSchema);

export function useCatalog() {
  return useQuery({
    queryKey: [cacheKeys.catalog],
    queryFn: async ({ signal }) => {
      const response = await apiGet(apiPaths.products, CatalogResponseSchema, {
        signal,
        fallbackMessage: messages.productsFailed,
      });
      return response.data;
    },
    staleTime: 5 * 60_000,
  });
}

/** One product line by its slug; shown at once from the catalogue when that is already loaded. */
export function useProductLine(slug: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: [cacheKeys.catalog, slug],
    queryFn: async ({ signal }) => {
      const response = await apiGet(apiPaths.product, ProductLineResponseSchema, {
        params: { slug },
        signal,
        fallbackMessage: messages.productsFailed,
      });
      return response.data;
    },
    initialData: () =>
      queryClient
        .getQueryData<Catalog>([cacheKeys.catalog])
        ?.lines.find((line) => line.slug === slug),
    staleTime: 5 * 60_000,
  });
}
