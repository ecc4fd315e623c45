import { describe, expect, it } from 'vitest';
import { respondedExchange, roleBundle, valueSet } from './testing.ts';

describe('respondedExchange', () => {
  it('encodes object bodies as JSON with a JSON content type', () => {
    const x = respondedExchange({ body: { a: 1 }, status: 201, method: 'POST', requestBody: 'q=1' });
    expect(x.response).toMatchObject({ status: 201, bodyText: '{"a":1}', size: 7, truncated: false });
    expect(x.response.headers['content-type']).toBe('application/json');
    expect(x.request).toMatchObject({ method: 'POST', body: 'q=1' });
  });

  it('keeps string bodies and given headers (lower-cased)', () => {
    const x = respondedExchange({ body: 'plain', headers: { 'Content-Type': 'text/plain' } });
    expect(x.response.bodyText).toBe('plain');
    expect(x.response.headers).toEqual({ 'content-type': 'text/plain' });
    expect(respondedExchange({}).response.bodyText).toBe('');
  });
});

describe('valueSet', () => {
  it('builds a ValueSet whose expansion members can be overridden', () => {
    expect(valueSet([{ code: 'a' }])).toMatchObject({
      resourceType: 'ValueSet',
      expansion: { total: 1, offset: 0, contains: [{ code: 'a' }] },
    });
    expect(valueSet([], { offset: 10, total: 12 })).toMatchObject({
      expansion: { total: 12, offset: 10, contains: [] },
    });
  });
});

describe('roleBundle', () => {
  it('marks roles match and included resources include', () => {
    expect(roleBundle([{ id: 'r' }], [{ id: 'p' }])).toMatchObject({
      total: 1,
      entry: [
        { resource: { id: 'r' }, search: { mode: 'match' } },
        { resource: { id: 'p' }, search: { mode: 'include' } },
      ],
    });
  });
});
