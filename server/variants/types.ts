/**
 * A sandbox variant (`--variant NAME`): one choice a conforming server may legitimately make where
 * the documents leave it open or allow more than one form. Variants are the mirror of faults:
 * faults prove the suite's power (every broken rule is caught), variants its fairness (no allowed
 * choice is failed at MUST). A variant is a small modifier around the reference handlers: it may
 * rewrite the request before the handler sees it, the reply the handler gives, or the reply as it
 * goes on the wire. The routers stay the reference behaviour alone.
 */
import type { Modifier, ModifierScope } from '../router/types.ts';

export interface VariantInfo {
  name: string;
  /** A short family name: null-optional, date-form, error-code, letter-case, data, order, serialisation, protocol ... */
  kind: string;
  /**
   * What allows the choice: decision ids of spec/decisions.md (`DEC-D3-23`), requirement ids
   * (`D1-2.6-05`), document sections (`D2 7`) or outside standards (`RFC 8259 4`, `FHIR R4 dateTime`).
   */
  allowedBy: readonly string[];
  description: string;
  /** Operation ids whose answers the variant changes, or 'all' (protocol and serialisation choices). */
  operations: readonly string[] | 'all';
}

/** What a modifier sees of the route: the operation ids it serves (shared routes serve several). */
export type VariantScope = ModifierScope;

export interface Variant extends VariantInfo, Modifier {}
