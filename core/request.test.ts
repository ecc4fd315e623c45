import { describe, expect, it } from 'vitest';
import { operation } from '../spec/operations.ts';
import { acceptFor } from './request.ts';

describe('acceptFor (DEC-R-08)', () => {
  it('names application/fhir+json first for an operation whose documented media type it is', () => {
    expect(acceptFor(operation('list-pending-remittances'))).toBe('application/fhir+json, application/json;q=0.9');
    expect(acceptFor(operation('get-patient'))).toBe('application/fhir+json, application/json;q=0.9');
  });

  it('names application/json for a plain JSON operation', () => {
    expect(acceptFor(operation('search-address'))).toBe('application/json');
    expect(acceptFor(operation('search-authorisation'))).toBe('application/json');
  });
});
