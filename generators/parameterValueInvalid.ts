/**
 * Invalid values of one parameter, by reason, and the answers the documents allow for each
 * (Document 1, 7; Document 2, 7; Document 3, 7 and the decisions on codes not tied to triggers:
 * DEC-D1-13, -17, -19, -24; DEC-D2-03, -07, -30, -31, -41, -58; DEC-D3-43, -45, -51). The creed:
 * never cry wolf. Where the documents tie no code to the trigger, any documented code at its
 * documented status passes; where the table has no entry for it, any 4xx; where they leave open
 * whether the target refuses at all, a served answer passes too (and is recorded).
 */
import type { ErrorEntry, Operation, Parameter } from '../spec/types.ts';
import { documentedMaximum } from './parameterValue.ts';

/** Why a value is invalid. */
export type InvalidKind = 'missing' | 'empty' | 'format' | 'range' | 'enum';

/** Invalid kinds in the order a report lists them. */
export const INVALID_KINDS: readonly InvalidKind[] = ['missing', 'empty', 'format', 'range', 'enum'];

/** The answers the documents allow to a request made invalid for one reason. */
export interface AllowedAnswers {
  /**
   * `documented-code`: one of `errors` (its code at its status); `status`: one of the statuses of
   * `errors`, any body (the documents give a status without a code); `any-4xx`: no entry of the
   * table fits the trigger.
   */
  refusal: 'documented-code' | 'status' | 'any-4xx';
  errors: readonly ErrorEntry[];
  /** True where the documents leave open whether the target refuses: a 2xx answer passes too (recorded). */
  mayServe: boolean;
  /** The entry the suite expects where several fit, recorded at INFO (DEC-D1-24). */
  expected?: ErrorEntry;
  /** Decision rows and sections this rests on, for the report. */
  basis: readonly string[];
}

/** One invalid value of a parameter (undefined value: the parameter is left out). */
export interface InvalidValue {
  kind: InvalidKind;
  value: string | undefined;
  /** Why the value is invalid, in the words of the report. */
  reason: string;
}

/** Codes Documents 1 and 2 use for request parameters; a table with one of them answers bad input with its codes. */
export const PARAMETER_CODES: ReadonlySet<string> = new Set([
  'MSG_MISSING_MANDATORY_PARAM',
  'MSG_PARAM_INVALID',
  'MSG_PARAM_EMPTY',
  'MSG_INVALID_FORMAT',
  'MSG_DATE_FORMAT',
]);

/** The code the suite expects per kind, first found in the table wins (recorded only, DEC-D1-24). */
const EXPECTED: Readonly<Record<InvalidKind, readonly string[]>> = {
  missing: ['MSG_MISSING_MANDATORY_PARAM'],
  empty: ['MSG_PARAM_EMPTY', 'MSG_MISSING_MANDATORY_PARAM'],
  format: ['MSG_INVALID_FORMAT', 'MSG_DATE_FORMAT', 'MSG_PARAM_INVALID'],
  range: ['MSG_INVALID_FORMAT', 'MSG_PARAM_INVALID'],
  enum: ['MSG_PARAM_INVALID', 'MSG_INVALID_FORMAT'],
};

/**
 * Where a decision says more than the table: the target may serve the request (clamping, a
 * recorded answer) or must refuse an empty value although the table has no empty code.
 */
interface Override {
  operation?: string;
  service?: Operation['service'];
  parameter?: string;
  kinds: readonly InvalidKind[];
  /** Only for required parameters (an empty optional one keeps the general rule, DEC-R-03). */
  requiredOnly?: boolean;
  mayServe: boolean;
  basis: string;
}
const OVERRIDES: readonly Override[] = [
  // Refused with a 4xx or served clamped into 1 to 1,000: both conform.
  { operation: 'get-code-set', parameter: 'count', kinds: ['range'], mayServe: true, basis: 'DEC-D2-03' },
  // An unknown set name: not a 5xx, recorded.
  { operation: 'get-code-set', parameter: 'set_name', kinds: ['enum'], mayServe: true, basis: 'DEC-D2-41' },
  // Control parameters without insurerId: not a 5xx, recorded.
  {
    operation: 'get-insurer-control-parameters',
    kinds: ['missing', 'empty'],
    mayServe: true,
    basis: 'DEC-D2-41',
  },
  // Version 2 paging: 0 or `x` must not be a 5xx; recorded.
  { operation: 'list-authorised-sites-v2', kinds: ['range', 'format'], mayServe: true, basis: 'DEC-D3-45' },
  // Post authorisation without Code: not a 5xx, recorded.
  { operation: 'diary-post-auth', kinds: ['missing', 'empty'], mayServe: true, basis: 'DEC-D3-51' },
  // An empty required Find Member field must be refused with one of Find Member's codes.
  { operation: 'find-member-v2', kinds: ['empty'], requiredOnly: true, mayServe: false, basis: 'DEC-D1-17' },
  { operation: 'find-member-v1', kinds: ['empty'], requiredOnly: true, mayServe: false, basis: 'DEC-D1-17' },
];

