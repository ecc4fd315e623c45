import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { operations } from '../../spec/operations.ts';
import { TestSandbox } from '../testSupport.ts';
import { DISCOVERY_PATHS } from './addresses.ts';
import { SERVED_OPERATIONS } from './operationTable.ts';
import { matchRoute } from './routes.ts';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await TestSandbox.start();
});
afterAll(() => sb.close());

describe('discovery documents (DEC-D1-08)', () => {
  test('membership document maps its four keys to absolute addresses', async () => {
    const a = await sb.get('/.well-known/api-configuration', { token: null });
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(a.json).toEqual({
      find_member_endpoint: `${sb.url}/membership/find-member`,
      search_authorisation_endpoint: `${sb.url}/authorisation/search`,
      search_remittance_summary_endpoint: `${sb.url}/remittance/summary/search`,
      search_remittance_detail_endpoint: `${sb.url}/remittance/detail/search`,
    });
  });

  test('claims document lives under {claims_url} and maps the seven clearing keys', async () => {
    const a = await sb.get('/claims/.well-known/api-configuration', { token: null });
    expect(a.status).toBe(200);
    const claims = `${sb.url}/claims`;
    expect(a.json).toEqual({
      list_pending_remittances_endpoint: `${claims}/claimresponse/$batch`,
      get_remittance_details_endpoint: `${claims}/claimresponse/$batch`,
      ack_remittance_endpoint: `${claims}/claimresponse/$batch`,
      list_hospital_claims_endpoint: `${claims}/claim/$hospital-claim`,
      search_hospital_claims_endpoint: `${claims}/claim/search/$hospital-claim`,
      search_claim_endpoint: `${claims}/claim/search`,
      get_claim_endpoint: `${claims}/claim`,
    });
  });

  test('Document 2: reference, address, register and booking documents (DEC-D2-01)', async () => {
    const doc = async (service: string) => {
      const a = await sb.get(`/${service}/.well-known/api-configuration`, { token: null });
      expect(a.status).toBe(200);
      expect(a.headers.get('content-type')).toBe('application/json; charset=utf-8');
      return a.json;
    };
    const u = sb.url;
    expect(await doc('reference')).toEqual({
      codes_valueset_namespace: `${u}/reference/valueset`,
      lookup_practitioner_endpoint: `${u}/reference/practitioner/lookup`,
      lookup_location_endpoint: `${u}/reference/location/lookup`,
      list_organization_endpoint: `${u}/reference/organization/insurer`,
      get_organization_control_params_endpoint: `${u}/reference/organization/control-parameters`,
    });
    expect(await doc('address')).toEqual({
      search_address_endpoint: `${u}/address/search`,
      retrieve_address_endpoint: `${u}/address/retrieve`,
      geo_coding_endpoint: `${u}/address/geocode`,
    });
    expect(await doc('register')).toEqual({
      search_practitioner_endpoint: `${u}/register/practitioner`,
      get_practitionerphoto_endpoint: `${u}/register/practitioner-photo`,
      search_practitionerrole_endpoint: `${u}/register/practitionerrole`,
    });
    expect(await doc('booking')).toEqual({
      get_booking_practitioner_endpoint: `${u}/booking/practitioner`,
      search_booking_practitioner_endpoint: `${u}/booking/practitioner`,
      get_practitionerrole_endpoint: `${u}/booking/practitionerrole`,
      search_practitionerrole_endpoint: `${u}/booking/practitionerrole`,
    });
  });

  test('Document 3: accounts, auth, diary, patients and contracts documents (DEC-D3-01, -02)', async () => {
    const doc = async (path: string) => {
      const a = await sb.get(path, { token: null });
      expect(a.status).toBe(200);
      expect(a.headers.get('content-type')).toBe('application/json; charset=utf-8');
      return a.json;
    };
    const u = sb.url;
    expect(await doc('/accounts/.well-known/api-configuration')).toEqual({ accounts_url: `${u}/accounts` });
    expect(await doc('/auth/.well-known/api-configuration')).toEqual({ auth_url: `${u}/auth` });
    expect(await doc('/diary/.well-known/api-configuration')).toEqual({ diary_url: `${u}/diary` });
    expect(await doc('/patients/.well-known/api-configuration')).toEqual({
      create_patient_endpoint: `${u}/patients/patient`,
      get_patienet_endpoint: `${u}/patients/patient`,
      update_patient_endpoint: `${u}/patients`,
      delete_patient_endpoint: `${u}/patients/patient`,
      create_condition_endpoint: `${u}/patients/patient/condition`,
      delete_patient_condition_endpoint: `${u}/patients/patient/condition`,
    });
    const c = `${u}/contracts`;
    expect(await doc('/contracts/contract/.well-known/api-configuration')).toEqual({
      get_effective_prices_endpoint: `${c}/contract/PRICING/$effective-prices`,
      get_contract_type_list: `${c}/valueset/contract-type`,
      get_contract_subtype_list: `${c}/valueset/contract-subtype/PRICING`,
      get_payors_list_endpoint: `${c}/contract/site`,
      add_payor_endpoint: `${c}/contract`,
      delete_payor_endpoint: `${c}/contract`,
      add_contact_as_payor_endpoint: `${c}/contract`,
      delete_contact_as_payor_endpoint: `${c}/contract`,
      set_contract_service_endpoint: `${c}/contract/PRICING/$contract-price`,
      delete_contract_service_endpoint: `${c}/contract/PRICING/$contract-price`,
      set_contract_service_withprocedure_endpoint: `${c}/contract/PRICING/$contract-price`,
      delete_contract_service_withprocedure_endpoint: `${c}/contract/PRICING/$contract-price`,
      set_contract_price_endpoint: `${c}/contract/PRICING/$contract-price`,
    });
  });

  test('every discovery key is published by its service, and serves its operation', async () => {
    for (const op of SERVED_OPERATIONS) {
      const path = DISCOVERY_PATHS[op.service];
      const doc = (await sb.get(path, { token: null })).json as Record<string, string>;
      expect(doc[op.discoveryKey], op.id).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
      const pattern = new URL(doc[op.discoveryKey]).pathname + op.pathSuffix;
      const m = matchRoute(op.method, pattern.replace(/\{[^}]+\}/g, 'X'));
      expect('route' in m && m.route.operations.includes(op.id), op.id).toBe(true);
    }
  });

  test('every Document 1 discovery key is published by its service', async () => {
    const membership = (await sb.get('/.well-known/api-configuration', { token: null })).json as Record<string, string>;
    const claims = (await sb.get('/claims/.well-known/api-configuration', { token: null })).json as Record<
      string,
      string
    >;
    for (const op of operations.filter((o) => o.document === 'D1')) {
      const doc = op.service === 'membership' ? membership : claims;
      expect(doc[op.discoveryKey], op.id).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    }
  });

  test('addresses follow the Host the request was sent to', async () => {
    // fetch may not set Host, node:http may.
    const text = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        `${sb.url}/.well-known/api-configuration`,
        { headers: { host: 'example.test:8080' } },
        (res) => {
          let data = '';
          res.on('data', (c) => (data += c));
          res.on('end', () => resolve(data));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect((JSON.parse(text) as Record<string, string>).find_member_endpoint).toBe(
      'http://example.test:8080/membership/find-member',
    );
  });
});

