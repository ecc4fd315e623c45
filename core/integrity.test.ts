import { describe, expect, it } from 'vitest';
import { loadFixture } from './testSupport/resultsFixtures.ts';
import { createHash } from 'node:crypto';
import { canonicalJson, digestOf, integrityOf, sealed, writeCanonicalJson } from './integrity.ts';

describe('canonicalJson', () => {
  it('sorts keys at every level and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 'é' }], c: undefined } })).toBe(
      '{"a":{"d":[1,{"y":"é","z":1}]},"b":1}',
    );
  });

  it('does not depend on key order or white space of the file', () => {
    const a = JSON.parse('{"x": 1, "y": [true, null]}') as unknown;
    const b = JSON.parse('{"y":[true,null],"x":1}') as unknown;
    expect(canonicalJson(a)).toBe(canonicalJson(b));
  });
});

describe('writeCanonicalJson', () => {
  it('writes the same text as canonicalJson, in pieces, and the digest is the digest of that text', () => {
    const value = {
      z: [1, undefined, 'x', { b: [null, true], a: 'é' }],
      a: { big: 'y'.repeat(70_000), n: -1.5 },
      f: () => 1,
    };
    const pieces: string[] = [];
    writeCanonicalJson(value, (p) => pieces.push(p));
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe(canonicalJson(value));
    const results = value as unknown as Parameters<typeof digestOf>[0];
    expect(digestOf(results)).toBe(createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex'));
  });
});

describe('integrity', () => {
  it('is intact when sealed, survives a JSON round trip, and ignores its own member', () => {
    const results = sealed(loadFixture('failing'));
    expect(integrityOf(results)).toEqual({ state: 'intact', digest: results.integrity!.digest });
    const reparsed = JSON.parse(JSON.stringify(results, null, 2)) as typeof results;
    expect(integrityOf(reparsed).state).toBe('intact');
    expect(digestOf(results)).toBe(results.integrity!.digest);
  });

  it('is altered when any value changes, and missing when not sealed', () => {
    const results = sealed(loadFixture('failing'));
    const tampered = { ...results, verdict: 'conformant' as const };
    expect(integrityOf(tampered).state).toBe('altered');
    const message = structuredClone(results);
    message.results[0]!.message += ' ';
    expect(integrityOf(message).state).toBe('altered');
    const { integrity: _drop, ...bare } = results;
    expect(integrityOf({ ...bare }).state).toBe('missing');
  });
});
