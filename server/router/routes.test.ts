import { describe, expect, test } from 'vitest';
import { operations } from '../../spec/operations.ts';
import { ROUTES, matchRoute } from './routes.ts';

const d1 = operations.filter((o) => o.document === 'D1');

describe('route table', () => {
  test('every Document 1 operation has exactly one route, at its method', () => {
    for (const op of d1) {
      const served = ROUTES.filter((r) => r.operations.includes(op.id) && r.pattern.endsWith(op.pathSuffix) && r.method === op.method);
      expect(served.length, op.id).toBeGreaterThanOrEqual(1);
    }
  });

  test('find member versions share one route', () => {
    const fm = ROUTES.filter((r) => r.operations.some((o) => o.startsWith('find-member')));
    expect(fm).toHaveLength(1);
    expect(fm[0].operations).toEqual(['find-member-v1', 'find-member-v2']);
  });

  test('no two routes share method and pattern', () => {
    const keys = ROUTES.map((r) => `${r.method} ${r.pattern}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  test('literal segments win over path parameters', () => {
    const m = matchRoute('GET', '/claims/claim/search/$hospital-claim');
    expect('route' in m && m.route.operations).toEqual(['search-hospital-claims']);
    const bill = matchRoute('GET', '/claims/claim/BILL-0001/false');
    expect('route' in bill && bill.params).toEqual({ claimId: 'BILL-0001', isArchived: 'false' });
  });

  test('path parameters are percent-decoded', () => {
    const m = matchRoute('DELETE', '/claims/claimresponse/%24batch/BATCH%2D1001');
    expect('route' in m && m.params).toEqual({ id: 'BATCH-1001' });
  });

  test('an unknown path lists no methods; a known one lists its methods', () => {
    expect(matchRoute('GET', '/nowhere')).toEqual({ allowed: [] });
    expect(matchRoute('GET', '/membership/find-member')).toEqual({ allowed: ['POST'] });
  });

  test('clearing operations answer fhir+json, the others json', () => {
    for (const r of ROUTES) {
      const claims = r.operations.some((id) => d1.find((o) => o.id === id)?.service === 'claims');
      expect(r.mediaType, r.pattern).toBe(claims ? 'application/fhir+json; charset=utf-8' : 'application/json; charset=utf-8');
    }
  });
});
