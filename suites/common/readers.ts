/**
 * Read documented fields out of resources, tolerating any shape (target data is hostile).
 * Each reader returns undefined when the field is not there, so that a filter check can tell
 * "cannot judge" from "does not match".
 */
import { isRecord } from '../../core/exchange.ts';

type Rec = Record<string, unknown>;

const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The extension whose URL ends with `/<name>` (the URL prefix varies per target). */
export function extension(resource: Rec, name: string): Rec | undefined {
  return arr(resource.extension).find(
    (e): e is Rec => isRecord(e) && typeof e.url === 'string' && (e.url === name || e.url.endsWith(`/${name}`)),
  );
}

/** The value[x] of an extension: valueString, valueDate, valueMoney.value, ... */
export function extensionValue(resource: Rec, name: string): unknown {
  const e = extension(resource, name);
  if (!e) return undefined;
  for (const [k, v] of Object.entries(e)) {
    if (!k.startsWith('value')) continue;
    if (k === 'valueMoney') return isRecord(v) ? v.value : undefined;
    return v;
  }
  return undefined;
}

export function numberOf(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

export function contained(resource: Rec, resourceType: string): Rec[] {
  return arr(resource.contained).filter((c): c is Rec => isRecord(c) && c.resourceType === resourceType);
}

/** Identifier values of a resource whose system ends with `/<suffix>`. */
export function identifierValues(resource: Rec, suffix: string): string[] {
  return arr(resource.identifier)
    .filter((i): i is Rec => isRecord(i) && typeof i.system === 'string' && (i.system as string).endsWith(`/${suffix}`))
    .map((i) => String(i.value));
}

/** The contained Organization of a PaymentReconciliation identified under `/<suffix>`. */
export function organisationBySystem(resource: Rec, suffix: string): Rec | undefined {
  return contained(resource, 'Organization').find((o) => identifierValues(o, suffix).length > 0);
}

export function lastUpdated(resource: Rec): string | undefined {
  return isRecord(resource.meta) && typeof resource.meta.lastUpdated === 'string'
    ? resource.meta.lastUpdated
    : undefined;
}

/** Milliseconds of a date or date-time text; undefined when it does not parse. */
export function timeOf(v: unknown): number | undefined {
  if (typeof v !== 'string') return undefined;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : t;
}

/** The calendar day (YYYY-MM-DD) of a date or date-time, as written (no time-zone shift). */
export function dayOf(v: unknown): string | undefined {
  return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : undefined;
}

export function inDayRange(day: string | undefined, range: string): boolean | undefined {
  if (!day) return undefined;
  const [from, to] = range.split('_');
  return day >= from && day <= (to ?? from);
}

/** `le100`, `ge25.5`, `eq10` applied to a number. */
export function satisfiesComparator(value: number | undefined, comparator: string): boolean | undefined {
  if (value === undefined) return undefined;
  const m = /^(le|ge|eq)(\d+(?:\.\d+)?)$/.exec(comparator);
  if (!m) return undefined;
  const bound = Number(m[2]);
  const cents = (n: number) => Math.round(n * 100);
  if (m[1] === 'le') return cents(value) <= cents(bound);
  if (m[1] === 'ge') return cents(value) >= cents(bound);
  return cents(value) === cents(bound);
}

export function containsText(haystack: unknown, needle: string): boolean | undefined {
  if (typeof haystack !== 'string') return undefined;
  return haystack.toLowerCase().includes(needle.toLowerCase());
}

/** Text of all HumanName parts of the contained Patient(s), for name filters. */
export function patientNameText(resource: Rec): string | undefined {
  const parts: string[] = [];
  for (const p of contained(resource, 'Patient')) {
    for (const n of arr(p.name)) {
      if (!isRecord(n)) continue;
      for (const k of ['prefix', 'given']) for (const g of arr(n[k])) if (typeof g === 'string') parts.push(g);
      if (typeof n.family === 'string') parts.push(n.family);
      if (typeof n.text === 'string') parts.push(n.text);
    }
  }
  return parts.length ? parts.join(' ') : undefined;
}
