import { describe, expect, it } from 'vitest';
import { mediaTypeIs } from './mediaTypeIs.ts';
import { respondedExchange } from './testing.ts';

const withType = (contentType: string | undefined, body = '{}') =>
  respondedExchange({ body, headers: contentType === undefined ? {} : { 'Content-Type': contentType } });

describe('mediaTypeIs', () => {
  const fhir = mediaTypeIs('application/fhir+json');

  it.each([
    'application/fhir+json',
    'Application/FHIR+JSON',
    'application/fhir+json; charset=utf-8',
    ' application/fhir+json ;fhirVersion=4.0',
  ])('passes on %j', (type) => {
    expect(fhir.run(withType(type)).outcome).toBe('pass');
  });

  it.each([
    'application/json',
    'application/fhir+json+xml',
    'application/fhir',
    'text/html',
    '',
    'application/fhir+jsonx',
  ])('fails on %j', (type) => {
    const finding = fhir.run(withType(type));
    expect(finding.outcome).toBe('fail');
    expect(finding.message).toBe(`Expected media type application/fhir+json, received ${JSON.stringify(type)}`);
  });

  it('fails when the header is missing', () => {
    expect(mediaTypeIs('application/json').run(withType(undefined)).message).toBe(
      'Expected media type application/json, received <none>',
    );
  });

  it('compares the parameter ignoring case', () => {
    expect(mediaTypeIs('Application/JSON').run(withType('application/json')).outcome).toBe('pass');
  });

  it('does not apply to an empty or whitespace body', () => {
    expect(fhir.appliesTo?.(withType('text/plain', ''))).toBe(false);
    expect(fhir.appliesTo?.(withType('text/plain', ' \r\n'))).toBe(false);
    expect(fhir.appliesTo?.(withType('text/plain', 'x'))).toBe(true);
  });
});
