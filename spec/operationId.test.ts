import { expect, test } from 'vitest';
import { isOperationId, type OperationId, operations } from './operations.ts';

test('the operation-id union is derived from the table: every id is one, a misspelt id is not', () => {
  const known: OperationId[] = ['introspect', 'list-recurrence-types', 'create-patient', 'get-code-set', 'get-bill'];
  // @ts-expect-error a misspelt id is a compile error (tsc --noEmit runs in npm test)
  const misspelt: OperationId = 'find-memeber-v1';
  for (const id of known) expect(isOperationId(id)).toBe(true);
  expect(isOperationId(misspelt)).toBe(false);
  expect(operations.every((o) => isOperationId(o.id))).toBe(true);
});
