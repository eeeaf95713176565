import type { QueryClient } from '@tanstack/react-query';
// zod/mini, not classic zod: read before every first render (docs/decisions/007-measured-quality.md).
import * as z from 'zod/mini';
import { CatalogSchema } from '#shared/catalog.ts';
import { cacheKeys } from '#shared/constants.ts';

const PageDataSchema = z.object({ catalog: CatalogSchema });

/**
 * The catalogue a page drawn by the server was drawn from (`#page-data`, decision 011), put where
 * `useCatalog` finds it. True when the page was drawn by the server and its data adopted;
 * anything unreadable is ignored (false): the page then asks the API as usual.
 */
export function adoptPageData(queryClient: QueryClient, doc: Document = document): boolean {
  const element = doc.getElementById('page-data');
  if (!element?.textContent) return false;
  let json: unknown;
  try {
    json = JSON.parse(element.textContent);
  } catch {
    return false;
  }
  const parsed = PageDataSchema.safeParse(json);
  if (!parsed.success) return false;
  queryClient.setQueryData([cacheKeys.catalog], parsed.data.catalog);
  return true;
}
