/**
 * Reading Contracts (document 3, 2.6) for checks: the Contracts of a body, their valued items
 * (`term[].asset[].valuedItem[]`, nested term groups included), item codings and sub types.
 * Never throws on odd shapes; whatever is not an object is left out.
 */
import { isRecord } from '../core/exchange.ts';
import { isBundle } from './readJson.ts';

/** Nested term groups are followed this deep at most (guards against hostile nesting). */
const MAX_TERM_DEPTH = 8;

const records = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.filter(isRecord) : []);

/**
 * The Contracts a body holds: the `Contract` entries of a Bundle, or the body itself when it is
 * a Contract. Anything else holds none.
 */
export function contractsOf(body: unknown): Record<string, unknown>[] {
  if (isBundle(body)) {
    return records(body.entry)
      .map((e) => (isRecord(e.resource) ? e.resource : undefined))
      .filter((r): r is Record<string, unknown> => r !== undefined && r.resourceType === 'Contract');
  }
  return isRecord(body) && body.resourceType === 'Contract' ? [body] : [];
}

function collectValuedItems(terms: unknown, depth: number, into: Record<string, unknown>[]): void {
  if (depth > MAX_TERM_DEPTH) return;
  for (const term of records(terms)) {
    for (const asset of records(term.asset)) into.push(...records(asset.valuedItem));
    collectValuedItems(term.group, depth + 1, into);
  }
}

/** Every valued item of a Contract, over all its terms (and nested term groups) and assets. */
export function valuedItemsOf(contract: Record<string, unknown>): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  collectValuedItems(contract.term, 0, items);
  return items;
}

/** `entityCodeableConcept.coding[]` of a valued item. */
export function codingsOf(item: Record<string, unknown>): Record<string, unknown>[] {
  return isRecord(item.entityCodeableConcept) ? records(item.entityCodeableConcept.coding) : [];
}

/** `subType[].coding[].display` texts of a Contract (`subType` as one object is read too). */
export function subTypeDisplays(contract: Record<string, unknown>): string[] {
  const subTypes = Array.isArray(contract.subType)
    ? records(contract.subType)
    : isRecord(contract.subType)
      ? [contract.subType]
      : [];
  const displays: string[] = [];
  for (const subType of subTypes) {
    for (const coding of records(subType.coding)) if (typeof coding.display === 'string') displays.push(coding.display);
  }
  return displays;
}

/** `system|code` of a coding, for messages. */
export function codingLabel(coding: Record<string, unknown>): string {
  const part = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
  return `${part(coding.system)}|${part(coding.code)}`;
}

/** Whether a Contract names a payor: read by the one payor reader (core/readers/payor.ts, DEC-D3-37). */
export { contractNamesPayor } from '../core/readers/payor.ts';
