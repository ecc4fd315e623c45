/**
 * Variants of Document 3: choices its text or spec/decisions.md allow. See ./types.ts.
 */
import type { Variant } from './types.ts';

export const D3_VARIANTS: readonly Variant[] = [];
