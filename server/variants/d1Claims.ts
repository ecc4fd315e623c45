/**
 * Variants of Document 1 (remittance search, hospital claims, bills; FHIR forms common to Document 1): choices its text or spec/decisions.md allow. See ./types.ts.
 */
import type { Variant } from './types.ts';

export const D1_CLAIMS_VARIANTS: readonly Variant[] = [];
