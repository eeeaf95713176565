import { useEffect, useRef } from 'react';
import type { ProductLine } from '#shared/catalog.ts';
import {
  productLineSource,
  trackSelectItem,
  trackViewItemList,
  type ItemList,
  type ItemSource,
} from '#client/lib/analytics.ts';

const sources = (lines: readonly ProductLine[]): ItemSource[] =>
  lines.map(productLineSource).filter((source): source is ItemSource => source !== null);

/** GA4 `view_item_list`, once per list shown, when its products are known (DESIGN §8). */
export function useViewItemList(list: ItemList, lines: readonly ProductLine[] | undefined): void {
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current || !lines || lines.length === 0) return;
    sent.current = true;
    trackViewItemList(list, sources(lines));
  }, [list, lines]);
}

/** GA4 `select_item`: a product opened from a list, with its place in it. */
export function selectItem(list: ItemList, line: ProductLine, index: number): void {
  const source = productLineSource(line);
  if (source) trackSelectItem(list, source, index);
}
