import { describe, expect, it } from 'vitest';
import { contentTypeIsJson } from './contentTypeIsJson.ts';
import { respondedExchange } from './testing.ts';

const withType = (contentType: string | undefined, body = '{}') =>
  respondedExchange({ body, headers: contentType === undefined ? {} : { 'Content-Type': contentType } });

describe('contentTypeIsJson', () => {
  it.each([
    'application/json',
    'application/fhir+json',
    'application/json; charset=utf-8',
    'Application/FHIR+JSON;fhirVersion=4.0',
    'application/problem+json',
  ])('passes on %s', (type) => {
    expect(contentTypeIsJson.run(withType(type)).outcome).toBe('pass');
  });

  it.each(['text/html', 'text/json', 'application/xml', 'application/jsonp', ''])('fails on %j', (type) => {
    const finding = contentTypeIsJson.run(withType(type));
    expect(finding.outcome).toBe('fail');
    expect(finding.message).toMatch(/^Expected a JSON media type, received /);
  });

  it('fails when the header is missing', () => {
    expect(contentTypeIsJson.run(withType(undefined)).message).toBe('Expected a JSON media type, received <none>');
  });

  it('does not apply to an empty or whitespace body', () => {
    expect(contentTypeIsJson.appliesTo?.(withType('text/plain', ''))).toBe(false);
    expect(contentTypeIsJson.appliesTo?.(withType('text/plain', ' \n'))).toBe(false);
    expect(contentTypeIsJson.appliesTo?.(withType('text/plain', 'x'))).toBe(true);
  });
});
