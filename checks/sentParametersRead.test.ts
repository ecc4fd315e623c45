import { describe, expect, it } from 'vitest';
import { operation } from '../spec/operations.ts';
import { sentParametersRead } from './sentParametersRead.ts';
import { respondedExchange } from './testing.ts';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const v2Fields = 'insurerIdentifier=ppp&firstInitial=J&lastName=Smith&dateOfBirth=1980-04-12';
const v2 = (status: number, body: unknown, requestBody = v2Fields) => {
  const x = respondedExchange({ status, body, method: 'POST', url: 'http://t/membership/find-member', requestBody });
  return { ...x, request: { ...x.request, headers: FORM } };
};
const missing = {
  resourceType: 'OperationOutcome',
  issue: [{ severity: 'error', code: 'required', details: { coding: [{ code: 'MSG_MISSING_MANDATORY_PARAM' }] } }],
};

describe('sentParametersRead', () => {
  const check = sentParametersRead(operation('find-member-v2'));

  it('fails a missing-parameter refusal of a form that carried every required field', () => {
    const r = check.run(v2(400, missing));
    expect(r.outcome).toBe('fail');
    expect(r.message).toMatch(
      /^Expected the form body fields insurerIdentifier, firstInitial, lastName, dateOfBirth to be read, received HTTP 400 MSG_MISSING_MANDATORY_PARAM/,
    );
  });

  it('passes a success and any other refusal', () => {
    expect(check.run(v2(200, { resourceType: 'Coverage' })).outcome).toBe('pass');
    expect(check.run(v2(400, { code: 'NO_MATCH_FOUND' })).outcome).toBe('pass');
  });

  it('applies only where every required parameter was sent where the documents send it', () => {
    expect(check.appliesTo?.(v2(400, missing))).toBe(true);
    expect(check.appliesTo?.(v2(400, missing, 'insurerIdentifier=ppp&lastName=Smith'))).toBe(false);
    const asQuery = {
      ...v2(400, missing, ''),
      request: { method: 'POST', url: `http://t/membership/find-member?${v2Fields}`, headers: {}, body: '' },
    };
    expect(check.appliesTo?.(asQuery)).toBe(false);
  });

  it('never applies where the need of a parameter depends on the insurer (DEC-D1-18)', () => {
    const v1 = sentParametersRead(operation('find-member-v1'));
    expect(v1.appliesTo?.(v2(400, missing))).toBe(false);
  });

  it('reads the query of a GET', () => {
    const bills = sentParametersRead(operation('search-bills'));
    const x = respondedExchange({
      status: 400,
      body: missing,
      method: 'GET',
      url: 'http://t/claims/claim/search?insurerid=bup',
    });
    expect(bills.appliesTo?.(x)).toBe(true);
    expect(bills.run(x).outcome).toBe('fail');
  });
});
