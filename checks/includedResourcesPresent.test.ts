import { describe, expect, it } from 'vitest';
import { includedResourcesPresent } from './includedResourcesPresent.ts';
import { bundle, respondedExchange, roleBundle } from './testing.ts';

const role = (id: string, practitioner: unknown, ...locations: unknown[]) => ({
  resourceType: 'PractitionerRole',
  id,
  ...(practitioner === undefined ? {} : { practitioner: { reference: practitioner, display: 'Dr X' } }),
  location: locations.map((reference) => ({ reference })),
});
const practitioner = (id: string) => ({ resourceType: 'Practitioner', id });
const location = (id: string) => ({ resourceType: 'Location', id });
const run = (body: unknown) => includedResourcesPresent.run(respondedExchange({ body }));

describe('includedResourcesPresent', () => {
  it('passes when every reference is included and roles are matches', () => {
    const body = roleBundle(
      [role('r1', 'Practitioner/p1', 'Location/l1'), role('r2', 'Practitioner/p1', 'Location/l2')],
      [practitioner('p1'), location('l1'), location('l2')],
    );
    expect(run(body).message).toBe('2 roles with search.mode match, 4 references all included');
  });

  it('fails naming the references without an entry', () => {
    const body = roleBundle(
      [role('r1', 'Practitioner/p1', 'Location/l1', 'Location/l9'), role('r2', 'Practitioner/p2', 'Location/l1')],
      [practitioner('p1'), location('l1')],
    );
    expect(run(body).message).toBe(
      'Expected every referenced Practitioner and Location among the entries, received 2 missing: Location/l9, Practitioner/p2',
    );
  });

  it('needs the included resource to have the referenced type', () => {
    const body = roleBundle([role('r1', 'Practitioner/x1', 'Location/x1')], [location('x1')]);
    expect(run(body).outcome).toBe('fail');
  });

  it('resolves absolute references, ignores references it cannot read', () => {
    const body = roleBundle(
      [role('r1', 'https://t.example/Practitioner/p1', 'Location/l1', 'somewhere'), role('r2', undefined)],
      [practitioner('p1'), location('l1')],
    );
    expect(run(body).outcome).toBe('pass');
  });

  it('fails role entries whose search.mode is not match', () => {
    const body = {
      resourceType: 'Bundle',
      entry: [
        { resource: role('r1', 'Practitioner/p1'), search: { mode: 'include' } },
        { resource: role('r2', 'Practitioner/p1') },
        { resource: role('r3', 'Practitioner/p1'), search: { mode: 'match' } },
        { resource: practitioner('p1'), search: { mode: 'outcome' } },
      ],
    };
    const finding = run(body);
    expect(finding.message).toBe(
      'Expected search.mode "match" on every PractitionerRole entry, received "include" on PractitionerRole/r1, <absent> on PractitionerRole/r2',
    );
    expect(finding.evidence?.includedModes).toEqual(['"outcome"']);
  });

  it('passes an empty Bundle, skips one without roles', () => {
    expect(run(roleBundle([])).message).toBe('no entries');
    expect(run(bundle([practitioner('p1')])).outcome).toBe('skip');
  });

  it('fails on a non-Bundle and odd entries', () => {
    expect(run({ resourceType: 'PractitionerRole' }).outcome).toBe('fail');
    expect(run({ resourceType: 'Bundle', entry: {} }).outcome).toBe('fail');
    expect(run({ resourceType: 'Bundle', entry: [null, 5, { resource: 'x' }] }).outcome).toBe('skip');
  });
});
