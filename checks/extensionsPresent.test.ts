import { describe, expect, it } from 'vitest';
import { extensionsPresent } from './extensionsPresent.ts';
import { respondedExchange } from './testing.ts';

const check = extensionsPresent(['live', 'edi']);
const run = (body: unknown) => check.run(respondedExchange({ body }));
const insurer = (id: string, names: string[]) => ({
  resourceType: 'Organization',
  id,
  extension: names.map((n) => ({ url: `https://ref.example/extension/${n}`, valueString: 'Y' })),
});

describe('extensionsPresent', () => {
  it('passes when every entry carries every named extension, found by the end of its URL', () => {
    expect(
      run({
        resourceType: 'Bundle',
        entry: [{ resource: insurer('1', ['live', 'edi', 'category']) }, { resource: insurer('2', ['edi', 'live']) }],
      }).outcome,
    ).toBe('pass');
    expect(run(insurer('3', ['live', 'edi'])).outcome).toBe('pass');
    expect(
      extensionsPresent(['x'], { resourceType: 'Practitioner' }).run(
        respondedExchange({
          body: {
            resourceType: 'Bundle',
            entry: [
              { resource: { resourceType: 'Location', id: 'l' } },
              { resource: { resourceType: 'Practitioner', id: 'p', extension: [{ url: 'x' }] } },
            ],
          },
        }),
      ).outcome,
    ).toBe('pass');
  });

  it('fails naming each resource and missing extension', () => {
    const finding = run({
      resourceType: 'Bundle',
      entry: [
        { resource: insurer('1', ['live']) },
        {
          resource: {
            resourceType: 'Organization',
            id: '2',
            extension: [{ url: 'https://ref.example/extension/medi' }],
          },
        },
      ],
    });
    expect(finding.outcome).toBe('fail');
    expect(finding.message).toBe(
      'Expected every resource to carry live, edi, received 3 missing: Organization/1 edi, Organization/2 live, Organization/2 edi',
    );
  });

  it('skips when nothing can be judged and never throws on hostile bodies', () => {
    expect(run({ resourceType: 'Bundle', entry: [] }).outcome).toBe('skip');
    expect(run({ resourceType: 'Bundle', entry: 'x' }).outcome).toBe('fail');
    expect(run({ resourceType: 'Organization', id: '1', extension: 'x' }).outcome).toBe('fail');
    expect(run([]).outcome).toBe('fail');
    expect(check.run(respondedExchange({ body: '{', truncated: true })).outcome).toBe('skip');
    expect(extensionsPresent(['a']).id).toBe(check.id);
  });
});
