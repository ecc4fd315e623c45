/** Probes of the variants in server/variants/d1Membership.ts (see ./types.ts). */
import type { Probes } from './types.ts';

export const PROBES: Probes = {};
