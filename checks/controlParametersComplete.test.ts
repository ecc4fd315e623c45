import { describe, expect, it } from 'vitest';
import { controlParametersComplete } from './controlParametersComplete.ts';
import { respondedExchange } from './testing.ts';

const URL = 'https://ref.example/organization/ins/INS1/$control-parameters/';
const param = (name: string, valueString: unknown) => ({ url: `${URL}${name}`, valueString });
const complete = [
  param('acceptsEDIClaims', 'Y'),
  param('requiresDiagnosis', 'N'),
  param('synchronousME', 'N'),
  param('stvEnabled', 'E'),
];
const org = (extension: unknown) => ({
  resourceType: 'Organization',
  id: '12',
  identifier: [{ value: 'INS1' }],
  name: 'Insurer',
  extension,
});
const run = (body: unknown) => controlParametersComplete.run(respondedExchange({ body }));

describe('controlParametersComplete', () => {
  it('passes with all four once each, ignoring other extensions', () => {
    const finding = run(
      org([...complete, param('somethingNew', 'Q'), { url: 'https://ref.example/extension/live', valueString: 'Y' }]),
    );
    expect(finding.outcome).toBe('pass');
    expect(finding.message).toBe('acceptsEDIClaims Y, requiresDiagnosis N, synchronousME N, stvEnabled E');
  });

  it('fails on a missing, repeated or invalid parameter, listing every problem', () => {
    const extension = [
      param('acceptsEDIClaims', 'Y'),
      param('acceptsEDIClaims', 'Y'),
      param('synchronousME', 'E'),
      param('stvEnabled', 'y'),
    ];
    expect(run(org(extension)).message).toBe(
      'Expected acceptsEDIClaims, requiresDiagnosis, synchronousME (Y or N) and stvEnabled (Y, N or E) once each, received acceptsEDIClaims 2 times, requiresDiagnosis missing, synchronousME "E", stvEnabled "y"',
    );
  });

  it('fails on a non-string value and on names that only look alike', () => {
    expect(run(org([...complete.slice(0, 3), param('stvEnabled', true)])).outcome).toBe('fail');
    const lookAlike = [...complete.slice(0, 3), { url: 'https://ref.example/extension/stvEnabled', valueString: 'Y' }];
    expect(run(org(lookAlike)).message).toMatch(/stvEnabled missing$/);
  });

  it('survives odd extension lists', () => {
    expect(run(org(undefined)).outcome).toBe('fail');
    expect(run(org('x')).outcome).toBe('fail');
    expect(run(org([null, 5, { url: 7 }, ...complete])).outcome).toBe('pass');
  });

  it('fails on another resource or a non-object', () => {
    expect(run({ resourceType: 'Bundle', total: 0 }).message).toBe(
      'Expected an Organization, received resourceType "Bundle"',
    );
    expect(run({ extension: complete }).outcome).toBe('pass');
    expect(run([org(complete)]).outcome).toBe('fail');
  });
});
