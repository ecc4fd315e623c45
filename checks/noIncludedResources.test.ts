import { describe, expect, it } from 'vitest';
import { noIncludedResources } from './noIncludedResources.ts';
import { bundle, respondedExchange, roleBundle } from './testing.ts';

const run = (body: unknown) => noIncludedResources.run(respondedExchange({ body }));
const role = { resourceType: 'PractitionerRole', id: 'r1', practitioner: { reference: 'Practitioner/p1' } };

describe('noIncludedResources', () => {
  it('passes on roles only and on an empty Bundle', () => {
    expect(run(roleBundle([role, { ...role, id: 'r2' }])).message).toBe('2 entries, none Practitioner or Location');
    expect(run(roleBundle([])).message).toBe('no entries');
    expect(run(bundle([{ resourceType: 'OperationOutcome' }])).outcome).toBe('pass');
  });

  it('fails on included Practitioner or Location entries', () => {
    const body = roleBundle(
      [role],
      [
        { resourceType: 'Practitioner', id: 'p1' },
        { resourceType: 'Location', id: 'l1' },
        { resourceType: 'Location' },
      ],
    );
    expect(run(body).message).toBe(
      'Expected no Practitioner or Location entries without _include, received 3: Practitioner/p1, Location/l1, entry 4',
    );
  });

  it('fails on a non-Bundle', () => {
    expect(run([role]).outcome).toBe('fail');
    expect(run('').outcome).toBe('fail');
  });
});
