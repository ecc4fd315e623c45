import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { operation } from '../spec/operations.ts';
import { invalidParameterValue, malformedValues } from './invalidParameterValue.ts';

const summary = operation('search-remittance-summary');
const wellFormed: Record<string, RegExp> = {
  'date-range': /^\d{4}-(0[1-9]|1[0-2])-\d{2}_\d{4}-(0[1-9]|1[0-2])-\d{2}$/,
  'comparator-decimal': /^(le|ge|eq)\d+(\.\d{1,2})?$/,
  boolean: /^(true|false)$/,
  'positive-integer': /^[1-9]\d*$/,
};

describe('invalidParameterValue', () => {
  test('every generated value is really invalid for its parameter and carries the documented code', () => {
    fc.assert(
      fc.property(invalidParameterValue(summary.parameters), (v) => {
        const p = summary.parameters.find((pp) => pp.name === v.parameter)!;
        if (v.kind === 'empty') return v.value === '' && v.code === 'MSG_PARAM_EMPTY';
        if (v.kind === 'format') return !wellFormed[p.format].test(v.value) && v.code === 'MSG_INVALID_FORMAT';
        return !(p.values ?? []).includes(v.value) && v.code === 'MSG_PARAM_INVALID';
      }),
      { seed: 42, numRuns: 300 },
    );
  });

  test('the validity oracle rejects a valid value (so the property above can fail)', () => {
    expect(wellFormed['date-range'].test('2026-01-01_2026-02-01')).toBe(true);
    expect(
      malformedValues({ name: 'x', in: 'form', format: 'date-range', required: false, description: '' }),
    ).not.toContain('2026-01-01_2026-02-01');
  });

  test('path parameters are never generated and an empty list is a suite bug', () => {
    expect(() => invalidParameterValue([])).toThrow(/at least one/);
    const detail = operation('search-remittance-detail');
    fc.assert(
      fc.property(invalidParameterValue(detail.parameters), (v) => v.parameter !== 'remittance_summary_id'),
      { seed: 7, numRuns: 200 },
    );
  });
});
