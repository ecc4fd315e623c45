import { describe, expect, it } from 'vitest';
import { filteredComplete } from './filteredComplete.ts';
import { respondedExchange } from './testing.ts';

const bundle = (...ids: string[]) =>
  respondedExchange({
    body: { resourceType: 'Bundle', entry: ids.map((id) => ({ resource: { resourceType: 'Organization', id } })) },
  });

describe('filteredComplete', () => {
  it('passes when every expected record is returned, extra ones allowed', () => {
    expect(
      filteredComplete.run({ filtered: bundle('1', '2', '3'), expected: new Set(['Organization/1', 'Organization/3']) })
        .outcome,
    ).toBe('pass');
    expect(filteredComplete.run({ filtered: bundle(), expected: new Set() }).outcome).toBe('pass');
  });

  it('fails naming the qualifying records left out', () => {
    const finding = filteredComplete.run({
      filtered: bundle('1'),
      expected: new Set(['Organization/1', 'Organization/2']),
    });
    expect(finding).toMatchObject({
      outcome: 'fail',
      message: 'Expected all 2 qualifying records in the filtered result, received 1 missing: Organization/2',
    });
  });

  it('never throws on hostile bodies', () => {
    expect(filteredComplete.run({ filtered: respondedExchange({ body: [] }), expected: new Set(['x']) }).outcome).toBe(
      'fail',
    );
    expect(
      filteredComplete.run({
        filtered: respondedExchange({ body: { resourceType: 'Bundle', entry: [null, { resource: 3 }] } }),
        expected: new Set(['x']),
      }).outcome,
    ).toBe('fail');
    expect(
      filteredComplete.run({ filtered: respondedExchange({ body: '{', truncated: true }), expected: new Set(['x']) })
        .outcome,
    ).toBe('skip');
  });
});