/**
 * Triggers a requirement row ties to one code of the table in so many words, where the table's
 * wording alone is not read as a tie: Find Member's "a missing mandatory parameter is
 * `MSG_MISSING_MANDATORY_PARAM` with HTTP 400" (D1-7-03; D1 7: "400 | MSG_MISSING_MANDATORY_PARAM |
 * Mandatory parameter missing"), judged so by the Find Member suite too.
 */
const STATED_TIES: readonly { operations: readonly string[]; kind: InvalidKind; code: string; basis: string }[] = [
  {
    operations: ['find-member-v1', 'find-member-v2'],
    kind: 'missing',
    code: 'MSG_MISSING_MANDATORY_PARAM',
    basis: 'D1-7-03',
  },
];

const overrideFor = (op: Operation, p: Parameter, kind: InvalidKind) =>
  OVERRIDES.find(
    (o) =>
      (o.operation === undefined || o.operation === op.id) &&
      (o.service === undefined || o.service === op.service) &&
      (o.parameter === undefined || o.parameter === p.name) &&
      (o.requiredOnly !== true || p.required) &&
      o.kinds.includes(kind),
  );

/** Entries the documents show: 4xx, and not marked as the suite's reading of an unshown code (DEC-D1-11, -13). */
const documentedClientErrors = (op: Operation) =>
  op.errors.filter((e) => e.status >= 400 && e.status < 500 && !/not shown/i.test(e.meaning));

/** The answers the documents allow to `op` with parameter `p` invalid for reason `kind`. */
export function allowedAnswers(op: Operation, p: Parameter, kind: InvalidKind): AllowedAnswers {
  const documented = documentedClientErrors(op);
  const basis: string[] = [`${op.document} ${op.section}`, `${op.document} 7`];
  const override = overrideFor(op, p, kind);
  if (override) basis.push(override.basis);

  // A path segment left empty names another address (or another operation): only "not a 5xx".
  if (p.in === 'path' && kind === 'empty')
    return { refusal: 'any-4xx', errors: [], mayServe: true, basis: [...basis, 'path segment'] };

  // Absence tied to a status or a message by the table: "HTTP 400 when the search parameter is
  // absent" (DEC-D2-07, -31), "redirect_uri is required" (Document 3, 7). Empty is not absent:
  // no sentence of the documents makes a present, empty value the same as an absent one.
  const absence = kind === 'missing';
  const namesAbsence = new RegExp(`\\b${p.name.replace(/[^A-Za-z0-9_]/g, '\\$&')}\\b.*\\b(required|missing)\\b`, 'i');
  const stated = STATED_TIES.find((t) => t.kind === kind && t.operations.includes(op.id));
  if (stated) basis.push(stated.basis);
  const tied = documented.filter(
    (e) =>
      (absence && (e.code === '' || namesAbsence.test(e.code))) || (stated !== undefined && e.code === stated.code),
  );
  const parameterCodes = documented.filter((e) => PARAMETER_CODES.has(e.code));
  let refusal: AllowedAnswers['refusal'];
  let errors: readonly ErrorEntry[];
  if (tied.length > 0) {
    refusal = tied.every((e) => e.code === '') ? 'status' : 'documented-code';
    errors = tied;
  } else if (parameterCodes.length > 0) {
    // The table answers bad parameters but ties no code to this trigger: any of its documented
    // codes at its status (DEC-D1-17, -19, -24; DEC-D2-30, -58).
    refusal = 'documented-code';
    errors = documented.filter((e) => e.code !== '');
    basis.push(op.document === 'D1' ? 'DEC-D1-24' : 'DEC-D2-58');
  } else {
    // No entry of the table fits the trigger (DEC-D1-13, DEC-D3-43): any 4xx.
    refusal = 'any-4xx';
    errors = [];
  }

  // An empty value: refused where the table names the trigger ("Parameter null or empty",
  // DEC-D1-24, DEC-D2-30); elsewhere the documents say nothing of it, so an answer that serves it
  // (a postcode validated as false, D2 4.8; no address for an empty key, DEC-D2-50) passes too.
  let mayServe = kind === 'empty' && !documented.some((e) => e.code === 'MSG_PARAM_EMPTY');
  if (override) mayServe = override.mayServe;

  const expected = EXPECTED[kind].map((c) => errors.find((e) => e.code === c)).find((e) => e !== undefined);
  return { refusal, errors, mayServe, ...(expected ? { expected } : {}), basis };
}

