import { describe, expect, it } from 'vitest';
import { clientRefinesAfterMultipleMatch as check } from './clientRefinesAfterMultipleMatch.ts';
import { clientExchange as x } from './testing.ts';

const step1 = 'insurerIdentifier=nuh&firstInitial=A&lastName=Jones&dateOfBirth=1975-09-30';
const multiple = x('find-member-v2', { body: step1, code: 'MULTIPLE_MATCH_FOUND' });

describe('clientRefinesAfterMultipleMatch', () => {
  it('passes a step 2 that adds an optional field', () => {
    const refined = x('find-member-v2', { body: `${step1}&sex=Female&postCode=AB1+2CD` });
    expect(check.run([multiple, refined]).outcome).toBe('pass');
  });

  it('fails a search repeated without the optional fields, and no second step at all', () => {
    expect(check.run([multiple, x('find-member-v2', { body: step1 })]).message).toMatch(/received the search again/);
    expect(check.run([multiple]).message).toBe('Expected a step-2 search after MULTIPLE_MATCH_FOUND, received none');
  });

  it('skips when no step 1 was answered MULTIPLE_MATCH_FOUND', () => {
    expect(check.run([x('find-member-v2', { body: step1 })]).outcome).toBe('skip');
  });
});
