/**
 * The coverage phase that runs before the random phase (issue 14, item 3): a deterministic,
 * finite list of valid requests of one operation that exercises every enum value, every Boolean,
 * the paging edges (count 1 and its maximum, DEC-D1-12, DEC-D2-03; page 1 and a page past the
 * last), every unit of `near` with the smallest and the widest radius and the centre at the
 * edges (DEC-D2-16), every comparator, every other field once, and every feature-gated field
 * with and without its feature, so a run with `--runs 1` still covers the whole surface.
 */
import type { FeatureName, Operation, Parameter } from '../spec/types.ts';
import { integerBounds, NEAR_UNITS, PAGE_PAST_THE_LAST, pagingRole, widestRadius } from './parameterValue.ts';
import {
  coRequiredParameter,
  fixturesOf,
  type ParameterRequest,
  parameterValueRequest,
  type RequestOptions,
  requestParameters,
} from './parameterValueRequest.ts';

/** What a coverage entry exercises, for the report. */
export type CoverageAspect =
  | 'required-only'
  | 'enum-value'
  | 'boolean-value'
  | 'count-minimum'
  | 'count-maximum'
  | 'page-first'
  | 'page-past-the-last'
  | 'integer-minimum'
  | 'integer-maximum'
  | 'near-unit-radius-smallest'
  | 'near-unit-radius-widest'
  | 'near-centre-edge'
  | 'comparator'
  | 'field'
  | 'feature-without';

export interface CoverageEntry {
  operationId: string;
  /** What the entry exercises, e.g. `insurerIdentifier=ppp` or `count=1000 (maximum)`. */
  label: string;
  aspect: CoverageAspect;
  /** The parameter exercised (absent for `required-only`). */
  parameter?: string;
  /** The value exercised; absent for `required-only` and `feature-without`. */
  value?: string;
  request: ParameterRequest;
  /** Features the caller must hold to send the request; a runner skips (and reports) what it lacks. */
  features: readonly FeatureName[];
}

/** A documented-form sample per format, used where no fixture is given (fixed, so the phase is deterministic). */
function sampleValue(p: Parameter): string {
  switch (p.format) {
    case 'string':
      return 'test';
    case 'enum':
      return p.values?.[0] ?? '';
    case 'date':
      return '2026-01-15';
    case 'date-range':
      return '2026-01-01_2026-12-31';
    case 'datetime-range':
      return '2026-01-01T00:00_2026-12-31T23:59';
    case 'date-time':
      return '2026-01-01T00:00:00Z';
    case 'comparator-decimal':
      return 'ge0';
    case 'boolean':
      return 'true';
    case 'positive-integer':
      return pagingRole(p) === 'count' ? String(Math.min(10, integerBounds(p).max)) : '1';
    case 'near':
      return '51.5074:-0.1278:10:km';
    case 'distance':
      return '10';
  }
}

const sampleOf = (p: Parameter, options: RequestOptions) => fixturesOf(p, options)[0] ?? sampleValue(p);

type Exercise = { aspect: CoverageAspect; value: string; label: string };

/** The values of one parameter the phase sends, each with what it exercises. */
function exercises(p: Parameter, options: RequestOptions): Exercise[] {
  const at = (aspect: CoverageAspect, value: string, note = '') => ({
    aspect,
    value,
    label: `${p.name}=${value}${note}`,
  });
  switch (p.format) {
    case 'enum':
      return (p.values ?? []).map((v) => at('enum-value', v));
    case 'boolean':
      return [at('boolean-value', 'true'), at('boolean-value', 'false')];
    case 'positive-integer': {
      const { min, max } = integerBounds(p);
      const role = pagingRole(p);
      if (role === 'page')
        return [at('page-first', '1'), at('page-past-the-last', String(PAGE_PAST_THE_LAST), ' (past the last page)')];
      if (role === 'count')
        return [at('count-minimum', String(min), ' (minimum)'), at('count-maximum', String(max), ' (maximum)')];
      return [at('integer-minimum', String(min)), at('integer-maximum', String(max))];
    }
    case 'near':
      return [
        ...NEAR_UNITS.flatMap((u) => [
          at('near-unit-radius-smallest', `51.5074:-0.1278:1:${u}`, ` (unit ${u}, smallest radius)`),
          at('near-unit-radius-widest', `51.5074:-0.1278:${widestRadius(u)}:${u}`, ` (unit ${u}, widest radius)`),
        ]),
        at('near-centre-edge', '90:180:1:km', ' (centre at the edge)'),
        at('near-centre-edge', '-90:-180:1:km', ' (centre at the edge)'),
      ];
    case 'comparator-decimal':
      return ['le', 'ge', 'eq'].map((c) => at('comparator', `${c}100.50`));
    case 'distance':
      return ['', ...NEAR_UNITS].map((u) => at('field', `10${u}`, u === '' ? ' (default unit)' : ` (unit ${u})`));
    case 'datetime-range':
      return [at('field', '2026-01-01T00:00'), at('field', sampleOf(p, options))];
    case 'date-time':
      return [at('field', '2026-01-01'), at('field', sampleOf(p, options)), at('field', '2026-01-01T12:30:00+01:00')];
    default:
      return [at('field', sampleOf(p, options))];
  }
}

/**
 * The coverage phase of an operation: every enum value, every boundary and every feature-gated
 * field with and without its feature, each entry labelled with what it exercises. Each entry is
 * the required parameters at fixed values (fixtures first) plus the one value exercised (and the
 * parameter that value needs beside it, DEC-D2-17). Deterministic and finite.
 */
export function coveragePhase(op: Operation, options: RequestOptions = {}): readonly CoverageEntry[] {
  const parameters = requestParameters(op);
  const base: Record<string, string> = {};
  for (const p of parameters) if (p.required) base[p.name] = sampleOf(p, options);
  const byName = new Map(parameters.map((p) => [p.name, p]));

  const entries: CoverageEntry[] = [
    {
      operationId: op.id,
      label: 'required parameters only',
      aspect: 'required-only',
      request: parameterValueRequest(op, base),
      features: [],
    },
  ];
  for (const p of parameters) {
    const features = p.features ?? [];
    for (const x of exercises(p, options)) {
      const values: Record<string, string> = { ...base, [p.name]: x.value };
      const needs = coRequiredParameter(op, p.name, x.value);
      const partner = needs === undefined ? undefined : byName.get(needs);
      if (partner && values[partner.name] === undefined) values[partner.name] = sampleOf(partner, options);
      entries.push({
        operationId: op.id,
        label: features.length > 0 ? `${x.label} (with ${features.join(' and ')})` : x.label,
        aspect: x.aspect,
        parameter: p.name,
        value: x.value,
        request: parameterValueRequest(op, values),
        features: [...new Set([...features, ...(partner?.features ?? [])])],
      });
    }
    if (features.length > 0 && !p.required) {
      entries.push({
        operationId: op.id,
        label: `${p.name} left out (without ${features.join(' and ')})`,
        aspect: 'feature-without',
        parameter: p.name,
        request: parameterValueRequest(op, base),
        features: [],
      });
    }
  }
  return entries;
}
