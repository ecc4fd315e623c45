import { describe, expect, it } from 'vitest';
import { distinctBy } from './distinctBy.ts';
import { bundle, respondedExchange, roleBundle } from './testing.ts';

const role = (id: string, practitioner?: string, ...locations: string[]) => ({
  resourceType: 'PractitionerRole',
  id,
  ...(practitioner === undefined ? {} : { practitioner: { reference: practitioner } }),
  location: locations.map((reference) => ({ reference })),
});
const run = (field: 'practitioner' | 'location', roles: unknown[], included: unknown[] = []) =>
  distinctBy(field).run(respondedExchange({ body: roleBundle(roles, included) }));

describe('distinctBy', () => {
  it('passes when no practitioner repeats', () => {
    expect(
      run('practitioner', [role('r1', 'Practitioner/p1', 'Location/l1'), role('r2', 'Practitioner/p2', 'Location/l1')])
        .message,
    ).toBe('2 roles, 2 distinct practitioner references');
  });

  it('fails when a practitioner repeats, also across reference forms', () => {
    expect(
      run('practitioner', [
        role('r1', 'Practitioner/p1'),
        role('r2', 'Practitioner/p2'),
        role('r3', 'https://t.example/Practitioner/p1'),
      ]).message,
    ).toBe(
      'Expected no two roles with the same practitioner reference, received Practitioner/p1 on PractitionerRole/r1 and PractitionerRole/r3',
    );
  });

  it('judges locations on any shared location reference', () => {
    expect(
      run('location', [role('r1', 'Practitioner/p1', 'Location/l1'), role('r2', 'Practitioner/p1', 'Location/l2')])
        .outcome,
    ).toBe('pass');
    expect(
      run('location', [
        role('r1', 'Practitioner/p1', 'Location/l1', 'Location/l2'),
        role('r2', 'Practitioner/p2', 'Location/l3', 'Location/l2'),
      ]).outcome,
    ).toBe('fail');
  });

  it('does not count a role repeating its own location', () => {
    expect(run('location', [role('r1', undefined, 'Location/l1', 'Location/l1')]).outcome).toBe('pass');
  });

  it('ignores included resources and roles without the reference', () => {
    const included = [{ resourceType: 'Practitioner', id: 'p1' }];
    expect(run('practitioner', [role('r1', 'Practitioner/p1'), role('r2'), role('r3')], included).outcome).toBe('pass');
    expect(run('practitioner', [role('r1'), role('r2')]).outcome).toBe('skip');
    expect(
      distinctBy('location').run(respondedExchange({ body: bundle([{ resourceType: 'Location', id: 'l1' }]) })).outcome,
    ).toBe('skip');
  });

  it('passes an empty Bundle, fails a non-Bundle', () => {
    expect(run('practitioner', []).message).toBe('no entries');
    expect(distinctBy('practitioner').run(respondedExchange({ body: 'x' })).outcome).toBe('fail');
  });
  it('judges all pages of a paged result together', () => {
    const page = (...roles: unknown[]) => respondedExchange({ body: roleBundle(roles) });
    expect(
      distinctBy('practitioner').run([page(role('r1', 'Practitioner/p1')), page(role('r2', 'Practitioner/p2'))])
        .outcome,
    ).toBe('pass');
    expect(
      distinctBy('practitioner').run([page(role('r1', 'Practitioner/p1')), page(role('r2', 'Practitioner/p1'))])
        .outcome,
    ).toBe('fail');
  });
});
