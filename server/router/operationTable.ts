/**
 * The operations the sandbox serves: every row of spec/operations.ts, plus any row of
 * spec/operationsD2.ts or spec/operationsD3.ts the shared table does not (yet) hold. Each id
 * appears once, so the table keeps working once the shared table spreads those rows in.
 */
import { operations } from '../../spec/operations.ts';
import { operationsD2 } from '../../spec/operationsD2.ts';
import { operationsD3 } from '../../spec/operationsD3.ts';
import type { Operation } from '../../spec/types.ts';

const fromTable = operations.filter((o) => o.document === 'D1' || o.document === 'D2' || o.document === 'D3');
const notInTable = [...operationsD2, ...operationsD3].filter((o) => !fromTable.some((t) => t.id === o.id));

export const SERVED_OPERATIONS: readonly Operation[] = [...fromTable, ...notInTable];

const byId = new Map(SERVED_OPERATIONS.map((o) => [o.id, o]));

/** The served operation with this id; throws for an unknown id (a sandbox bug). */
export function servedOperation(id: string): Operation {
  const op = byId.get(id);
  if (!op) throw new Error(`Unknown operation id ${id}`);
  return op;
}
