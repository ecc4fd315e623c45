/**
 * The sandbox's success bodies validate against each operation's response schema (schemas/,
 * through core/schemaRegistry.ts), and its error bodies against the OperationOutcome schema.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { validateAgainst } from '../core/schemaRegistry.ts';
import { operation, operations } from '../spec/operations.ts';
import { TestSandbox, paths, type Answer } from './testSupport.ts';

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
];

describe('success bodies match the operation response schema', () => {
  test('every operation with a response schema is exercised', () => {
    const withSchema = operations.filter((o) => o.document === 'D1' && o.responseSchema).map((o) => o.id);
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
  ];

  test.each(ERRORS)('%s', async (_label, call) => {
    const a = await call(sb);
    expect(a.status).toBeGreaterThanOrEqual(400);
    expect(validateAgainst('operation-outcome.schema.json', a.json).errors).toEqual([]);
  });
});

describe('schema-breaking faults fail the schema', () => {
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
