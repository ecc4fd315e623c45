/**
 * Reading a code-set answer (document 2, 2.2): a ValueSet whose `expansion` holds `total`,
 * `offset` and `contains[]`. Codes are keyed `system|code`.
 */
import { fail, show, type Finding } from '../core/check.ts';
import { isRecord, type RespondedExchange } from '../core/exchange.ts';
import { describe, readObject, type Read } from './readJson.ts';

export interface ValueSetView {
  body: Record<string, unknown>;
  expansion: Record<string, unknown>;
  /** `expansion.contains[]` as sent (an absent `contains` is an empty set, FHIR style). */
  contains: unknown[];
}

/**
 * The key of a code-set item: `system|code` (an absent or non-string system gives `|code`).
 * Undefined when the item has no string (or finite number) `code`.
 */
export function codeKey(item: unknown): string | undefined {
  if (!isRecord(item)) return undefined;
  let code: string;
  if (typeof item.code === 'string' && item.code !== '') code = item.code;
  else if (typeof item.code === 'number' && Number.isFinite(item.code)) code = String(item.code);
  else return undefined;
  const system = typeof item.system === 'string' ? item.system : '';
  return `${system}|${code}`;
}

/** The key of an item, or its position in `contains[]` when it has none (for messages). */
export function codeLabel(item: unknown, index: number): string {
  return codeKey(item) ?? `item ${index + 1}`;
}

function failed(message: string): { ok: false; finding: Finding } {
  return { ok: false, finding: fail(message) };
}

/**
 * A ValueSet body: `resourceType` ValueSet (or absent), an `expansion` object and, when present,
 * a `contains` array. Truncated bodies are skipped, anything else is a failure.
 */
export function readValueSet(x: RespondedExchange): Read<ValueSetView> {
  const object = readObject(x);
  if (!object.ok) return object;
  const body = object.value;
  if (body.resourceType !== undefined && body.resourceType !== 'ValueSet')
    return failed(`Expected a ValueSet, received ${describe(body)}`);
  const expansion = body.expansion;
  if (!isRecord(expansion))
    return failed(
      `Expected ValueSet.expansion to be an object, received ${expansion === undefined ? '<absent>' : describe(expansion)}`,
    );
  if (expansion.contains === undefined) return { ok: true, value: { body, expansion, contains: [] } };
  if (!Array.isArray(expansion.contains)) {
    return failed(`Expected ValueSet.expansion.contains to be an array, received ${show(expansion.contains, 60)}`);
  }
  return { ok: true, value: { body, expansion, contains: expansion.contains } };
}
