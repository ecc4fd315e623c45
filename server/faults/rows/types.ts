/**
 * A fault written to prove named MUST rows (issue 30, item 1): its catalogue entry and its
 * modifier in one object, so that each document's file holds its faults whole. `rows` names the
 * rows it proves; the self-test (test/faults.test.ts) asserts that a failure crediting the fault
 * cites each of them, and its scenario (rows/dN.test.ts) shows what it changes on the sandbox.
 */
import type { Modifier } from '../../router/types.ts';
import type { FaultInfo } from '../faultInfo.ts';

export interface RowFault extends Omit<FaultInfo, 'rows'>, Modifier {
  rows: readonly string[];
}
