import { describe, expect, it } from 'vitest';
import { coversAll } from './coversAll.ts';
import { roleReferences } from './roleReferences.ts';
import { respondedExchange, roleBundle } from './testing.ts';

const role = (id: string, practitioner: string, ...locations: string[]) => ({
  resourceType: 'PractitionerRole',
  id,
  practitioner: { reference: practitioner },
  location: locations.map((reference) => ({ reference })),
});
const page = (...roles: unknown[]) =>
  respondedExchange({ body: roleBundle(roles, [{ resourceType: 'Practitioner', id: 'p9' }]) });
const expected = new Set(['Practitioner/p1', 'Practitioner/p2']);

describe('coversAll', () => {
  it('passes when every expected practitioner appears (default key)', () => {
    expect(
      coversAll.run({
        distinct: page(role('r1', 'Practitioner/p1'), role('r2', 'https://t.example/Practitioner/p2')),
        expected,
      }).message,
    ).toBe('all 2 expected keys among the distinct result');
  });

  it('fails naming the missing keys; included resources do not count', () => {
    const finding = coversAll.run({
      distinct: page(role('r1', 'Practitioner/p1')),
      expected: new Set([...expected, 'Practitioner/p9']),
    });
    expect(finding.message).toBe(
      'Expected all 3 keys of the plain result in the distinct result, received 2 missing: Practitioner/p2, Practitioner/p9',
    );
  });

  it('reads all pages of the distinct result', () => {
    expect(
      coversAll.run({ distinct: [page(role('r1', 'Practitioner/p1')), page(role('r2', 'Practitioner/p2'))], expected })
        .outcome,
    ).toBe('pass');
  });

  it('takes a key function, e.g. location references', () => {
    const keyOf = (r: Record<string, unknown>) => roleReferences(r, 'location');
    const distinct = page(role('r1', 'Practitioner/p1', 'Location/l1', 'Location/l2'));
    expect(coversAll.run({ distinct, expected: new Set(['Location/l1', 'Location/l2']), keyOf }).outcome).toBe('pass');
    expect(coversAll.run({ distinct, expected: new Set(['Location/l3']), keyOf }).outcome).toBe('fail');
  });

  it('survives a key function that throws or returns odd values', () => {
    const throwing = () => {
      throw new Error('boom');
    };
    expect(coversAll.run({ distinct: page(role('r1', 'Practitioner/p1')), expected, keyOf: throwing }).outcome).toBe(
      'fail',
    );
    const odd = (() => [5, 'Practitioner/p1', null, 'Practitioner/p2']) as unknown as (
      r: Record<string, unknown>,
    ) => string[];
    expect(coversAll.run({ distinct: page(role('r1', 'x')), expected, keyOf: odd }).outcome).toBe('pass');
    expect(coversAll.run({ distinct: page(role('r1', 'x')), expected: new Set(['k']), keyOf: () => 'k' }).outcome).toBe(
      'pass',
    );
  });

  it('passes when nothing is expected, skips without pages', () => {
    expect(coversAll.run({ distinct: page(), expected: new Set() }).message).toBe('nothing expected');
    expect(coversAll.run({ distinct: [], expected }).outcome).toBe('skip');
  });

  it('fails on an unreadable page, skips a truncated one', () => {
    expect(
      coversAll.run({
        distinct: [page(role('r1', 'Practitioner/p1')), respondedExchange({ status: 500, body: '' })],
        expected,
      }).message,
    ).toBe('Expected a readable Bundle on every page of the distinct result, received an empty body on page 2');
    expect(coversAll.run({ distinct: respondedExchange({ body: '{', truncated: true }), expected }).outcome).toBe(
      'skip',
    );
  });
});
