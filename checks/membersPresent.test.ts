import { describe, expect, it } from 'vitest';
import { membersPresent, missingMembers } from './membersPresent.ts';
import { respondedExchange } from './testing.ts';

const check = membersPresent(['user.id', 'user.roles', 'sites[].siteId', 'entry[].resource.meta']);
const run = (body: unknown) => check.run(respondedExchange({ body }));

describe('membersPresent', () => {
  it('passes when every named member is present, an empty list holding nothing to judge', () => {
    const finding = run({ user: { id: 'U1', roles: [] }, sites: [{ siteId: 'S1' }, { siteId: 'S2' }], entry: [] });
    expect(finding).toMatchObject({ outcome: 'pass', message: '4 named members present' });
    expect(membersPresent(['[].id']).run(respondedExchange({ body: [{ id: 1 }, { id: 2 }] })).outcome).toBe('pass');
  });

  it('fails naming each missing member, a null one included', () => {
    const finding = run({ user: { id: null }, sites: [{ siteId: 'S1' }, {}], entry: [{ resource: {} }] });
    expect(finding.outcome).toBe('fail');
    expect(finding.message).toBe(
      'Expected every named member present, received 4 missing: user.id, user.roles, sites[1].siteId, entry[0].resource.meta',
    );
  });

  it('fails on a member that should be a list or an object and is not', () => {
    expect(missingMembers({ sites: 'x' }, 'sites[].siteId')).toEqual(['sites is not a list']);
    expect(missingMembers({ user: 'x' }, 'user.id')).toEqual(['user is not an object']);
    expect(missingMembers('x', '[].id')).toEqual(['/ is not a list']);
  });

  it("does not take inherited keys for the body's own", () => {
    expect(membersPresent(['constructor']).run(respondedExchange({ body: {} })).outcome).toBe('fail');
  });

  it('never throws on hostile bodies', () => {
    expect(run('').outcome).toBe('fail');
    expect(run([]).outcome).toBe('fail');
    expect(check.run(respondedExchange({ body: '{', truncated: true })).outcome).toBe('skip');
    expect(membersPresent(['a']).id).toBe(check.id);
  });
});
