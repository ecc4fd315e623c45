import { describe, expect, it } from 'vitest';
import { singleEntryWithId } from './singleEntryWithId.ts';
import { bundle, respondedExchange } from './testing.ts';

const practitioner = (identifierValue: unknown, id?: unknown) => ({
  resourceType: 'Practitioner',
  ...(id === undefined ? {} : { id }),
  identifier: [
    { id: 'external_identifier', value: 'E9' },
    { id: 'booking_identifier', system: 'https://b.example', value: identifierValue },
  ],
});
const run = (id: string, body: unknown) => singleEntryWithId(id).run(respondedExchange({ body }));

describe('singleEntryWithId', () => {
  it('passes on one entry with the id or the booking_identifier', () => {
    expect(run('r1', bundle([{ resourceType: 'PractitionerRole', id: 'r1' }])).message).toBe('one entry, id "r1"');
    expect(run('p1', bundle([practitioner('p1', 'internal-7')])).message).toBe('one entry, booking_identifier "p1"');
    expect(run('7', bundle([{ resourceType: 'PractitionerRole', id: 7 }])).outcome).toBe('pass');
  });

  it('fails on zero or several entries', () => {
    expect(run('p1', bundle([])).message).toBe('Expected exactly 1 entry, received 0');
    expect(run('p1', { resourceType: 'Bundle' }).message).toBe('Expected exactly 1 entry, received 0');
    expect(run('p1', bundle([practitioner('p1'), practitioner('p1')])).message).toBe(
      'Expected exactly 1 entry, received 2',
    );
  });

  it('fails on another record', () => {
    expect(run('p1', bundle([practitioner('p2', 'x')])).message).toBe(
      'Expected the entry to have id or booking_identifier "p1", received id "x" and booking_identifier "p2"',
    );
    expect(run('r1', bundle([{ resourceType: 'PractitionerRole', id: 'r2' }])).message).toBe(
      'Expected the entry to have id or booking_identifier "r1", received id "r2"',
    );
    // Only the booking_identifier counts, not other identifiers.
    expect(run('E9', bundle([practitioner('p1')])).outcome).toBe('fail');
  });

  it('fails on an entry without a resource and on odd identifiers', () => {
    expect(run('p1', { resourceType: 'Bundle', entry: [{ fullUrl: 'x' }] }).message).toBe(
      'Expected the entry to hold a resource, received {"fullUrl":"x"}',
    );
    expect(run('p1', bundle([{ resourceType: 'Practitioner', identifier: 'p1' }])).outcome).toBe('fail');
    expect(
      run('p1', bundle([{ resourceType: 'Practitioner', identifier: [null, { id: 'booking_identifier', value: 1 }] }]))
        .outcome,
    ).toBe('fail');
  });

  it('fails on a bare resource instead of a Bundle', () => {
    expect(run('p1', practitioner('p1')).message).toBe('Expected a Bundle, received resourceType "Practitioner"');
  });
});
