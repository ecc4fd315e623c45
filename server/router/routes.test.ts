import { describe, expect, test } from 'vitest';
import { operations } from '../../spec/operations.ts';
import { operationsD2 } from '../../spec/operationsD2.ts';
import { SERVED_OPERATIONS } from './operationTable.ts';
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

  test('clearing, reference, register and booking operations answer fhir+json, the others json (DEC-D2-26)', () => {
    const fhir = new Set(['claims', 'reference', 'register', 'booking']);
    for (const r of ROUTES) {
      const isFhir = r.operations.some((id) => fhir.has(SERVED_OPERATIONS.find((o) => o.id === id)?.service ?? ''));
      expect(r.mediaType, r.pattern).toBe(isFhir ? 'application/fhir+json; charset=utf-8' : 'application/json; charset=utf-8');
    }
  });
});

describe('Document 2 routes', () => {
  test('the served operations hold each Document 2 operation exactly once', () => {
    for (const op of operationsD2) expect(SERVED_OPERATIONS.filter((o) => o.id === op.id), op.id).toHaveLength(1);
  });

  test('every Document 2 operation has a route at its method', () => {
    for (const op of operationsD2) {
      expect(ROUTES.some((r) => r.method === op.method && r.operations.includes(op.id)), op.id).toBe(true);
    }
  });

  test('the scheme of a code set is optional; the set name is a path parameter', () => {
    const withScheme = matchRoute('GET', '/reference/valueset/condition-code/ICD10');
    expect('route' in withScheme && withScheme.params).toEqual({ set_name: 'condition-code', scheme: 'ICD10' });
    const bare = matchRoute('GET', '/reference/valueset/condition-code');
    expect('route' in bare && bare.params).toEqual({ set_name: 'condition-code' });
    const none = matchRoute('GET', '/reference/valueset');
    expect('route' in none && none.route.operations).toEqual(['get-code-set']);
  });

  test('the repeated key search_practitionerrole_endpoint is served twice, once per service', () => {
    const register = matchRoute('GET', '/register/practitionerrole');
    const booking = matchRoute('GET', '/booking/practitionerrole');
    expect('route' in register && register.route.operations).toEqual(['search-register-practitioner-roles']);
    expect('route' in booking && booking.route.operations).toEqual(['search-booking-practitioner-roles']);
  });

  test('a get and a search share an address: the path parameter chooses the get', () => {
    const get = matchRoute('GET', '/booking/practitioner/BP-0001');
    expect('route' in get && [get.route.operations, get.params]).toEqual([['get-booking-practitioner'], { practitionerId: 'BP-0001' }]);
    const search = matchRoute('GET', '/booking/practitioner');
    expect('route' in search && search.route.operations).toEqual(['search-booking-practitioners']);
    const validate = matchRoute('GET', '/address/geocode/validate-postcode');
    expect('route' in validate && validate.route.operations).toEqual(['validate-postcode']);
  });
});
