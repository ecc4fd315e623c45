/**
 * resolveOperation: every reference interaction resolves to its operation; shared routes are told
 * apart; a path under another base is the operation whose address ends it (D1 1: addresses by key).
 */
import { describe, expect, test } from 'vitest';
import { MatchersV3 } from '@pact-foundation/pact';
import { operations } from '../spec/operations.ts';
import { planInteractions } from './generate.ts';
import { resolveOperation, resolveRequest } from './resolveOperation.ts';

describe('resolveOperation', () => {
  test('each planned reference interaction resolves to its own operation', () => {
    const planned = planInteractions();
    for (const p of planned) {
      const body = p.send.body === undefined ? undefined : p.send.body;
      expect(resolveOperation(p.send.method, p.send.path, p.send.headers, body)?.id, p.description).toBe(
        p.operation.id,
      );
    }
    expect(new Set(planned.map((p) => p.operation.id))).toEqual(new Set(operations.map((o) => o.id)));
  });

  test('Find Member by SVC-API-Version (any header case); without it the current version', () => {
    expect(resolveOperation('POST', '/membership/find-member', { 'svc-api-version': '1' })?.id).toBe('find-member-v1');
    expect(resolveOperation('POST', '/membership/find-member', { 'SVC-API-Version': '2' })?.id).toBe('find-member-v2');
    expect(resolveOperation('POST', '/membership/find-member', {})?.id).toBe('find-member-v2');
  });

  test('contract operations sharing an address: by query and by body', () => {
    const del = (q: string) => resolveOperation('DELETE', `/contracts/contract/SITE001?${q}`, {})?.id;
    expect(del('payorId=Organization/bup&payorType=I&providerGroup=CT-1')).toBe('delete-payor');
    expect(del('payorId=Person/x&payorType=C&providerGroup=CT-1')).toBe('delete-contact-payor');
    const price = (q: string) =>
      resolveOperation('DELETE', `/contracts/contract/PRICING/$contract-price/SITE001?${q}`, {})?.id;
    expect(price('indStdCode=A&indStdCodeScheme=ISC')).toBe('delete-contract-service');
    expect(price('indStdCode=A&indStdCodeScheme=ISC&procedureCode=P&procedureScheme=CCSD')).toBe(
      'delete-contract-service-with-procedure',
    );
    const upsert = (reference: string) =>
      resolveOperation('POST', '/contracts/contract', {}, JSON.stringify({ authority: [{ reference }] }))?.id;
    expect(upsert('Organization/bup')).toBe('upsert-payor');
    expect(upsert('Person/CN-1')).toBe('upsert-contact-payor');
    expect(resolveOperation('POST', '/contracts/contract', {})?.id).toBe('upsert-payor');
    const item = (extra: object) =>
      JSON.stringify({
        term: [{ asset: [{ valuedItem: [{ entityCodeableConcept: { coding: [{ system: 'ISC' }] } }, extra] }] }],
      });
    const set = (body: string) => resolveOperation('POST', '/contracts/contract/PRICING/$contract-price', {}, body)?.id;
    expect(set(item({}))).toBe('set-contract-service');
    expect(set(item({ entityCodeableConcept: { coding: [{ system: 'https://x.example/ref/procedure' }] } }))).toBe(
      'set-contract-service-with-procedure',
    );
    expect(set(item({ net: { value: 1 } }))).toBe('set-contract-price');
    expect(MatchersV3.isMatcher('x')).toBe(false);
  });

  test('paths with parameters and a query; the sandbox own routes and unknown paths are none', () => {
    expect(resolveOperation('GET', '/claims/claimresponse/$batch/BATCH-1', {})?.id).toBe('get-remittance-details');
    expect(resolveOperation('DELETE', '/claims/claimresponse/$batch/BATCH-1', {})?.id).toBe('ack-remittance');
    expect(resolveOperation('get', '/address/retrieve?id=GB%7CRM', {})?.id).toBe('retrieve-address');
    expect(resolveOperation('GET', '/reference/valueset/service-type', {})?.id).toBe('get-code-set');
    expect(resolveOperation('GET', '/.well-known/api-configuration', {})).toBeUndefined();
    expect(resolveOperation('POST', '/oauth/token', {})).toBeUndefined();
    expect(resolveOperation('GET', '/no/such/path', {})).toBeUndefined();
    expect(resolveOperation('PUT', '/claims/claimresponse/$batch', {})).toBeUndefined();
  });

  test('a path under a base of its own is the operation whose address ends it, the shortest base first', () => {
    const find = resolveRequest('POST', '/api/v2/membership/find-member', { 'SVC-API-Version': '2' });
    expect([find?.operation.id, find?.base, find?.path]).toEqual([
      'find-member-v2',
      '/api/v2',
      '/membership/find-member',
    ]);
    const batch = resolveRequest('GET', '/gw/claims/claimresponse/$batch/BATCH-1?x=1', {});
    expect([batch?.operation.id, batch?.base, batch?.path]).toEqual([
      'get-remittance-details',
      '/gw',
      '/claims/claimresponse/$batch/BATCH-1?x=1',
    ]);
    // The query and body still tell the operations of one address apart under a base.
    const del = resolveOperation('DELETE', '/x/contracts/contract/SITE001?payorId=Person/x&payorType=C', {});
    expect(del?.id).toBe('delete-contact-payor');
    expect(resolveRequest('GET', '/patients/patient/PAT-1', {})).toMatchObject({
      base: '',
      path: '/patients/patient/PAT-1',
    });
    expect(resolveOperation('PUT', '/api/patients/PAT-1', {})?.id).toBe('update-patient');
  });

  test('a path no operation address ends, under any base, is none', () => {
    expect(resolveRequest('POST', '/api/v2/membership/member-search', {})).toBeUndefined();
    expect(resolveRequest('GET', '/api/.well-known/api-configuration', {})).toBeUndefined();
    expect(resolveRequest('POST', '/gw/oauth/token', {})).toBeUndefined();
    expect(resolveRequest('GET', '/api/v2/membership/find-member', {})).toBeUndefined();
  });
});
