import { describe, expect, it } from 'vitest';
import { listMemberEmpty } from './listMemberEmpty.ts';
import { respondedExchange } from './testing.ts';

describe('listMemberEmpty', () => {
  it('passes on an empty list', () => {
    expect(listMemberEmpty('users').run(respondedExchange({ body: { siteId: 'S', users: [] } })).outcome).toBe('pass');
  });
  it('fails on a non-empty or absent list', () => {
    expect(listMemberEmpty('users').run(respondedExchange({ body: { users: [{}] } })).message).toBe(
      'Expected users: [], received 1 items',
    );
    expect(listMemberEmpty('users').run(respondedExchange({ body: {} })).outcome).toBe('fail');
  });
});
