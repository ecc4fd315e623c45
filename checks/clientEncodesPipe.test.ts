import { describe, expect, it } from 'vitest';
import type { ClientRequest } from '../core/clientRequest.ts';
import { operation } from '../spec/operations.ts';
import { clientEncodesPipe } from './clientEncodesPipe.ts';

const request = (rawPath: string, rawQuery = ''): ClientRequest => ({
  operation: operation('retrieve-address'),
  method: 'GET',
  rawPath,
  rawQuery,
  headers: {},
});

describe('clientEncodesPipe', () => {
  it('passes %7C and a request without |', () => {
    expect(clientEncodesPipe.run(request('/address/retrieve', 'id=GB%7C123')).outcome).toBe('pass');
    expect(clientEncodesPipe.run(request('/address/retrieve')).outcome).toBe('pass');
  });

  it('fails a literal | in the query or the path', () => {
    const q = clientEncodesPipe.run(request('/address/retrieve', 'id=GB|123'));
    expect(q.outcome).toBe('fail');
    expect(q.message).toBe('Expected | sent as %7C, received a literal | in the query id=GB|123');
    expect(clientEncodesPipe.run(request('/a/GB|1')).outcome).toBe('fail');
  });
});
