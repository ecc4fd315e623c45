/**
 * The rows that say what each service offers: the bullets of each document's section 1 ("What the
 * service does") before its conventions. An operation its service does not address (its key
 * missing from the discovery document, or no document) is an offer the service does not keep: the
 * runner's discovery result cites these rows when it fails (app/runnerResults.ts).
 */
import { loadRequirements } from './requirements.ts';

export const CAPABILITY_ROWS: readonly string[] = [
  'D1-1-01',
  'D1-1-02',
  'D1-1-03',
  'D1-1-04',
  'D1-1-05',
  'D2-1-01',
  'D2-1-02',
  'D2-1-03',
  'D2-1-04',
  'D2-1-05',
  'D2-1-06',
  'D3-1-01',
  'D3-1-02',
  'D3-1-03',
  'D3-1-04',
  'D3-1-05',
];

/** The testable capability rows that name the operation (server rows). */
export function capabilityRowsOf(operationId: string): string[] {
  return loadRequirements('server')
    .filter((r) => CAPABILITY_ROWS.includes(r.id) && r.notTestedReason === '' && r.operations.includes(operationId))
    .map((r) => r.id);
}
