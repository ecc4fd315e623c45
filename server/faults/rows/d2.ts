/**
 * Faults of Document 2 written to prove its MUST rows that no derived shape fault reaches (issue
 * 30, item 1). Each breaks one documented rule, names the rows it proves and the check that must
 * catch it citing them; its scenario is in d2.test.ts.
 */
import type { RowFault } from './types.ts';

export const D2_ROW_FAULTS: readonly RowFault[] = [];
