/**
 * Values generated from the response schemas (schemas/*.schema.json), for the sandbox's fixtures
 * and for property tests of the checks.
 *
 * The generator builds values structurally from the keyword subset the schemas use. Where the
 * structure alone cannot guarantee a constraint (oneOf exclusivity, `not`, if/then on values
 * that were not steered into a branch), it filters locally with that one subschema, and drops a
 * branch whose sample of candidates never passes. It never filters a value by its whole schema.
 */
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { SCHEMA_BASE_URI, schemaFiles, schemaFor, type JsonSchema } from '../core/schemaRegistry.ts';

/** Arrays get at most this many items (plus one per `contains`, when there are more). */
const MAX_ITEMS = 3;
/** Below this nesting depth optional members are omitted and arrays hold only what is required. */
const MAX_DEPTH = 7;
/** Candidates drawn to decide whether a branch can satisfy its local constraint. */
const FEASIBILITY_SAMPLES = 20;

/** Keywords the generator understands; any other keyword in a schema is a suite bug to report. */
const SUPPORTED = new Set([
  '$schema',
  '$id',
  '$defs',
  '$comment',
  'title',
  'description',
  'examples',
  '$ref',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'type',
  'const',
  'enum',
  'pattern',
  'minLength',
  'minimum',
  'maximum',
  'properties',
  'required',
  'items',
  'contains',
  'minItems',
]);

type Schema = JsonSchema | boolean;
type Arb = fc.Arbitrary<unknown>;

/**
 * An arbitrary of values valid against a schema file of `schemas/` (e.g. `coverage.schema.json`).
 * Values are small (arrays hold at most three items beyond the required ones, optional members
 * stop below a fixed depth) and realistic where a pattern says what a string is (dates,
 * date-times, digits, `#id` references, extension urls ending with a documented suffix).
 * Values satisfy the schema only: cross-member rules that are not schema rules (a reference names
 * a contained id, `total` counts the entries) do not hold. Document 1, sections 2.1 to 2.8.
 * Throws for an unknown file or a schema keyword outside the supported subset (a suite bug).
 *
 * @example
 * fc.assert(fc.property(arbitraryFromSchema('coverage.schema.json'), (coverage) => ...));
 */
export function arbitraryFromSchema(schemaFile: string): fc.Arbitrary<unknown> {
  schemaFor(schemaFile); // throws for an unknown file
  const arb = gen([`${SCHEMA_BASE_URI}${schemaFile}#`], 0, new Set());
  if (!arb) throw new Error(`fromSchema: no value can satisfy ${schemaFile}`);
  return arb;
}

// ------------------------------------------------------------------ locations

/** The subschema at an absolute location `<file $id>#<JSON pointer>`. */
function at(uri: string): Schema {
  const hash = uri.indexOf('#');
  const fileId = hash < 0 ? uri : uri.slice(0, hash);
  const pointer = hash < 0 ? '' : uri.slice(hash + 1);
  if (!fileId.startsWith(SCHEMA_BASE_URI)) throw new Error(`fromSchema: reference outside the registry: ${uri}`);
  let node: unknown = schemaFor(fileId.slice(SCHEMA_BASE_URI.length));
  if (pointer !== '') {
    for (const raw of pointer.slice(1).split('/')) {
      const segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      node = (node as Record<string, unknown> | undefined)?.[segment];
    }
  }
  if (typeof node !== 'boolean' && (node === null || typeof node !== 'object')) {
    throw new Error(`fromSchema: no schema at ${uri}`);
  }
  return node as Schema;
}

