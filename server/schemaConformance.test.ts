/**
 * The sandbox's success bodies validate against each operation's response schema (schemas/,
 * through core/schemaRegistry.ts), and its error bodies against the OperationOutcome schema.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { validateAgainst } from '../core/schemaRegistry.ts';
import { CODE_SET_NAMES } from '../spec/operationsD2.ts';
import { SERVED_OPERATIONS, servedOperation as operation } from './router/operationTable.ts';
import { TestSandbox, paths, withQuery, type Answer } from './testSupport.ts';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await TestSandbox.start();
});
afterAll(() => sb.close());

type Call = (s: TestSandbox) => Promise<Answer>;

const hospitalSearch = `${paths.hospitalSearch}?${new URLSearchParams({ dateCompleted: '2026-03-14', treatmentSiteName: 'St Elsewhere Hospital', patientLastName: 'Smith', patientDateOfBirth: '1980-04-12' })}`;

const SUCCESS: [operationId: string, label: string, call: Call][] = [
  ['find-member-v2', 'ppp J Smith (money co-payment)', (s) => s.findMember('2', { insurerIdentifier: 'ppp', firstInitial: 'J', lastName: 'Smith', dateOfBirth: '1980-04-12' })],
  ['find-member-v2', 'nuh A Jones step 2 (percentage co-payment)', (s) => s.findMember('2', { insurerIdentifier: 'nuh', firstInitial: 'A', lastName: 'Jones', dateOfBirth: '1975-09-30', sex: 'Female', postCode: 'AB1 2CD', policyActiveOn: '2026-06-01' })],
  ['find-member-v2', 'expired ppp policy', (s) => s.findMember('2', { insurerIdentifier: 'ppp', firstInitial: 'J', lastName: 'Smith', dateOfBirth: '1982-11-03' })],
  ['find-member-v1', 'bup BUP100001', (s) => s.findMember('1', { insurerIdentifier: 'bup', membershipNumber: 'BUP100001' })],
  ['search-authorisation', 'every record', (s) => s.form(paths.authorisation, { count: '100' })],
  ['search-authorisation', 'empty page', (s) => s.form(paths.authorisation, { page: '9' })],
  ['search-remittance-summary', 'every summary', (s) => s.form(paths.summary, { count: '100' })],
  ['search-remittance-detail', 'RS-0001', (s) => s.form(paths.detail('RS-0001'), { count: '100' })],
  ['list-pending-remittances', 'SITE001', (s) => s.get(paths.batches)],
  ['list-hospital-claims', 'every claim', (s) => s.get(paths.hospitalList)],
  ['list-hospital-claims', 'no claim', (s) => s.get(`${paths.hospitalList}?dateCompleted=2020-01-01`)],
  ['search-hospital-claims', 'configured search', (s) => s.get(hospitalSearch)],
  ['search-bills', 'bup', (s) => s.get(`${paths.bills}?insurerid=bup`)],
  ['search-bills', 'none', (s) => s.get(`${paths.bills}?insurerid=zzz`)],
  ['get-bill', 'BILL-0001 live', (s) => s.get(paths.bill('BILL-0001', 'false'))],
  ['get-bill', 'BILL-0009 archived', (s) => s.get(paths.bill('BILL-0009', 'true'))],
  ...['1001', '1002', '1003', '1004', '1005', '1006'].map((n): [string, string, Call] => ['get-remittance-details', `BATCH-${n}`, (s) => s.get(paths.batch(`BATCH-${n}`))]),
  ...CODE_SET_NAMES.map((name): [string, string, Call] => ['get-code-set', name, (s) => s.get(withQuery(paths.codeSet(name), { count: '1000' }))]),
  ['get-code-set', 'specialties of CON', (s) => s.get(withQuery(paths.codeSet('practitioner-specialty', 'CON'), { count: '1000' }))],
  ['get-code-set', 'ICD10 page 2', (s) => s.get(withQuery(paths.codeSet('condition-code', 'ICD10'), { page: '2', count: '7' }))],
  ['get-code-set', 'unknown scheme (empty)', (s) => s.get(paths.codeSet('condition-code', 'SNOMED'))],
  ['lookup-practitioners', 'Smith', (s) => s.get(withQuery(paths.lookupPractitioners, { text: 'Smith', count: '50' }))],
  ['lookup-practitioners', 'every practitioner', (s) => s.get(withQuery(paths.lookupPractitioners, { text: 'a', count: '50' }))],
  ['lookup-locations', 'London P', (s) => s.get(withQuery(paths.lookupLocations, { text: 'London', type: 'P', count: '50' }))],
  ['lookup-locations', 'with and without position', (s) => s.get(withQuery(paths.lookupLocations, { text: 'o', count: '50' }))],
  ['list-insurers', 'all', (s) => s.get(paths.insurers)],
  ['list-insurers', 'edi', (s) => s.get(withQuery(paths.insurers, { type: 'edi' }))],
  ['get-insurer-control-parameters', 'INS001', (s) => s.get(withQuery(paths.controlParameters, { insurerId: 'INS001' }))],
  ['search-address', 'Downing Street', (s) => s.get(withQuery(paths.addressSearch, { text: 'Downing Street' }))],
  ['search-address', 'drill into GB|ST|DOWNING', (s) => s.get(withQuery(paths.addressSearch, { text: 'Downing Street', container: 'GB|ST|DOWNING' }))],
  ['retrieve-address', 'GB|RM|A|10001', (s) => s.get(withQuery(paths.addressRetrieve, { id: 'GB|RM|A|10001' }))],
  ['geocode-postcode', 'SW1A 2AA', (s) => s.get(withQuery(paths.geocode, { postcode: 'SW1A 2AA' }))],
  ['validate-postcode', 'valid', (s) => s.get(withQuery(paths.validatePostcode, { postcode: 'SW1A 2AA' }))],
  ['validate-postcode', 'invalid', (s) => s.get(withQuery(paths.validatePostcode, { postcode: 'NOT A POSTCODE' }))],
  ['search-register-practitioners', 'every practitioner', (s) => s.get(withQuery(paths.registerPractitioners, { count: '100' }))],
  ['get-practitioner-photo', 'PR-0001', (s) => s.get(paths.photo('PR-0001'))],
  ['search-register-practitioner-roles', 'every role', (s) => s.get(paths.registerRoles)],
  ['search-register-practitioner-roles', 'near, sorted, with _include', (s) => s.get(withQuery(paths.registerRoles, { near: '51.5074:-0.1278:20:km', _sort: 'distance:asc', _include: 'practitioner:location' }))],
  ['search-register-practitioner-roles', 'distinct-by location', (s) => s.get(withQuery(paths.registerRoles, { 'distinct-by': 'location', _include: 'practitioner:location' }))],
  ['get-booking-practitioner', 'BP-0001', (s) => s.get(paths.bookingPractitioner('BP-0001'))],
  ['search-booking-practitioners', 'every practitioner', (s) => s.get(withQuery(paths.bookingPractitioners, { count: '100' }))],
  ['get-booking-practitioner-role', 'BR-0001', (s) => s.get(paths.bookingRole('BR-0001'))],
  ['search-booking-practitioner-roles', 'every role', (s) => s.get(withQuery(paths.bookingRoles, { count: '100' }))],
];

describe('success bodies match the operation response schema', () => {
  test('every operation with a response schema is exercised', () => {
    const withSchema = SERVED_OPERATIONS.filter((o) => o.responseSchema).map((o) => o.id);
    expect(new Set(SUCCESS.map(([id]) => id))).toEqual(new Set(withSchema));
  });

  test.each(SUCCESS)('%s: %s', async (operationId, _label, call) => {
    const a = await call(sb);
    expect(a.status, a.text.slice(0, 300)).toBe(200);
    const result = validateAgainst(operation(operationId).responseSchema as string, a.json);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  test('every page of every remittance detail search validates', async () => {
    for (const id of ['RS-0002', 'RS-0010', 'RS-0048']) {
      const a = await sb.form(paths.detail(id), { count: '100' });
      expect(validateAgainst('remittance-detail-bundle.schema.json', a.json).errors).toEqual([]);
    }
    const other = await sb.token('sandbox-other');
    const batch = await sb.get(paths.batch('BATCH-2002'), { token: other });
    expect(validateAgainst('batch-detail.schema.json', batch.json).errors).toEqual([]);
  });
});

describe('error bodies are OperationOutcomes (2.3)', () => {
  const ERRORS: [string, Call][] = [
    ['find member no match', (s) => s.findMember('2', { insurerIdentifier: 'ppp', firstInitial: 'Z', lastName: 'Nobody', dateOfBirth: '1900-01-01' })],
    ['find member multiple', (s) => s.findMember('2', { insurerIdentifier: 'nuh', firstInitial: 'A', lastName: 'Jones', dateOfBirth: '1975-09-30' })],
    ['find member without token', (s) => s.findMember('2', {}, { token: null })],
    ['summary empty value', (s) => s.form(paths.summary, { insurerIdentifier: '' })],
    ['detail unknown summary', (s) => s.form(paths.detail('RS-9999'), {})],
    ['bills without insurerid', (s) => s.get(paths.bills)],
    ['unknown bill', (s) => s.get(paths.bill('BILL-9999', 'false'))],
    ['code set with count 1001', (s) => s.get(withQuery(paths.codeSet('condition-code'), { count: '1001' }))],
    ['unknown code set', (s) => s.get(paths.codeSet('no-such-set'))],
    ['lookup without text', (s) => s.get(paths.lookupPractitioners)],
    ['address search without text', (s) => s.get(paths.addressSearch)],
    ['geo-coding of an unknown postcode', (s) => s.get(withQuery(paths.geocode, { postcode: 'NOT A POSTCODE' }))],
    ['register search with an empty value', (s) => s.get(withQuery(paths.registerPractitioners, { gender: '' }))],
    ['photo of an unknown practitioner', (s) => s.get(paths.photo('PR-9999'))],
    ['role distance sort without near', (s) => s.get(withQuery(paths.registerRoles, { _sort: 'distance:asc' }))],
    ['unknown booking practitioner', (s) => s.get(paths.bookingPractitioner('BP-9999'))],
    ['booking search with a malformed _since', (s) => s.get(withQuery(paths.bookingPractitioners, { _since: 'yesterday' }))],
    ['Document 2 operation without token', (s) => s.get(paths.registerRoles, { token: null })],
  ];

  test.each(ERRORS)('%s', async (_label, call) => {
    const a = await call(sb);
    expect(a.status).toBeGreaterThanOrEqual(400);
    expect(validateAgainst('operation-outcome.schema.json', a.json).errors).toEqual([]);
  });
});

describe('schema-breaking faults fail the schema', () => {
  test('control-parameter-missing', async () => {
    const faulty = await TestSandbox.start(['control-parameter-missing']);
    try {
      const a = await faulty.get(withQuery(paths.controlParameters, { insurerId: 'INS001' }));
      expect(a.status).toBe(200);
      expect((a.json as { extension: unknown[] }).extension).toHaveLength(3);
      expect(validateAgainst('insurer-control-parameters.schema.json', a.json).valid).toBe(false);
    } finally {
      await faulty.close();
    }
  });

  test('coverage-missing-policy-expired and bill-bundle-collection', async () => {
    const faulty = await TestSandbox.start(['coverage-missing-policy-expired', 'bill-bundle-collection']);
    try {
      const coverage = await faulty.findMember('2', { insurerIdentifier: 'ppp', firstInitial: 'J', lastName: 'Smith', dateOfBirth: '1980-04-12' });
      expect(validateAgainst('coverage.schema.json', coverage.json).valid).toBe(false);
      const bills = await faulty.get(`${paths.bills}?insurerid=bup`);
      expect(validateAgainst('bill-bundle.schema.json', bills.json).valid).toBe(false);
    } finally {
      await faulty.close();
    }
  });
});
