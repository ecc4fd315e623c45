/**
 * Faults of Document 1 written to prove its MUST rows that no derived shape fault reaches (issue
 * 30, item 1). Each breaks one documented rule, names the rows it proves and the check that must
 * catch it citing them; its scenario is in d1.test.ts.
 */
import type { RowFault } from './types.ts';

export const D1_ROW_FAULTS: readonly RowFault[] = [];
