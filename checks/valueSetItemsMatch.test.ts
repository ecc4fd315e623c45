import { describe, expect, it } from 'vitest';
import { respondedExchange, valueSet } from './testing.ts';
import { valueSetItemsMatch } from './valueSetItemsMatch.ts';

const updated = (code: string, at?: unknown) => ({
  system: 'ISC',
  code,
  display: code,
  ...(at === undefined ? {} : { extension: [{ id: 'lastUpdated', valueDateTime: at }] }),
});
const lastUpdated = (item: Record<string, unknown>): string | undefined => {
  const ext = (item.extension as Array<Record<string, unknown>>).find((e) => e.id === 'lastUpdated');
  return typeof ext?.valueDateTime === 'string' ? ext.valueDateTime : undefined;
};
const since = (at: string) => (item: Record<string, unknown>) => {
  const value = lastUpdated(item);
  return value === undefined ? undefined : Date.parse(value) >= Date.parse(at);
};
const check = valueSetItemsMatch('lastUpdated at or after 2024-01-01', since('2024-01-01T00:00:00Z'));

describe('valueSetItemsMatch', () => {
  it('passes when every code matches', () => {
    const finding = check.run(
      respondedExchange({
        body: valueSet([updated('a', '2024-02-01T00:00:00Z'), updated('b', '2024-01-01T00:00:00Z')]),
      }),
    );
    expect(finding.message).toBe('2 codes match lastUpdated at or after 2024-01-01');
  });

  it('fails naming the offending codes', () => {
    const body = valueSet([
      updated('a', '2023-01-01T00:00:00Z'),
      updated('b', '2024-05-01T00:00:00Z'),
      { code: 'c', extension: [{ id: 'lastUpdated', valueDateTime: '2020-01-01' }] },
    ]);
    expect(check.run(respondedExchange({ body })).message).toBe(
      'Expected every code to match lastUpdated at or after 2024-01-01, received 2 of 3 that do not: ISC|a, |c',
    );
  });

  it('does not count codes it cannot judge, nor non-object items, nor a predicate that throws', () => {
    const body = valueSet([
      updated('a', '2024-02-01T00:00:00Z'),
      updated('b'),
      null,
      'x',
      { code: 'c', extension: 'odd' },
    ]);
    const finding = check.run(respondedExchange({ body }));
    expect(finding.outcome).toBe('pass');
    expect(finding.message).toBe('1 code matches lastUpdated at or after 2024-01-01 (4 could not be judged)');
  });

  it('skips when nothing could be judged, passes an empty code set', () => {
    expect(check.run(respondedExchange({ body: valueSet([updated('a'), updated('b')]) })).outcome).toBe('skip');
    expect(check.run(respondedExchange({ body: valueSet([]) })).message).toBe('no codes');
  });

  it('treats non-Boolean verdicts as unable to judge', () => {
    const odd = valueSetItemsMatch('odd', () => 'yes' as unknown as boolean);
    expect(odd.run(respondedExchange({ body: valueSet([updated('a')]) })).outcome).toBe('skip');
  });

  it('fails on a body that is not a ValueSet', () => {
    expect(check.run(respondedExchange({ body: { resourceType: 'Bundle', entry: [] } })).outcome).toBe('fail');
    expect(check.run(respondedExchange({ body: '' })).outcome).toBe('fail');
  });
});
