import { describe, expect, it } from 'vitest';
import { newIdAssigned } from './newIdAssigned.ts';
import { respondedExchange } from './testing.ts';

describe('newIdAssigned', () => {
  it('passes on a non-empty id', () => {
    expect(newIdAssigned.run(respondedExchange({ body: { resourceType: 'Patient', id: 'P1' } })).outcome).toBe('pass');
    expect(newIdAssigned.run(respondedExchange({ body: { resourceType: 'Patient', id: 12 } })).outcome).toBe('pass');
  });
  it('fails without an id', () => {
    expect(newIdAssigned.run(respondedExchange({ body: { resourceType: 'Patient', id: '' } })).outcome).toBe('fail');
    expect(newIdAssigned.run(respondedExchange({ body: { resourceType: 'Patient' } })).message).toMatch(
      /^Expected a new id/,
    );
  });
});
