import type { Bank } from './fake-stripe-bank.ts';
import { invalidParam } from './fake-stripe-params.ts';

const prefixes: [prefix: string, map: (bank: Bank) => Map<string, object>][] = [
  ['ch_', (bank) => bank.charges],
  ['pi_', (bank) => bank.paymentIntents],
  ['pm_', (bank) => bank.paymentMethods],
  ['cus_', (bank) => bank.customers],
  ['seti_', (bank) => bank.setupIntents],
  ['re_', (bank) => bank.refunds],
  ['dp_', (bank) => bank.disputes],
];

/**
 * Replaces ids named by `expand[]` with their objects (https://docs.stripe.com/expand), in a copy:
 * `latest_charge`, `payment_method`, `customer`…, through lists with `data.`, and nested with dots.
 */
export function expand(bank: Bank, object: object, paths: string[]): object {
  const copy = structuredClone(object) as Record<string, unknown>;
  for (const path of paths) expandPath(bank, copy, path.split('.'), path);
  return copy;
}

function expandPath(
  bank: Bank,
  target: Record<string, unknown>,
  parts: string[],
  path: string,
): void {
  const [head = '', ...rest] = parts;
  if (head === 'data' && Array.isArray(target.data)) {
    for (const item of target.data as Record<string, unknown>[]) expandPath(bank, item, rest, path);
    return;
  }
  if (!(head in target))
    throw invalidParam(`This property cannot be expanded (${head}).`, 'expand');
  const value = target[head];
  if (typeof value === 'string') {
    const map = prefixes.find(([prefix]) => value.startsWith(prefix))?.[1](bank);
    const found = map?.get(value);
    if (!found) throw invalidParam(`This property cannot be expanded (${path}).`, 'expand');
    target[head] = structuredClone(found);
  }
  const next = target[head];
  if (rest.length > 0 && next && typeof next === 'object') {
    expandPath(bank, next as Record<string, unknown>, rest, path);
  }
}
