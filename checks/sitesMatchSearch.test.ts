import { describe, expect, it } from 'vitest';
import { sitesMatchSearch } from './sitesMatchSearch.ts';
import { respondedExchange } from './testing.ts';

const v2 = (sites: unknown[]) => respondedExchange({ body: { pagination: { totalRecords: sites.length }, sites } });

describe('sitesMatchSearch', () => {
  const check = sitesMatchSearch('Clinic');

  it('passes when names contain the text or ids equal it, ignoring case', () => {
    const finding = check.run(
      v2([
        { id: 'S1', name: 'North clinic' },
        { id: 'clinic', name: 'Head office' },
        { id: 'S3', name: 'CLINICAL unit' },
      ]),
    );
    expect(finding).toMatchObject({ outcome: 'pass', message: '3 sites match "Clinic"' });
    expect(sitesMatchSearch('s1').run(v2([{ id: 'S1', name: 'Head office' }])).outcome).toBe('pass');
    expect(sitesMatchSearch('42').run(v2([{ id: 42, name: 'Head office' }])).outcome).toBe('pass');
  });

  it('passes on an empty list and reads a bare array', () => {
    expect(check.run(v2([])).message).toBe('no sites');
    expect(check.run(respondedExchange({ body: [{ id: 'S1', name: 'Clinic' }] })).outcome).toBe('pass');
  });

  it('fails on a site whose id only contains the text', () => {
    expect(sitesMatchSearch('S1').run(v2([{ id: 'S10', name: 'Head office' }])).message).toBe(
      'Expected every site to have id "S1" or a name containing it (ignoring case), received 1 of 1 that do not: S10 "Head office"',
    );
  });

  it('fails on unrelated sites and on odd items', () => {
    const finding = check.run(
      v2([{ id: 'S1', name: 'Clinic' }, { id: 'S2', name: 'Pharmacy' }, null, 'Clinic', { name: 7 }]),
    );
    expect(finding.message).toBe(
      'Expected every site to have id "Clinic" or a name containing it (ignoring case), received 4 of 5 that do not: S2 "Pharmacy", site 3 (no name), site 4 (no name) and 1 more',
    );
  });

  it('never throws on hostile bodies', () => {
    expect(check.run(respondedExchange({ body: { sites: { id: 'x' } } })).message).toBe(
      'Expected a sites array, received sites an object without resourceType',
    );
    expect(check.run(respondedExchange({ body: 'nope' })).outcome).toBe('fail');
    expect(check.run(respondedExchange({ body: 42 })).message).toBe('Expected a sites array, received 42');
    expect(check.run(respondedExchange({ body: '[', truncated: true })).outcome).toBe('skip');
    expect(sitesMatchSearch('x').id).toBe(check.id);
  });
});