describe('sandbox routes', () => {
  test('health lists the active faults', async () => {
    const a = await sb.get('/_sandbox/health', { token: null });
    expect(a.status).toBe(200);
    expect(a.json).toEqual({ status: 'ok', faults: [] });
  });

  test('an unknown path answers a 404 OperationOutcome', async () => {
    const a = await sb.get('/no/such/thing');
    expect(a.status).toBe(404);
    expect(a.json).toMatchObject({
      resourceType: 'OperationOutcome',
      issue: [{ details: { coding: [{ code: 'MSG_NOT_FOUND' }] } }],
    });
  });

  test('a known path with another method answers 405 with Allow', async () => {
    const a = await sb.request('PUT', '/claims/claimresponse/$batch');
    expect(a.status).toBe(405);
    expect(a.headers.get('allow')).toBe('GET, DELETE');
    expect(a.json).toMatchObject({ resourceType: 'OperationOutcome' });
  });

  test('`$` in a path matches literally and percent-encoded', async () => {
    const plain = await sb.get('/claims/claimresponse/$batch');
    const encoded = await sb.get('/claims/claimresponse/%24batch');
    expect(plain.status).toBe(200);
    expect(encoded.status).toBe(200);
    expect(encoded.json).toEqual(plain.json);
  });
});
