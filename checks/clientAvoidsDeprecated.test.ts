import { describe, expect, it } from 'vitest';
import type { ClientRequest } from '../core/clientRequest.ts';
import { operation } from '../spec/operations.ts';
import { clientAvoidsDeprecated } from './clientAvoidsDeprecated.ts';

const request = (id: string): ClientRequest => ({
  operation: operation(id),
  method: 'POST',
  rawPath: '/membership/find-member',
  rawQuery: '',
  headers: {},
});

describe('clientAvoidsDeprecated', () => {
  it('passes the supported version', () => {
    expect(clientAvoidsDeprecated.run(request('find-member-v2')).outcome).toBe('pass');
  });

  it('flags version 1 of Find Member', () => {
    const f = clientAvoidsDeprecated.run(request('find-member-v1'));
    expect(f.outcome).toBe('fail');
    expect(f.message).toContain('find-member-v1');
  });
});
