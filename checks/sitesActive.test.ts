import { describe, expect, it } from 'vitest';
import { sitesActive } from './sitesActive.ts';
import { respondedExchange } from './testing.ts';

describe('sitesActive', () => {
  const v1 = sitesActive({ list: '[]', idMember: 'id', statusRequired: true });
  it('passes on ACTIVE in any letter case (DEC-D3-26)', () => {
    expect(
      v1.run(
        respondedExchange({
          body: [
            { id: 'S1', status: 'ACTIVE' },
            { id: 'S2', status: 'Active' },
            { id: 'S3', status: 'active' },
          ],
        }),
      ).outcome,
    ).toBe('pass');
  });
  it('fails on another status, or on the configured inactive site', () => {
    expect(v1.run(respondedExchange({ body: [{ id: 'S1', status: 'INACTIVE' }] })).outcome).toBe('fail');
    const details = sitesActive({ list: 'sites', idMember: 'siteId', statusRequired: false, inactiveId: 'S9' });
    expect(details.run(respondedExchange({ body: { sites: [{ siteId: 'S1' }] } })).outcome).toBe('pass');
    expect(details.run(respondedExchange({ body: { sites: [{ siteId: 'S9' }] } })).message).toContain('S9');
  });
});
