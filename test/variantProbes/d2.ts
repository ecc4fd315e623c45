/** Probes of the variants in server/variants/d2.ts (see ./types.ts). */
import type { Probes } from './types.ts';

export const PROBES: Probes = {};
