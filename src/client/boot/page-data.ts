import type { QueryClient } from '@tanstack/react-query';
// zod/mini, not classic zod: read before every first render (docs/decisions/007-measured-quality.md).
import * as z from 'zod/mini';
import { CatalogSchema } from '#shared/catalog.ts';
import { cacheKeys } from '#shared/constants.ts';

const PageDataSchema = z.object({ catalog: CatalogSchema });

/**
 * The data a prerendered page was rendered from (`<script id="page-data">`, the catalogue), put
 * where `useCatalog` finds it, so that hydration renders the same markup. True when the page was
 * prerendered and its data read; anything unreadable is ignored (false): the page is then rendered
 * afresh and asks the API as usual.
 */
export function readPageData(queryClient: QueryClient, doc: Document = document): boolean {
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
