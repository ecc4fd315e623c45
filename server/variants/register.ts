/**
 * Variants for silences of the register (spec/silences.ts) that no other variant file proves (issue 30, item 2).
 */
import type { Variant } from './types.ts';

export const REGISTER_VARIANTS: readonly Variant[] = [];