function child(uri: string, ...segments: (string | number)[]): string {
  return uri + segments.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

function resolveRef(uri: string, ref: string): string {
  const fileId = uri.slice(0, uri.indexOf('#'));
  const href = new URL(ref, fileId).href;
  return href.includes('#') ? href : `${href}#`;
}

// ------------------------------------------------------------------ local checks

let lenient: Ajv2020 | undefined;
const checks = new Map<string, ValidateFunction>();

/** Whether `value` satisfies the one subschema at `uri` (used only for local constraints). */
function matches(uri: string, value: unknown): boolean {
  if (!lenient) {
    // Not strict: subschemas compiled on their own lack the context types strict mode wants.
    lenient = new Ajv2020({ strict: false, allErrors: false });
    for (const file of schemaFiles()) lenient.addSchema(schemaFor(file));
  }
  let check = checks.get(uri);
  if (!check) {
    check = lenient.compile({ $ref: uri });
    checks.set(uri, check);
  }
  return check(value) === true;
}

function feasible(arb: Arb, ok: (v: unknown) => boolean): boolean {
  return fc.sample(arb, { numRuns: FEASIBILITY_SAMPLES, seed: 20251121 }).some(ok);
}

// ------------------------------------------------------------------ merging

interface Group {
  /** Location of the schema holding the keyword; identifies the decision. */
  key: string;
  branches: string[];
}

interface Conditional {
  key: string;
  ifUri: string;
  thenUri?: string;
  elseUri?: string;
}

/** Everything the parts of one value say about it. */
interface Merged {
  impossible: boolean;
  type?: string;
  consts: unknown[];
  enums: unknown[][];
  patterns: string[];
  minLength: number;
  minimum?: number;
  maximum?: number;
  properties: Map<string, string[]>;
  required: Set<string>;
  items: string[];
  contains: string[];
  minItems: number;
  oneOf: Group[];
  anyOf: Group[];
  conditionals: Conditional[];
  nots: string[];
  /** Members named by a oneOf branch's `required`: generated only when required. */
  discriminators: Set<string>;
}

/** The locations of `uris` plus everything they pull in through `$ref` and `allOf`. */
function flatten(uris: readonly string[]): string[] {
  const out: string[] = [];
  const visit = (uri: string): void => {
    if (out.includes(uri)) return;
    out.push(uri);
    const schema = at(uri);
    if (typeof schema === 'boolean') return;
    if (typeof schema.$ref === 'string') visit(resolveRef(uri, schema.$ref));
    if (Array.isArray(schema.allOf)) schema.allOf.forEach((_, i) => visit(child(uri, 'allOf', i)));
  };
  uris.forEach(visit);
  return out;
}

function merge(uris: readonly string[]): Merged {
  const m: Merged = {
    impossible: false,
    consts: [],
    enums: [],
    patterns: [],
    minLength: 0,
    properties: new Map(),
    required: new Set(),
    items: [],
    contains: [],
    minItems: 0,
    oneOf: [],
    anyOf: [],
    conditionals: [],
    nots: [],
    discriminators: new Set(),
  };
  for (const uri of uris) {
    const s = at(uri);
    if (s === false) m.impossible = true;
    if (typeof s === 'boolean') continue;
    for (const keyword of Object.keys(s)) {
      if (!SUPPORTED.has(keyword)) throw new Error(`fromSchema: unsupported keyword ${keyword} at ${uri}`);
    }
    if (s.type !== undefined) {
      // A type list (`["string", "null"]`: an optional member a server may send as null) is
      // generated as its first non-null type; values of it are valid against the list.
      const types: unknown[] = Array.isArray(s.type) ? s.type : [s.type];
      const chosen = types.find((t) => t !== 'null') ?? types[0];
      if (typeof chosen !== 'string') throw new Error(`fromSchema: type must be a name or a list of names, at ${uri}`);
      m.type = intersectType(m.type, chosen);
      if (m.type === '') m.impossible = true;
    }
    if ('const' in s) m.consts.push(s.const);
    if (Array.isArray(s.enum)) m.enums.push(s.enum);
    if (typeof s.pattern === 'string') m.patterns.push(s.pattern);
    if (typeof s.minLength === 'number') m.minLength = Math.max(m.minLength, s.minLength);
    if (typeof s.minimum === 'number') m.minimum = Math.max(m.minimum ?? s.minimum, s.minimum);
    if (typeof s.maximum === 'number') m.maximum = Math.min(m.maximum ?? s.maximum, s.maximum);
    if (s.properties && typeof s.properties === 'object') {
      for (const name of Object.keys(s.properties)) {
        const list = m.properties.get(name) ?? [];
        list.push(child(uri, 'properties', name));
        m.properties.set(name, list);
      }
    }
    if (Array.isArray(s.required)) for (const name of s.required) m.required.add(String(name));
    if (s.items !== undefined) m.items.push(child(uri, 'items'));
    if (s.contains !== undefined) m.contains.push(child(uri, 'contains'));
    if (typeof s.minItems === 'number') m.minItems = Math.max(m.minItems, s.minItems);
    if (Array.isArray(s.oneOf)) {
      m.oneOf.push({ key: `${uri}/oneOf`, branches: s.oneOf.map((_, i) => child(uri, 'oneOf', i)) });
      for (const branch of s.oneOf) {
        const required = (branch as { required?: unknown }).required;
        if (Array.isArray(required)) for (const name of required) m.discriminators.add(String(name));
      }
    }
    if (Array.isArray(s.anyOf))
      m.anyOf.push({ key: `${uri}/anyOf`, branches: s.anyOf.map((_, i) => child(uri, 'anyOf', i)) });
    if (s.if !== undefined) {
      m.conditionals.push({
        key: `${uri}/if`,
        ifUri: child(uri, 'if'),
        thenUri: s.then !== undefined ? child(uri, 'then') : undefined,
        elseUri: s.else !== undefined ? child(uri, 'else') : undefined,
      });
    }
    if (s.not !== undefined) m.nots.push(child(uri, 'not'));
  }
  return m;
}

function intersectType(a: string | undefined, b: string): string {
  if (a === undefined || a === b) return b;
  if ((a === 'integer' && b === 'number') || (a === 'number' && b === 'integer')) return 'integer';
  return '';
}

// ------------------------------------------------------------------ generation

const cache = new Map<string, Arb | null>();

/** An arbitrary satisfying every schema at `uris` together, or null when none can. */
function gen(uris: readonly string[], depth: number, resolved: ReadonlySet<string>): Arb | null {
  const key = `${[...new Set(uris)].sort().join(' ')}|${[...resolved].sort().join(' ')}|${depth}`;
  if (cache.has(key)) return cache.get(key) ?? null;
  const arb = build(uris, depth, resolved);
  cache.set(key, arb);
  return arb;
}

function build(uris: readonly string[], depth: number, resolved: ReadonlySet<string>): Arb | null {
  const m = merge(flatten(uris));
  if (m.impossible) return null;
  const also = (k: string): Set<string> => new Set([...resolved, k]);

  // Decisions first: each picks a branch and recurses with the branch merged in.
  const oneOf = m.oneOf.find((g) => !resolved.has(g.key));
  if (oneOf) {
    return choose(
      oneOf.branches.map((branch, i) => {
        const others = oneOf.branches.filter((_, j) => j !== i);
        return {
          arb: gen([...uris, branch], depth, also(oneOf.key)),
          ok: (v: unknown) => others.every((o) => !matches(o, v)),
        };
      }),
    );
  }
  const anyOf = m.anyOf.find((g) => !resolved.has(g.key));
  if (anyOf) {
    return choose(anyOf.branches.map((branch) => ({ arb: gen([...uris, branch], depth, also(anyOf.key)) })));
  }
  const pending = m.conditionals.filter((c) => !resolved.has(c.key));
  if (pending.length > 0) {
    // At most one condition is steered into (a value is one kind of extension or resource); the
    // others must then not fire, or hold when they do.
    const done = new Set([...resolved, ...pending.map((c) => c.key)]);
    const ok = (v: unknown): boolean =>
      pending.every((c) => {
        const branch = matches(c.ifUri, v) ? c.thenUri : c.elseUri;
        return branch === undefined || matches(branch, v);
      });
    const steered = pending.map((c) => [c.ifUri, ...(c.thenUri ? [c.thenUri] : [])]);
    return choose([[], ...steered].map((extra) => ({ arb: gen([...uris, ...extra], depth, done), ok })));
  }

  const arb = leaf(m, depth);
  if (!arb || m.nots.length === 0) return arb;
  const ok = (v: unknown): boolean => m.nots.every((n) => !matches(n, v));
  return feasible(arb, ok) ? arb.filter(ok) : null;
}

/** One of the options that can produce a value passing its local check. */
function choose(options: { arb: Arb | null; ok?: (v: unknown) => boolean }[]): Arb | null {
  const usable: Arb[] = [];
  for (const { arb, ok } of options) {
    if (!arb) continue;
    if (!ok) usable.push(arb);
    else if (feasible(arb, ok)) usable.push(arb.filter(ok));
  }
  if (usable.length === 0) return null;
  return usable.length === 1 ? usable[0] : fc.oneof(...usable);
}

function leaf(m: Merged, depth: number): Arb | null {
  if (m.consts.length > 0 || m.enums.length > 0) {
    const candidates = m.consts.length > 0 ? [m.consts[0]] : m.enums[0];
    const values = candidates.filter(
      (v) =>
        m.consts.every((c) => sameJson(c, v)) &&
        m.enums.every((e) => e.some((x) => sameJson(x, v))) &&
        fitsType(v, m.type) &&
        (typeof v !== 'string' || (v.length >= m.minLength && m.patterns.every((p) => new RegExp(p, 'u').test(v)))),
    );
    return values.length > 0 ? fc.constantFrom(...values) : null;
  }
  const type =
    m.type ??
    (m.properties.size > 0 || m.required.size > 0
      ? 'object'
      : m.items.length > 0 || m.contains.length > 0
        ? 'array'
        : 'string');
  switch (type) {
    case 'string':
      return stringArb(m.patterns, m.minLength);
    case 'number': {
      const min = Math.ceil((m.minimum ?? 0) * 100);
      const max = m.maximum === undefined ? min + 500000 : Math.min(min + 500000, Math.floor(m.maximum * 100));
      return max < min ? null : fc.integer({ min, max }).map((cents) => cents / 100);
    }
    case 'integer': {
      const min = Math.ceil(m.minimum ?? 0);
      const max = m.maximum === undefined ? min + 50 : Math.min(min + 50, Math.floor(m.maximum));
      return max < min ? null : fc.integer({ min, max });
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'object':
      return objectArb(m, depth);
    case 'array':
      return arrayArb(m, depth);
    default:
      throw new Error(`fromSchema: unsupported type ${type}`);
  }
}

function objectArb(m: Merged, depth: number): Arb | null {
  const model: Record<string, Arb> = {};
  const requiredKeys: string[] = [];
  for (const name of new Set([...m.properties.keys(), ...m.required])) {
    const required = m.required.has(name);
    if (!required && (depth >= MAX_DEPTH || m.discriminators.has(name))) continue;
    const arb = gen(m.properties.get(name) ?? [], depth + 1, new Set());
    if (!arb) {
      if (required) return null;
      continue;
    }
    model[name] = arb;
    if (required) requiredKeys.push(name);
  }
  return fc.record(model, { requiredKeys, noNullPrototype: true });
}

function arrayArb(m: Merged, depth: number): Arb | null {
  const containsArbs: Arb[] = [];
  for (const c of m.contains) {
    const arb = gen([...m.items, c], depth + 1, new Set());
    if (!arb) return null;
    containsArbs.push(arb);
  }
  const minBase = Math.max(0, m.minItems - containsArbs.length);
  const maxBase = depth >= MAX_DEPTH ? minBase : Math.max(minBase, MAX_ITEMS - containsArbs.length);
  let base: fc.Arbitrary<unknown[]> = fc.constant([]);
  if (maxBase > 0) {
    const item = m.items.length > 0 ? gen(m.items, depth + 1, new Set()) : stringArb([], 0);
    if (item) base = fc.array(item, { minLength: minBase, maxLength: maxBase });
    else if (minBase > 0) return null;
  }
  if (containsArbs.length === 0) return base;
  const positions = fc.array(fc.nat(), { minLength: containsArbs.length, maxLength: containsArbs.length });
  return fc.tuple(base, fc.tuple(...containsArbs), positions).map(([items, extra, at]) => {
    const out = [...items];
    extra.forEach((value, i) => out.splice(at[i] % (out.length + 1), 0, value));
    return out;
  });
}

// ------------------------------------------------------------------ strings

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const alnum = (minLength: number, maxLength: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...ALNUM), minLength, maxLength });
const pad = (n: number): string => String(n).padStart(2, '0');

