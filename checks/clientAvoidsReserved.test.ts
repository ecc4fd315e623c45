import { describe, expect, it } from 'vitest';
import type { ClientRequest } from '../core/clientRequest.ts';
import { operation } from '../spec/operations.ts';
import { clientAvoidsReserved } from './clientAvoidsReserved.ts';

const request = (id: string): ClientRequest => ({
  operation: operation(id),
  method: 'GET',
  rawPath: '/x',
  rawQuery: '',
  headers: {},
});

describe('clientAvoidsReserved', () => {
  it('passes an operation open to external integrators', () => {
    expect(clientAvoidsReserved.run(request('find-member-v2')).outcome).toBe('pass');
    expect(clientAvoidsReserved.run(request('create-patient')).outcome).toBe('pass');
  });

  it("fails an operation reserved for the operator's products", () => {
    const f = clientAvoidsReserved.run(request('list-pending-remittances'));
    expect(f.outcome).toBe('fail');
    expect(f.message).toMatch(/^Expected no call of list-pending-remittances \(reserved/);
  });
});