/** Whether an answer (status and error code, when the body carries one) is one the documents allow. */
export function answerAllowed(allowed: AllowedAnswers, status: number, code?: string): boolean {
  if (status >= 200 && status < 300) return allowed.mayServe;
  if (status < 400 || status >= 500) return false;
  switch (allowed.refusal) {
    case 'any-4xx':
      return true;
    case 'status':
      return allowed.errors.some((e) => e.status === status);
    case 'documented-code':
      return allowed.errors.some((e) => e.status === status && e.code === code);
  }
}

const BAD_DATES = ['2026-13-01', '2026-02-30', '01/02/2026', 'yesterday'];
const BAD_DATE_RANGES = ['2026-01-01', '2026-13-01_2026-12-31', '01/01/2026_02/01/2026', '2026-01-01_', 'yesterday'];
// A date alone is left out: DEC-D1-23 reads "a date or a range" for these fields.
const BAD_DATETIME_RANGES = ['now', '2026-01-01T25:00', '2026-01-01T10:00_', '2026-01-01T10:00_tomorrow'];
const BAD_DATE_TIMES = ['now', 'yesterday', '2026-13-01T00:00:00Z', '01/01/2026'];
// A sign and a third decimal are left out: DEC-D1-24 refuses them, spec/parameterFormats.ts accepts them.
const BAD_COMPARATORS = ['le', '100', 'lt5', 'gt100', 'le 10', 'eq1.2.3'];
// Another letter case is left out: several decisions accept it.
const BAD_BOOLEANS = ['1', 'yes', 'maybe'];
const BAD_INTEGERS = ['x', 'abc', '1.5', '0x10'];
const BAD_NEARS = ['51.5', 'north:west', '51.5:-0.1:x:km', '51.5:-0.1:5:km:extra'];
const NEARS_OUT_OF_RANGE = ['91:0:1:km', '0:181:1:km', '-91:0:1:km'];
const NEARS_UNKNOWN_UNIT = ['51.5:-0.1:5:ft', '51.5:-0.1:5:yd'];
const NOT_IN_ANY_LIST = ['x', 'zzz', 'not-a-value', 'NO-SUCH-VALUE-000'];

const FORMAT_VALUES: Partial<Record<Parameter['format'], readonly string[]>> = {
  date: BAD_DATES,
  'date-range': BAD_DATE_RANGES,
  'datetime-range': BAD_DATETIME_RANGES,
  'date-time': BAD_DATE_TIMES,
  'comparator-decimal': BAD_COMPARATORS,
  boolean: BAD_BOOLEANS,
  'positive-integer': BAD_INTEGERS,
  near: BAD_NEARS,
  distance: ['far', 'x', '10ft', '-5', '1,5'],
};

const of = (kind: InvalidKind, values: readonly (string | undefined)[], reason: string): InvalidValue[] =>
  values.map((value) => ({ kind, value, reason }));

/**
 * The invalid values of a parameter grouped by reason, each group ordered smallest first (so that
 * `fc.constantFrom` shrinks to its first). Strings and path strings have only absence and emptiness:
 * any other text is of their documented form.
 */
export function parameterValueInvalid(p: Parameter): ReadonlyMap<InvalidKind, readonly InvalidValue[]> {
  const out = new Map<InvalidKind, InvalidValue[]>();
  const add = (values: InvalidValue[]) => {
    if (values.length > 0) out.set(values[0].kind, values);
  };
  if (p.required && p.in !== 'path') add(of('missing', [undefined], `required ${p.name} is missing`));
  add(of('empty', [''], `${p.name} is empty`));
  const malformed = FORMAT_VALUES[p.format];
  if (malformed) add(of('format', malformed, `${p.name} is not of the form ${p.format}`));
  if (p.format === 'positive-integer') {
    const max = documentedMaximum(p);
    // Above a maximum only where the documents give one: a page size without a documented
    // maximum may be served (DEC-D1-12), and a page past the last is an empty page.
    const above = max === undefined ? [] : [String(max + 1), '999999999'];
    add(of('range', ['0', '-1', ...above], `${p.name} is not a positive integer${max ? ` up to ${max}` : ''}`));
  }
  if (p.format === 'near') add(of('range', NEARS_OUT_OF_RANGE, `${p.name} has a latitude or longitude out of range`));
  if (p.format === 'near') add(of('enum', NEARS_UNKNOWN_UNIT, `${p.name} has a unit other than km, mi, m`));
  if (p.format === 'enum') {
    const listed = new Set((p.values ?? []).map((v) => v.toLowerCase()));
    // Letter case is not judged (spec/parameterFormats.ts), so no case variant of a listed value.
    add(
      of(
        'enum',
        NOT_IN_ANY_LIST.filter((v) => !listed.has(v.toLowerCase())),
        `${p.name} is not one of ${(p.values ?? []).join(', ')}`,
      ),
    );
  }
  // Keep the report's order.
  return new Map(INVALID_KINDS.flatMap((k) => (out.has(k) ? [[k, out.get(k) ?? []] as const] : [])));
}
