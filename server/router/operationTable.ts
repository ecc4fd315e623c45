/**
 * The operations the sandbox serves: the Document 1 and Document 2 rows of spec/operations.ts,
 * plus any row of spec/operationsD2.ts the shared table does not (yet) hold. Each id appears once.
 */
import { operations } from '../../spec/operations.ts';
import { operationsD2 } from '../../spec/operationsD2.ts';
import type { Operation } from '../../spec/types.ts';

const fromTable = operations.filter((o) => o.document === 'D1' || o.document === 'D2');

export const SERVED_OPERATIONS: readonly Operation[] = [...fromTable, ...operationsD2.filter((o) => !fromTable.some((t) => t.id === o.id))];

const byId = new Map(SERVED_OPERATIONS.map((o) => [o.id, o]));

/** The served operation with this id; throws for an unknown id (a sandbox bug). */
export function servedOperation(id: string): Operation {
  const op = byId.get(id);
  if (!op) throw new Error(`Unknown operation id ${id}`);
  return op;
}
