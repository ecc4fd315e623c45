import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { REF_URL } from '../resources/urls.ts';
import { TestSandbox, errorCode, extension, type Answer } from '../testSupport.ts';
import { CONTACT_INSURER_ADVICE, REFINE_ADVICE, V1_MULTIPLE_ADVICE } from './findMember.ts';

type J = any;

let sb: TestSandbox;
beforeAll(async () => {
  sb = await TestSandbox.start();
});
afterAll(() => sb.close());

const single = { insurerIdentifier: 'ppp', firstInitial: 'J', lastName: 'Smith', dateOfBirth: '1980-04-12' };
const jones = { insurerIdentifier: 'nuh', firstInitial: 'A', lastName: 'Jones', dateOfBirth: '1975-09-30' };
const jonesRefine = { sex: 'Female', postCode: 'AB1 2CD', policyActiveOn: '2026-06-01' };
const brown = { insurerIdentifier: 'wpa', firstInitial: 'M', lastName: 'Brown', dateOfBirth: '1990-01-15' };
const brownRefine = { sex: 'Male', postCode: 'LS1 4AP', policyActiveOn: '2026-06-01' };

function expectOutcome(a: Answer, status: number, code: string): J {
  expect(a.status).toBe(status);
  expect(a.headers.get('content-type')).toBe('application/json; charset=utf-8');
  const b: J = a.json;
  expect(b).toEqual({
    resourceType: 'OperationOutcome',
    issue: [
      {
        severity: 'error',
        code: 'exception',
        details: { coding: [{ system: `${REF_URL}/error-code`, code, display: expect.any(String) }] },
        diagnostics: expect.stringMatching(/\S/),
        location: ['Coverage'],
        expression: [],
      },
    ],
  });
  return b;
}