const dateArb = fc
  .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const offsetArb = fc.oneof(
  fc.constant('Z'),
  fc
    .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 12 }), fc.constantFrom(0, 30))
    .map(([s, h, mm]) => `${s}${pad(h)}:${pad(mm)}`),
);
const timeArb = fc
  .tuple(
    fc.integer({ min: 0, max: 23 }),
    fc.integer({ min: 0, max: 59 }),
    fc.integer({ min: 0, max: 59 }),
    fc.option(fc.integer({ min: 0, max: 999 })),
  )
  .map(([h, m, s, ms]) => `${pad(h)}:${pad(m)}:${pad(s)}${ms === null ? '' : `.${String(ms).padStart(3, '0')}`}`);
const URL_PREFIXES = ['https://ref.example', 'https://clearing.example/extension', 'https://clearing.example'];

/** Generators for the patterns the schemas use, by pattern source. */
const KNOWN_PATTERNS: Record<string, fc.Arbitrary<string>> = {
  '^\\d{4}-\\d{2}-\\d{2}$': dateArb,
  '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})?$': fc
    .tuple(dateArb, timeArb, fc.option(offsetArb))
    .map(([d, t, o]) => `${d}T${t}${o ?? ''}`),
  '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$': fc
    .tuple(dateArb, timeArb, offsetArb)
    .map(([d, t, o]) => `${d}T${t}${o}`),
  '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$': fc
    .tuple(dateArb, fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }))
    .map(([d, h, m, s]) => `${d} ${pad(h)}:${pad(m)}:${pad(s)}`),
  '^[0-9]+$': fc.nat({ max: 500 }).map(String),
  '^#.+': alnum(1, 8).map((id) => `#${id}`),
  '/claim/[^/]+/encounter/[^/]+$': fc
    .tuple(alnum(1, 8), alnum(1, 8))
    .map(([claim, encounter]) => `https://clearing.example/claims/claim/${claim}/encounter/${encounter}`),
  '(^|/)setting$': fc.constantFrom('setting', 'https://ref.example/extension/setting'),
};

function patternArb(pattern: string): fc.Arbitrary<string> {
  const known = KNOWN_PATTERNS[pattern];
  if (known) return known;
  // A literal suffix such as `/extension/policyExpired$`: an extension or identifier-system url.
  const suffix = /^(\/[A-Za-z0-9_/-]+)\$$/.exec(pattern);
  if (suffix) return fc.constantFrom(...URL_PREFIXES).map((prefix) => prefix + suffix[1]);
  return fc.stringMatching(new RegExp(pattern));
}

function stringArb(patterns: readonly string[], minLength: number): Arb | null {
  if (patterns.length === 0) return alnum(minLength, Math.max(minLength, 8));
  const regexes = patterns.map((p) => new RegExp(p, 'u'));
  const ok = (v: unknown): boolean => typeof v === 'string' && v.length >= minLength && regexes.every((r) => r.test(v));
  for (const pattern of patterns) {
    const arb = patternArb(pattern);
    if (feasible(arb, ok)) return arb.filter(ok);
  }
  return null;
}

// ------------------------------------------------------------------ helpers

function fitsType(value: unknown, type: string | undefined): boolean {
  switch (type) {
    case undefined:
      return true;
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    default:
      return false;
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
