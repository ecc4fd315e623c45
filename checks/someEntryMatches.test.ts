import { describe, expect, it } from 'vitest';
import { someEntryMatches } from './someEntryMatches.ts';
import { respondedExchange } from './testing.ts';

const check = someEntryMatches('holding code S1', (r) => r.code === 'S1', { resourceType: 'Contract' });
const bundle = (...resources: unknown[]) =>
  respondedExchange({ body: { resourceType: 'Bundle', entry: resources.map((resource) => ({ resource })) } });

describe('someEntryMatches', () => {
  it('passes when one entry of the type satisfies the predicate', () => {
    expect(
      check.run(
        bundle({ resourceType: 'Contract', id: 'c1', code: 'S0' }, { resourceType: 'Contract', id: 'c2', code: 'S1' }),
      ),
    ).toMatchObject({ outcome: 'pass', message: 'Contract/c2 is holding code S1' });
  });

  it('fails when none does, other types not counting', () => {
    const finding = check.run(
      bundle({ resourceType: 'Basic', id: 'b', code: 'S1' }, { resourceType: 'Contract', id: 'c1', code: 'S0' }),
    );
    expect(finding).toMatchObject({
      outcome: 'fail',
      message: 'Expected an entry holding code S1, received none among 1',
    });
    expect(check.run(bundle()).outcome).toBe('fail');
  });

  it('never throws on hostile bodies or predicates', () => {
    const throwing = someEntryMatches('odd', () => {
      throw new Error('boom');
    });
    expect(throwing.run(bundle({ resourceType: 'Contract', id: 'c' })).outcome).toBe('fail');
    expect(check.run(respondedExchange({ body: [] })).outcome).toBe('fail');
    expect(check.run(respondedExchange({ body: '{', truncated: true })).outcome).toBe('skip');
    expect(someEntryMatches('x', () => true).id).toBe(check.id);
  });
});
