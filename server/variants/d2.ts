/**
 * Variants of Document 2: choices its text or spec/decisions.md allow. See ./types.ts.
 */
import type { Variant } from './types.ts';

export const D2_VARIANTS: readonly Variant[] = [];
