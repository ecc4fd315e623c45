/**
 * Variants of Document 1 (find member, search authorisation, remittance batches): choices its text or spec/decisions.md allow. See ./types.ts.
 */
import type { Variant } from './types.ts';

export const D1_MEMBERSHIP_VARIANTS: readonly Variant[] = [];
