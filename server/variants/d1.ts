/**
 * Variants of Document 1: choices its text or spec/decisions.md allow. See ./types.ts.
 */
import type { Variant } from './types.ts';

export const D1_VARIANTS: readonly Variant[] = [];
