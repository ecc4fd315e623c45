import { describe, expect, test } from 'vitest';
import { operations } from '../../spec/operations.ts';
import { operationsD2 } from '../../spec/operationsD2.ts';
import { operationsD3 } from '../../spec/operationsD3.ts';
import { SERVED_OPERATIONS } from './operationTable.ts';
import { ROUTES, matchRoute } from './routes.ts';

const d1 = operations.filter((o) => o.document === 'D1');

describe('route table', () => {
  test('every Document 1 operation has exactly one route, at its method', () => {
    for (const op of d1) {
      const served = ROUTES.filter(
        (r) => r.operations.includes(op.id) && r.pattern.endsWith(op.pathSuffix) && r.method === op.method,
      );
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

  test('clearing, reference, register, booking, patient and contract operations answer fhir+json, the others json (DEC-D2-26)', () => {
    const fhir = new Set(['claims', 'reference', 'register', 'booking', 'patients', 'contracts']);
    for (const r of ROUTES) {
      const isFhir = r.operations.some((id) => fhir.has(SERVED_OPERATIONS.find((o) => o.id === id)?.service ?? ''));
      expect(r.mediaType, r.pattern).toBe(
        isFhir ? 'application/fhir+json; charset=utf-8' : 'application/json; charset=utf-8',
      );
    }
  });
});

describe('Document 2 routes', () => {
  test('the served operations hold each Document 2 operation exactly once', () => {
    for (const op of operationsD2)
      expect(
        SERVED_OPERATIONS.filter((o) => o.id === op.id),
        op.id,
      ).toHaveLength(1);
  });

  test('every Document 2 operation has a route at its method', () => {
    for (const op of operationsD2) {
      expect(
        ROUTES.some((r) => r.method === op.method && r.operations.includes(op.id)),
        op.id,
      ).toBe(true);
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
    expect('route' in get && [get.route.operations, get.params]).toEqual([
      ['get-booking-practitioner'],
      { practitionerId: 'BP-0001' },
    ]);
    const search = matchRoute('GET', '/booking/practitioner');
    expect('route' in search && search.route.operations).toEqual(['search-booking-practitioners']);
    const validate = matchRoute('GET', '/address/geocode/validate-postcode');
    expect('route' in validate && validate.route.operations).toEqual(['validate-postcode']);
  });
});

describe('Document 3 routes', () => {
  test('the served operations hold each Document 3 operation exactly once, each with a route at its method', () => {
    for (const op of operationsD3) {
      expect(
        SERVED_OPERATIONS.filter((o) => o.id === op.id),
        op.id,
      ).toHaveLength(1);
      expect(
        ROUTES.some((r) => r.method === op.method && r.operations.includes(op.id)),
        op.id,
      ).toBe(true);
    }
  });

  test('operations sharing a method and path share one route', () => {
    const opsAt = (method: string, path: string) => {
      const m = matchRoute(method, path);
      return 'route' in m ? [...m.route.operations].sort() : [];
    };
    expect(opsAt('POST', '/contracts/contract')).toEqual(['upsert-contact-payor', 'upsert-payor']);
    expect(opsAt('DELETE', '/contracts/contract/SITE001')).toEqual(['delete-contact-payor', 'delete-payor']);
    expect(opsAt('POST', '/contracts/contract/PRICING/$contract-price')).toEqual([
      'set-contract-price',
      'set-contract-service',
      'set-contract-service-with-procedure',
    ]);
    expect(opsAt('DELETE', '/contracts/contract/PRICING/$contract-price/SITE001')).toEqual([
      'delete-contract-service',
      'delete-contract-service-with-procedure',
    ]);
  });

  test('patient paths: literal condition wins over a patient id; update lives at {base_url}/{id}', () => {
    const condition = matchRoute('POST', '/patients/patient/condition');
    expect('route' in condition && condition.route.operations).toEqual(['create-condition']);
    const deleteCondition = matchRoute('DELETE', '/patients/patient/condition/COND-1');
    expect('route' in deleteCondition && [deleteCondition.route.operations, deleteCondition.params]).toEqual([
      ['delete-condition'],
      { condition_id: 'COND-1' },
    ]);
    const get = matchRoute('GET', '/patients/patient/PAT-0001');
    expect('route' in get && [get.route.operations, get.params]).toEqual([['get-patient'], { patient_id: 'PAT-0001' }]);
    const update = matchRoute('PUT', '/patients/PAT-0001');
    expect('route' in update && [update.route.operations, update.params]).toEqual([
      ['update-patient'],
      { patient_id: 'PAT-0001' },
    ]);
  });

  test('accounts, auth and diary paths hang under their service base; a service base is no route', () => {
    const users = matchRoute('GET', '/accounts/api/restricted/site/SITE001');
    expect('route' in users && [users.route.operations, users.params]).toEqual([
      ['get-site-users'],
      { siteId: 'SITE001' },
    ]);
    const v2 = matchRoute('GET', '/accounts/api/restricted/site/v2/authorised');
    expect('route' in v2 && v2.route.operations).toEqual(['list-authorised-sites-v2']);
    const details = matchRoute('GET', '/auth/oauth/nhs/token-details');
    expect('route' in details && [details.route.operations, details.params]).toEqual([
      ['get-idp-token-details'],
      { idp: 'nhs' },
    ]);
    expect(matchRoute('GET', '/accounts')).toEqual({ allowed: [] });
    expect(matchRoute('GET', '/auth')).toEqual({ allowed: [] });
  });
});
