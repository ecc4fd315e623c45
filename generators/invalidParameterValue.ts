/**
 * Invalid values of a documented parameter and the error code the document gives for each kind
 * (Document 1, section 7 and DEC-D1-24): empty -> MSG_PARAM_EMPTY, wrong shape ->
 * MSG_INVALID_FORMAT, well-formed but outside the allowed values -> MSG_PARAM_INVALID.
 */
import fc from 'fast-check';
import type { Parameter } from '../spec/types.ts';

export interface InvalidValue {
  parameter: string;
  value: string;
  kind: 'empty' | 'format' | 'content';
  code: 'MSG_PARAM_EMPTY' | 'MSG_INVALID_FORMAT' | 'MSG_PARAM_INVALID';
}

const badDateRanges = [
  '2026-01-01',
  '2026-13-01_2026-12-31',
  '01/01/2026_02/01/2026',
  '2026-01-01_',
  'yesterday',
  '2026-01-01-2026-02-01',
];
const badComparators = ['100', 'gt100', 'le', 'eq1.2.3', 'ge-5', 'le 10', 'lt5'];
const badBooleans = ['yes', '1', 'TRUEISH', 'maybe'];
const badIntegers = ['abc', '-1', '1.5', '0x10'];

/** Values of the wrong shape for a format, or undefined when any text is well-formed. */
export function malformedValues(p: Parameter): readonly string[] | undefined {
  switch (p.format) {
    case 'date-range':
      return badDateRanges;
    case 'comparator-decimal':
      return badComparators;
    case 'boolean':
      return badBooleans;
    case 'positive-integer':
      return badIntegers;
    default:
      return undefined;
  }
}

/** An arbitrary invalid value for one of the parameters, with the code the document expects. */
export function invalidParameterValue(parameters: readonly Parameter[]): fc.Arbitrary<InvalidValue> {
  const options: fc.Arbitrary<InvalidValue>[] = [];
  for (const p of parameters.filter((pp) => pp.in !== 'path')) {
    options.push(fc.constant<InvalidValue>({ parameter: p.name, value: '', kind: 'empty', code: 'MSG_PARAM_EMPTY' }));
    const malformed = malformedValues(p);
    if (malformed)
      options.push(
        fc
          .constantFrom(...malformed)
          .map((value): InvalidValue => ({ parameter: p.name, value, kind: 'format', code: 'MSG_INVALID_FORMAT' })),
      );
    const values = p.values;
    if (p.format === 'enum' && values && p.name !== '_sort') {
      options.push(
        fc
          .stringMatching(/^[a-z]{3}$/)
          .filter((v) => !values.includes(v))
          .map((value): InvalidValue => ({ parameter: p.name, value, kind: 'content', code: 'MSG_PARAM_INVALID' })),
      );
    }
  }
  if (options.length === 0) throw new Error('invalidParameterValue needs at least one parameter');
  return fc.oneof(...options);
}
