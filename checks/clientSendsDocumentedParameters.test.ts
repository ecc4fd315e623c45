import { describe, expect, it } from 'vitest';
import type { ClientRequest } from '../core/clientRequest.ts';
import { operation } from '../spec/operations.ts';
import { clientSendsDocumentedParameters as check } from './clientSendsDocumentedParameters.ts';

const findMember = (body: string): ClientRequest => ({
  operation: operation('find-member-v2'),
  method: 'POST',
  rawPath: '/membership/find-member',
  rawQuery: '',
  headers: {},
  body,
});

describe('clientSendsDocumentedParameters', () => {
  it('passes the required fields in their documented forms, an insurer code in any case', () => {
    expect(
      check.run(findMember('insurerIdentifier=NUH&firstInitial=A&lastName=Jones&dateOfBirth=1975-09-30')).outcome,
    ).toBe('pass');
  });

  it('fails a missing required field and a date not written YYYY-MM-DD', () => {
    const f = check.run(findMember('insurerIdentifier=nuh&firstInitial=A&dateOfBirth=30/09/1975'));
    expect(f.outcome).toBe('fail');
    expect(f.message).toBe(
      'Expected every required parameter in its documented form, received no lastName; dateOfBirth="30/09/1975" (not of the form date)',
    );
  });

  it('fails an insurer outside the operation list', () => {
    expect(
      check.run(findMember('insurerIdentifier=bup&firstInitial=A&lastName=J&dateOfBirth=1975-09-30')).message,
    ).toMatch(/insurerIdentifier="bup" \(not one of ppp/);
  });
});