describe('Find Member version 2 (4.2)', () => {
  test('one match returns the full Coverage with 200', async () => {
    const a = await sb.findMember('2', single);
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const c: J = a.json;
    expect(c.resourceType).toBe('Coverage');
    expect(c.id).toBe('COV-0001');
    const patient = c.contained.find((r: J) => r.resourceType === 'Patient');
    const org = c.contained.find((r: J) => r.resourceType === 'Organization');
    expect(c.beneficiary.reference).toBe(`#${patient.id}`);
    expect(c.payor).toEqual([{ reference: `#${org.id}` }]);
    expect(patient).toMatchObject({
      name: [{ family: 'Smith', given: ['John'] }],
      gender: 'male',
      birthDate: '1980-04-12',
    });
    expect(Object.keys(patient.address[0]).sort()).toEqual([
      'city',
      'country',
      'district',
      'line',
      'postalCode',
      'state',
    ]);
    expect(extension(patient, 'genderIdentity')).toBe('Man');
    expect(extension(patient, 'otherInitials')).toBe('R');
    expect(org.name).toBe('AXA PPP Healthcare');
    expect(org.telecom.map((t: J) => t.system).sort()).toEqual(['email', 'phone']);
    expect(c.identifier).toEqual([{ id: 'membershipNumber', value: 'PPP100001' }]);
    expect(c.period).toEqual({ start: expect.stringMatching(/T/), end: expect.stringMatching(/T/) });
    const names = c.extension.map((e: J) => e.url.replace(`${REF_URL}/extension/`, '').replace(`${REF_URL}/`, ''));
    expect(names.sort()).toEqual(
      [
        'groupId',
        'policyExpired',
        'expiryDate',
        'coverType',
        'insuranceSchemePlan',
        'doNotReject',
        'benefitLimit',
        'benefitUsed',
        'benefitUsedAsOf',
        'memberExcess',
        'memberExcessType',
        'excessUsed',
        'excessUsedAsOf',
        'memberCoPayment',
        'memberCoPaymentType',
        'currency',
      ].sort(),
    );
    expect(c.extension.find((e: J) => e.url === `${REF_URL}/insuranceSchemePlan`)).toBeDefined();
    expect(extension(c, 'policyExpired')).toBe('No');
    expect(extension(c, 'memberCoPayment')).toEqual({ value: 50, currency: 'GBP' });
    expect(extension(c, 'memberCoPaymentType')).toBe('Monetary value');
  });

  test('step 1 with several matches asks to refine; step 2 resolves to one (percentage co-payment)', async () => {
    const step1 = expectOutcome(await sb.findMember('2', jones), 400, 'MULTIPLE_MATCH_FOUND');
    expect(step1.issue[0].diagnostics).toBe(REFINE_ADVICE);
    const step2 = await sb.findMember('2', { ...jones, ...jonesRefine });
    expect(step2.status).toBe(200);
    const c: J = step2.json;
    expect(c.id).toBe('COV-0002');
    const copay = c.extension.find((e: J) => e.url.endsWith('/memberCoPayment'));
    expect(copay).toEqual({ url: `${REF_URL}/extension/memberCoPayment`, valueDecimal: 10 });
    expect(extension(c, 'memberCoPaymentType')).toBe('Percentage');
  });

  test('step 2 with several matches advises contacting the insurer', async () => {
    expect(errorCode((await sb.findMember('2', brown)).json)).toBe('MULTIPLE_MATCH_FOUND');
    const b = expectOutcome(await sb.findMember('2', { ...brown, ...brownRefine }), 400, 'MULTIPLE_MATCH_FOUND');
    expect(b.issue[0].diagnostics).toBe(CONTACT_INSURER_ADVICE);
  });

  test('any single optional field makes it step 2', async () => {
    const b = expectOutcome(await sb.findMember('2', { ...brown, sex: 'Male' }), 400, 'MULTIPLE_MATCH_FOUND');
    expect(b.issue[0].diagnostics).toBe(CONTACT_INSURER_ADVICE);
  });

  test('no match is 400 NO_MATCH_FOUND', async () => {
    expectOutcome(
      await sb.findMember('2', {
        insurerIdentifier: 'ppp',
        firstInitial: 'Z',
        lastName: 'Nobody',
        dateOfBirth: '1900-01-01',
      }),
      400,
      'NO_MATCH_FOUND',
    );
  });

  test('names and sex match ignoring case, post codes ignoring spaces and case', async () => {
    expect((await sb.findMember('2', { ...single, firstInitial: 'j', lastName: 'SMITH' })).status).toBe(200);
    const a = await sb.findMember('2', { ...jones, sex: 'female', postCode: 'ab12cd', policyActiveOn: '2026-06-01' });
    expect((a.json as J).id).toBe('COV-0002');
  });

  test('policyActiveOn outside the coverage period excludes the member', async () => {
    expectOutcome(await sb.findMember('2', { ...jones, policyActiveOn: '2025-06-01' }), 400, 'NO_MATCH_FOUND');
  });

  test.each(['insurerIdentifier', 'firstInitial', 'lastName', 'dateOfBirth'])(
    'missing %s is 400 MSG_MISSING_MANDATORY_PARAM',
    async (field) => {
      const fields: Record<string, string> = { ...single };
      delete fields[field];
      expectOutcome(await sb.findMember('2', fields), 400, 'MSG_MISSING_MANDATORY_PARAM');
    },
  );

  test.each(['insurerIdentifier', 'firstInitial', 'lastName', 'dateOfBirth'])(
    'empty %s counts as missing (DEC-D1-17)',
    async (field) => {
      expectOutcome(await sb.findMember('2', { ...single, [field]: '' }), 400, 'MSG_MISSING_MANDATORY_PARAM');
    },
  );

  test.each([
    ['dateOfBirth', '12/04/1980'],
    ['dateOfBirth', '1980-02-30'],
    ['policyActiveOn', '2026-6-1'],
  ])('%s %s is 422 MSG_PARAM_INVALID', async (field, value) => {
    expectOutcome(await sb.findMember('2', { ...single, [field]: value }), 422, 'MSG_PARAM_INVALID');
  });

  test.each(['bup', 'xyz', 'PPP'])(
    'insurer %s outside the version 2 list is 422 MSG_PARAM_INVALID (DEC-D1-19)',
    async (insurer) => {
      expectOutcome(await sb.findMember('2', { ...single, insurerIdentifier: insurer }), 422, 'MSG_PARAM_INVALID');
    },
  );

  test('cin is a version 2 insurer', async () => {
    const a = await sb.findMember('2', {
      insurerIdentifier: 'cin',
      firstInitial: 'O',
      lastName: 'Green',
      dateOfBirth: '1993-06-06',
    });
    expect((a.json as J).id).toBe('COV-0017');
  });
});

describe('Find Member version 1 (4.1)', () => {
  test('membershipNumber alone matches one member', async () => {
    const a = await sb.findMember('1', { insurerIdentifier: 'bup', membershipNumber: 'BUP100001' });
    expect(a.status).toBe(200);
    expect((a.json as J).id).toBe('COV-0007');
  });

  test('lastName with dateOfBirth matching two members is MULTIPLE_MATCH_FOUND', async () => {
    const b = expectOutcome(
      await sb.findMember('1', { insurerIdentifier: 'bup', lastName: 'Taylor', dateOfBirth: '1985-05-05' }),
      400,
      'MULTIPLE_MATCH_FOUND',
    );
    expect(b.issue[0].diagnostics).toBe(V1_MULTIPLE_ADVICE);
  });

  test('extra fields narrow a version 1 search', async () => {
    const a = await sb.findMember('1', {
      insurerIdentifier: 'bup',
      lastName: 'Taylor',
      dateOfBirth: '1985-05-05',
      firstInitial: 'S',
      sex: 'Male',
    });
    expect((a.json as J).id).toBe('COV-0008');
    const g = await sb.findMember('1', {
      insurerIdentifier: 'bup',
      membershipNumber: 'BUP100001',
      groupId: 'GRP-BUP-11',
    });
    expect((g.json as J).id).toBe('COV-0007');
  });

  test('an unknown member is 400 NO_MATCH_FOUND', async () => {
    expectOutcome(
      await sb.findMember('1', { insurerIdentifier: 'bup', membershipNumber: 'BUP999999' }),
      400,
      'NO_MATCH_FOUND',
    );
  });

  test('insurerIdentifier is required', async () => {
    expectOutcome(await sb.findMember('1', { membershipNumber: 'BUP100001' }), 400, 'MSG_MISSING_MANDATORY_PARAM');
  });

  test('neither membershipNumber nor lastName with dateOfBirth is 400 (DEC-D1-18)', async () => {
    expectOutcome(
      await sb.findMember('1', { insurerIdentifier: 'bup', lastName: 'Taylor' }),
      400,
      'MSG_MISSING_MANDATORY_PARAM',
    );
    expectOutcome(
      await sb.findMember('1', { insurerIdentifier: 'bup', membershipNumber: '' }),
      400,
      'MSG_MISSING_MANDATORY_PARAM',
    );
  });

  test('cin is not a version 1 insurer (DEC-D1-19)', async () => {
    expectOutcome(
      await sb.findMember('1', { insurerIdentifier: 'cin', membershipNumber: 'CIN100001' }),
      422,
      'MSG_PARAM_INVALID',
    );
  });
});

describe('Find Member headers (DEC-D1-20, -21)', () => {
  test('a missing SVC-API-Version is 400, an unknown one 422', async () => {
    expectOutcome(await sb.findMember(null, single), 400, 'MSG_MISSING_MANDATORY_PARAM');
    expectOutcome(await sb.findMember('3', single), 422, 'MSG_PARAM_INVALID');
  });

  test('no token or an unknown token is 401 MSG_UNAUTHORIZED', async () => {
    const none = expectOutcome(await sb.findMember('2', single, { token: null }), 401, 'MSG_UNAUTHORIZED');
    expect(none).toBeDefined();
    expectOutcome(await sb.findMember('2', single, { token: 'not-a-token' }), 401, 'MSG_UNAUTHORIZED');
  });

  test('a missing or empty SU-SiteId is 400 MSG_MISSING_MANDATORY_PARAM', async () => {
    expectOutcome(await sb.findMember('2', single, { site: null }), 400, 'MSG_MISSING_MANDATORY_PARAM');
    expectOutcome(await sb.findMember('2', single, { site: '' }), 400, 'MSG_MISSING_MANDATORY_PARAM');
  });

  test('a site the token may not use is 403 MSG_FORBIDDEN', async () => {
    expectOutcome(await sb.findMember('2', single, { site: 'SITE002' }), 403, 'MSG_FORBIDDEN');
    const other = await sb.token('sandbox-other');
    expect((await sb.findMember('2', single, { token: other, site: 'SITE002' })).status).toBe(200);
  });

  test('a body that is not form-encoded is 400 MSG_CANT_PARSE_CONTENT', async () => {
    const a = await sb.request('POST', '/membership/find-member', {
      headers: {
        authorization: `Bearer ${await sb.token()}`,
        'su-siteid': 'SITE001',
        'svc-api-version': '2',
        'content-type': 'application/json',
      },
      body: JSON.stringify(single),
    });
    expectOutcome(a, 400, 'MSG_CANT_PARSE_CONTENT');
  });

  test('the form content type may carry a charset', async () => {
    const a = await sb.findMember('2', single, {
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
    });
    expect(a.status).toBe(200);
  });
});
