/**
 * JSON request bodies derived from their request schemas (issue 14, items 1, 2 and 5): Patient
 * create and update (Document 3, 2.4 and 4.4), Condition create (2.5 and 4.4), the Contract payor
 * and price requests (2.6 and 4.5); any object schema of `schemas/` works the same way.
 *
 * - {@link validBody}: an arbitrary of bodies the schema accepts, built structurally from the
 *   keywords (no value is filtered by its whole schema; where structure alone cannot guarantee a
 *   rule, a oneOf's exclusivity, a `not`, an `if` not steered into, the value is filtered by that
 *   one subschema, and a branch whose candidates never pass is dropped).
 * - {@link invalidBodies} / {@link invalidCasesOf}: negative cases, each one valid body changed
 *   at one place, kept only when Ajv refuses it for the stated reason at the stated place and
 *   for nothing else (every error lies at that place or above it).
 *
 * A new member in a schema is generated (and mutated) without touching a suite: nothing here
 * names a member. Keywords outside {@link SUPPORTED} throw, so a schema change the derivation
 * does not understand fails loudly instead of generating wrong bodies.
 */
import fc from 'fast-check';
import type { JsonSchema } from '../core/schemaRegistry.ts';
import {
  childLocation,
  refLocation,
  satisfies,
  schemaAt,
  schemaErrors,
  schemaId,
  type SchemaError,
} from './schemaOracle.ts';

/** A JSON body (request bodies are objects). */
export type JsonBody = Record<string, unknown>;

/** Options of {@link validBody}. */
export interface BodyOptions {
  /**
   * Members pinned to fixture values, by dotted path of member names in which array items are
   * transparent: `subject.reference` pins the `reference` of every `subject[]` item,
   * `note.authorReference.reference` every note's author. The value is used as is, or drawn
   * when it is a fast-check arbitrary. A pinned member is always present; whether its value
   * suits the schema is the caller's business.
   */
  overrides?: Readonly<Record<string, unknown>>;
  /** Optional members: `sometimes` (default), `always` (every member the schema names), `never`. */
  optionalMembers?: 'sometimes' | 'always' | 'never';
  /** Items per array beyond the required ones, at most (default 3; `maxItems` still rules). */
  maxItems?: number;
  /**
   * At most this many items of the array at a dotted path: a cardinality the documents give where
   * the schema shows a list (`{ name: 1, 'name.given': 1 }`, DEC-D3-32).
   */
  itemLimits?: Readonly<Record<string, number>>;
  /** Items of the array at a dotted path differ in this member (`{ telecom: 'system' }`, DEC-D3-32). */
  uniqueBy?: Readonly<Record<string, string>>;
  /** Optional members never sent, by dotted path (the table's spelling beside the prose's, DEC-D3-31). */
  omit?: readonly string[];
  /**
   * No empty text (a string without pattern or format has a character at least), no empty list
   * and no null: whether a server keeps an empty one is left open (DEC-D3-64, DEC-D3-66), and FHIR
   * JSON has no null values (the schemas accept null in answers, DEC-D1-75), so a caller sends none.
   */
  nonEmpty?: boolean;
}

/** Why a negative case is refused. */
export type InvalidReason = 'missing-required' | 'wrong-type' | 'not-in-enum' | 'pattern-mismatch' | 'not-an-object';

/** One negative case: a body the schema refuses for one stated reason at one place. */
export interface InvalidBody {
  reason: InvalidReason;
  /** JSON pointer of the member concerned (the missing member itself for `missing-required`; `''` for the body). */
  path: string;
  /** The Ajv keyword that refuses it: `required`, `type`, `enum`, `const` or `pattern`. */
  keyword: 'required' | 'type' | 'enum' | 'const' | 'pattern';
  /** Where Ajv reports it: `path`, or the parent object for `missing-required`. */
  instancePath: string;
  /** The refused body (not always an object: `not-an-object` replaces the whole body). */
  body: unknown;
}

/** Every reason, in the order the coverage of a schema is reported. */
export const INVALID_REASONS: readonly InvalidReason[] = [
  'missing-required',
  'wrong-type',
  'not-in-enum',
  'pattern-mismatch',
  'not-an-object',
];

/** Keywords the derivation understands; any other keyword in a schema is a suite bug to report. */
const SUPPORTED = new Set([
  '$schema',
  '$id',
  '$defs',
  '$comment',
  'title',
  'description',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
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
  'format',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'contains',
  'minItems',
  'maxItems',
]);

/** Below this nesting depth optional members are omitted and arrays hold only what is required. */
const MAX_DEPTH = 8;
/** Candidates drawn to decide whether a branch can satisfy its local constraint (fixed seed: deterministic). */
const FEASIBILITY_SAMPLES = 20;
const FEASIBILITY_SEED = 20261125;

type Arb = fc.Arbitrary<unknown>;

/**
 * An arbitrary of request bodies the schema accepts: required members always, optional ones
 * sometimes, a branch of each `oneOf` (exactly one matching) and `anyOf`, `if`/`then` steered
 * into or kept off, strings that match their `pattern` (dates, date-times and url suffixes in
 * readable form, others through `fc.stringMatching`) or `format` (date, date-time, email, uri),
 * arrays within `minItems`/`maxItems`. Optional members marked `readOnly` (server-owned) are not
 * sent. Values shrink, and a seed gives the same bodies.
 * Throws for an unknown file, an unsupported keyword, or a schema no object can satisfy.
 *
 * @param schema a file of `schemas/` (`patient-create-request.schema.json`) or a schema object
 *   (its relative `$ref`s resolve against the registry, as `core/schemaRegistry.ts` resolves them)
 * @example
 * const patient = validBody('patient-create-request.schema.json');
 * const condition = validBody('condition-create-request.schema.json', {
 *   overrides: { 'note.authorReference.reference': `patient/${fixtures.patientId}` },
 * });
 * fc.assert(fc.asyncProperty(patient, async (body) => expect((await post(body)).status).toBe(201)));
 */
export function validBody(schema: string | JsonSchema, options: BodyOptions = {}): fc.Arbitrary<JsonBody> {
  const root = `${schemaId(schema)}#`;
  const derivation = new Derivation(options);
  if (derivation.merged([root]).type !== 'object') {
    throw new Error(`Expected an object schema for a request body, received ${root}`);
  }
  const arb = derivation.gen([root], 0, new Set(), '');
  if (!arb) throw new Error(`Expected a body that satisfies ${root}, received a schema no value can satisfy`);
  return arb as fc.Arbitrary<JsonBody>;
}

/**
 * An arbitrary of negative cases for a request schema: a valid body (see {@link validBody}) with
 * one member missing, of the wrong type, outside its enum or const, not matching its pattern, or
 * the whole body not an object. The reason is drawn first, so a shrunk case keeps its reason.
 * Every case is refused by Ajv for its reason and at its place only. `base`: the valid bodies to
 * mutate (a caller's pinned form, e.g. generators/patientBody.ts), instead of {@link validBody}'s.
 *
 * @example
 * fc.assert(fc.asyncProperty(invalidBodies('patient-create-request.schema.json'), async (c) => {
 *   const answer = await post(c.body);
 *   expect([400, 422]).toContain(answer.status); // per the operation's error table
 * }));
 */
export function invalidBodies(
  schema: string | JsonSchema,
  options: BodyOptions & { reasons?: readonly InvalidReason[]; base?: fc.Arbitrary<JsonBody> } = {},
): fc.Arbitrary<InvalidBody> {
  const reasons = options.reasons ?? INVALID_REASONS;
  return fc
    .tuple(fc.constantFrom(...reasons), options.base ?? validBody(schema, options), fc.nat())
    .map(([reason, body, pick]) => {
      const cases = invalidCasesOf(schema, body, [reason]);
      return cases.length === 0 ? undefined : cases[pick % cases.length];
    })
    .filter((c): c is InvalidBody => c !== undefined);
}

/**
 * Every negative case one valid body gives (the list form of {@link invalidBodies}), in document
 * order: each member mutated each way its schema allows, then the whole body replaced.
 */
export function invalidCasesOf(
  schema: string | JsonSchema,
  body: JsonBody,
  reasons: readonly InvalidReason[] = INVALID_REASONS,
): InvalidBody[] {
  const root = `${schemaId(schema)}#`;
  const candidates: InvalidBody[] = [];
  collectSites(
    walker,
    [root],
    body,
    [],
    (v) => v,
    (c) => {
      if (reasons.includes(c.reason)) candidates.push(c);
    },
  );
  if (reasons.includes('not-an-object')) {
    for (const replacement of [[], 'body', null]) {
      candidates.push({ reason: 'not-an-object', path: '', keyword: 'type', instancePath: '', body: replacement });
    }
  }
  return candidates.filter((c) => refusedFor(schema, c));
}

/** True when Ajv refuses the case with its keyword at its place, and every error lies at that place or above it. */
export function refusedFor(schema: string | JsonSchema, c: InvalidBody): boolean {
  const errors = schemaErrors(schema, c.body);
  const stated = (e: SchemaError) =>
    e.keyword === c.keyword &&
    e.instancePath === c.instancePath &&
    (c.keyword !== 'required' || `${c.instancePath}/${pointerSegment(String(e.params.missingProperty))}` === c.path);
  return (
    errors.some(stated) && errors.every((e) => c.path === e.instancePath || c.path.startsWith(`${e.instancePath}/`))
  );
}

// ------------------------------------------------------------------ merging

interface Group {
  /** Location of the keyword; identifies the decision. */
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
  /** Whether some part declares `type` (Ajv then refuses another type with keyword `type`). */
  typed: boolean;
  consts: unknown[];
  enums: unknown[][];
  patterns: string[];
  formats: string[];
  minLength: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  properties: Map<string, string[]>;
  required: Set<string>;
  closed: boolean;
  items: string[];
  contains: string[];
  minItems: number;
  maxItems?: number;
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
    const schema = schemaAt(uri);
    if (typeof schema === 'boolean') return;
    if (typeof schema.$ref === 'string') visit(refLocation(uri, schema.$ref));
    if (Array.isArray(schema.allOf)) {
      for (let i = 0; i < schema.allOf.length; i++) visit(childLocation(uri, 'allOf', i));
    }
  };
  for (const uri of uris) visit(uri);
  return out;
}

function merge(uris: readonly string[]): Merged {
  const m: Merged = {
    impossible: false,
    typed: false,
    consts: [],
    enums: [],
    patterns: [],
    formats: [],
    minLength: 0,
    properties: new Map(),
    required: new Set(),
    closed: false,
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
    const s = schemaAt(uri);
    if (s === false) m.impossible = true;
    if (typeof s === 'boolean') continue;
    for (const keyword of Object.keys(s)) {
      if (!SUPPORTED.has(keyword))
        throw new Error(`Expected a keyword bodyArbitrary supports, received ${keyword} at ${uri}`);
    }
    if (s.type !== undefined) {
      // A type list (`["string", "null"]`: an optional member a server may send as null) is
      // generated as its first non-null type; values of it are valid against the list.
      const types: unknown[] = Array.isArray(s.type) ? s.type : [s.type];
      const chosen = types.find((t) => t !== 'null') ?? types[0];
      if (typeof chosen !== 'string') throw new Error(`Expected type to be a name or a list of names at ${uri}`);
      m.type = intersectType(m.type, chosen);
      m.typed = true;
      if (m.type === '') m.impossible = true;
    }
    if ('const' in s) m.consts.push(s.const);
    if (Array.isArray(s.enum)) m.enums.push(s.enum);
    if (typeof s.pattern === 'string') m.patterns.push(s.pattern);
    if (typeof s.format === 'string') m.formats.push(s.format);
    if (typeof s.minLength === 'number') m.minLength = Math.max(m.minLength, s.minLength);
    if (typeof s.maxLength === 'number') m.maxLength = Math.min(m.maxLength ?? s.maxLength, s.maxLength);
    if (typeof s.minimum === 'number') m.minimum = Math.max(m.minimum ?? s.minimum, s.minimum);
    if (typeof s.maximum === 'number') m.maximum = Math.min(m.maximum ?? s.maximum, s.maximum);
    if (s.properties && typeof s.properties === 'object') {
      for (const name of Object.keys(s.properties)) {
        const list = m.properties.get(name) ?? [];
        list.push(childLocation(uri, 'properties', name));
        m.properties.set(name, list);
      }
    }
    if (s.additionalProperties === false) m.closed = true;
    if (Array.isArray(s.required)) for (const name of s.required) m.required.add(String(name));
    if (s.items !== undefined) m.items.push(childLocation(uri, 'items'));
    if (s.contains !== undefined) m.contains.push(childLocation(uri, 'contains'));
    if (typeof s.minItems === 'number') m.minItems = Math.max(m.minItems, s.minItems);
    if (typeof s.maxItems === 'number') m.maxItems = Math.min(m.maxItems ?? s.maxItems, s.maxItems);
    if (Array.isArray(s.oneOf)) {
      m.oneOf.push({ key: `${uri}/oneOf`, branches: s.oneOf.map((_, i) => childLocation(uri, 'oneOf', i)) });
      for (const branch of s.oneOf) {
        const required = (branch as { required?: unknown }).required;
        if (Array.isArray(required)) for (const name of required) m.discriminators.add(String(name));
      }
    }
    if (Array.isArray(s.anyOf)) {
      m.anyOf.push({ key: `${uri}/anyOf`, branches: s.anyOf.map((_, i) => childLocation(uri, 'anyOf', i)) });
    }
    if (s.if !== undefined) {
      m.conditionals.push({
        key: `${uri}/if`,
        ifUri: childLocation(uri, 'if'),
        thenUri: s.then !== undefined ? childLocation(uri, 'then') : undefined,
        elseUri: s.else !== undefined ? childLocation(uri, 'else') : undefined,
      });
    }
    if (s.not !== undefined) m.nots.push(childLocation(uri, 'not'));
  }
  if (m.type === undefined) {
    // Untyped parts still say what they describe: members make an object, items an array.
    if (m.properties.size > 0 || m.required.size > 0) m.type = 'object';
    else if (m.items.length > 0 || m.contains.length > 0) m.type = 'array';
  }
  return m;
}

function intersectType(a: string | undefined, b: string): string {
  if (a === undefined || a === b) return b;
  if ((a === 'integer' && b === 'number') || (a === 'number' && b === 'integer')) return 'integer';
  return '';
}

// ------------------------------------------------------------------ generation

/** One derivation: its options and the arbitraries built so far. */
class Derivation {
  readonly #cache = new Map<string, Arb | null>();
  readonly #merged = new Map<string, Merged>();
  readonly #overrides: ReadonlyMap<string, Arb>;
  readonly #optional: 'sometimes' | 'always' | 'never';
  readonly #maxItems: number;
  readonly #itemLimits: ReadonlyMap<string, number>;
  readonly #uniqueBy: ReadonlyMap<string, string>;
  readonly #omit: ReadonlySet<string>;
  readonly #nonEmpty: boolean;
  /** Every dotted path an option names: a member there is built for its own path. */
  readonly #named: readonly string[];

  constructor(options: BodyOptions) {
    this.#overrides = new Map(
      Object.entries(options.overrides ?? {}).map(([path, v]) => [
        path,
        v instanceof fc.Arbitrary ? v : fc.constant(v),
      ]),
    );
    this.#optional = options.optionalMembers ?? 'sometimes';
    this.#maxItems = options.maxItems ?? 3;
    this.#itemLimits = new Map(Object.entries(options.itemLimits ?? {}));
    this.#uniqueBy = new Map(Object.entries(options.uniqueBy ?? {}));
    this.#omit = new Set(options.omit ?? []);
    this.#nonEmpty = options.nonEmpty ?? false;
    this.#named = [...this.#overrides.keys(), ...this.#itemLimits.keys(), ...this.#uniqueBy.keys(), ...this.#omit];
  }

  merged(uris: readonly string[]): Merged {
    const key = uris.join(' ');
    let m = this.#merged.get(key);
    if (!m) {
      m = merge(flatten(uris));
      this.#merged.set(key, m);
    }
    return m;
  }

  /** An arbitrary satisfying every schema at `uris` together, or null when none can. */
  gen(uris: readonly string[], depth: number, resolved: ReadonlySet<string>, path: string): Arb | null {
    // The member path matters only where an option names it or a member below it.
    const pinned = this.#named.some((k) => path === '' || k === path || k.startsWith(`${path}.`));
    const key = `${[...new Set(uris)].sort().join(' ')}|${[...resolved].sort().join(' ')}|${depth}|${pinned ? path : ''}`;
    if (this.#cache.has(key)) return this.#cache.get(key) ?? null;
    const arb = this.#build(uris, depth, resolved, path);
    this.#cache.set(key, arb);
    return arb;
  }

  #build(uris: readonly string[], depth: number, resolved: ReadonlySet<string>, path: string): Arb | null {
    const m = this.merged(uris);
    if (m.impossible) return null;
    const also = (k: string): Set<string> => new Set([...resolved, k]);

    // Decisions first: each picks a branch and recurses with the branch merged in.
    const oneOf = m.oneOf.find((g) => !resolved.has(g.key));
    if (oneOf) {
      return choose(
        oneOf.branches.map((branch, i) => {
          const others = oneOf.branches.filter((_, j) => j !== i);
          return {
            arb: this.gen([...uris, branch], depth, also(oneOf.key), path),
            // exactly one branch: a value that also satisfies another branch is refused by oneOf
            ok: (v: unknown) => others.every((o) => !satisfies(o, v)),
          };
        }),
      );
    }
    const anyOf = m.anyOf.find((g) => !resolved.has(g.key));
    if (anyOf) {
      return choose(
        anyOf.branches.map((branch) => ({ arb: this.gen([...uris, branch], depth, also(anyOf.key), path) })),
      );
    }
    const pending = m.conditionals.filter((c) => !resolved.has(c.key));
    if (pending.length > 0) {
      // At most one condition is steered into (a value is one kind of extension); the others
      // must then not fire, or hold when they do.
      const done = new Set([...resolved, ...pending.map((c) => c.key)]);
      const ok = (v: unknown): boolean =>
        pending.every((c) => {
          const branch = satisfies(c.ifUri, v) ? c.thenUri : c.elseUri;
          return branch === undefined || satisfies(branch, v);
        });
      const steered = pending.map((c) => [c.ifUri, ...(c.thenUri ? [c.thenUri] : [])]);
      return choose([[], ...steered].map((extra) => ({ arb: this.gen([...uris, ...extra], depth, done, path), ok })));
    }

    const arb = this.#leaf(m, depth, path);
    if (!arb || m.nots.length === 0) return arb;
    const ok = (v: unknown): boolean => m.nots.every((n) => !satisfies(n, v));
    return feasible(arb, ok) ? arb.filter(ok) : null;
  }

  #leaf(m: Merged, depth: number, path: string): Arb | null {
    if (m.consts.length > 0 || m.enums.length > 0) {
      const candidates = m.consts.length > 0 ? [m.consts[0]] : m.enums[0];
      const values = candidates.filter(
        (v) =>
          m.consts.every((c) => sameJson(c, v)) &&
          m.enums.every((e) => e.some((x) => sameJson(x, v))) &&
          fitsType(v, m.type) &&
          (typeof v !== 'string' || stringFits(m)(v)),
      );
      return values.length > 0 ? fc.constantFrom(...values) : null;
    }
    switch (m.type ?? 'string') {
      case 'string':
        return stringArb(this.#nonEmpty ? { ...m, minLength: Math.max(1, m.minLength) } : m);
      case 'number': {
        // Cents: money and decimals read back unchanged, without float noise.
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
        // FHIR JSON has no null values: a caller leaves the member out (nonEmpty).
        return this.#nonEmpty ? null : fc.constant(null);
      case 'object':
        return this.#object(m, depth, path);
      case 'array':
        return this.#array(m, depth, path);
      default:
        throw new Error(`Expected a JSON Schema type, received ${m.type}`);
    }
  }

  #object(m: Merged, depth: number, path: string): Arb | null {
    const model: Record<string, Arb> = {};
    const requiredKeys: string[] = [];
    const memberPath = (name: string) => (path === '' ? name : `${path}.${name}`);
    const pinnedHere = [...this.#overrides.keys()]
      .filter(
        (k) => k.startsWith(path === '' ? '' : `${path}.`) && !k.slice(path === '' ? 0 : path.length + 1).includes('.'),
      )
      .map((k) => k.slice(path === '' ? 0 : path.length + 1));
    for (const name of new Set([...m.properties.keys(), ...m.required, ...pinnedHere])) {
      const pinned = this.#overrides.get(memberPath(name));
      if (pinned) {
        if (m.closed && !m.properties.has(name))
          throw new Error(`Expected a member the schema allows, received ${memberPath(name)}`);
        model[name] = pinned;
        requiredKeys.push(name);
        continue;
      }
      const required = m.required.has(name);
      if (!required && this.#omit.has(memberPath(name))) continue;
      const leadsToPin = [...this.#overrides.keys()].some((k) => k.startsWith(`${memberPath(name)}.`));
      if (!required && !leadsToPin) {
        if (this.#optional === 'never' || depth >= MAX_DEPTH || m.discriminators.has(name)) continue;
        // A member the server owns (`readOnly`: an id, `active` on read) is not the caller's to send.
        if (isReadOnly(m.properties.get(name) ?? [])) continue;
      }
      const arb = this.gen(m.properties.get(name) ?? [], depth + 1, new Set(), memberPath(name));
      if (!arb) {
        if (required) return null;
        continue;
      }
      model[name] = arb;
      if (required || leadsToPin || this.#optional === 'always') requiredKeys.push(name);
    }
    return fc.record(model, { requiredKeys, noNullPrototype: true });
  }

  #array(m: Merged, depth: number, path: string): Arb | null {
    const containsArbs: Arb[] = [];
    for (const c of m.contains) {
      const arb = this.gen([...m.items, c], depth + 1, new Set(), path);
      if (!arb) return null;
      containsArbs.push(arb);
    }
    const ceiling = Math.min(
      m.maxItems ?? Number.POSITIVE_INFINITY,
      this.#itemLimits.get(path) ?? Number.POSITIVE_INFINITY,
    );
    if (containsArbs.length > ceiling || m.minItems > ceiling) return null;
    const atLeast = this.#nonEmpty && ceiling > 0 && depth < MAX_DEPTH ? 1 : 0;
    const minBase = Math.max(0, Math.max(atLeast, m.minItems) - containsArbs.length);
    const wanted = depth >= MAX_DEPTH ? minBase : Math.max(minBase, this.#maxItems);
    const maxBase = Math.min(wanted, ceiling - containsArbs.length);
    let base: fc.Arbitrary<unknown[]> = fc.constant([]);
    if (maxBase > 0) {
      const item = m.items.length > 0 ? this.gen(m.items, depth + 1, new Set(), path) : stringArb(merge([]));
      const by = this.#uniqueBy.get(path);
      if (item && by !== undefined)
        base = fc.uniqueArray(item, {
          minLength: minBase,
          maxLength: maxBase,
          selector: (v) => (isObject(v) ? v[by] : v),
        });
      else if (item) base = fc.array(item, { minLength: minBase, maxLength: maxBase });
      else if (minBase > 0) return null;
    }
    if (containsArbs.length === 0) return base;
    const positions = fc.array(fc.nat(), { minLength: containsArbs.length, maxLength: containsArbs.length });
    return fc.tuple(base, fc.tuple(...containsArbs), positions).map(([items, extra, at]) => {
      const out = [...items];
      extra.forEach((value, i) => {
        out.splice(at[i] % (out.length + 1), 0, value);
      });
      return out;
    });
  }
}

function isReadOnly(uris: readonly string[]): boolean {
  return flatten(uris).some((uri) => {
    const schema = schemaAt(uri);
    return typeof schema === 'object' && schema.readOnly === true;
  });
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

function feasible(arb: Arb, ok: (v: unknown) => boolean): boolean {
  // The first two samples settle most branches; the same seed gives the same first values, so
  // the answer is the one all the samples would give.
  return [2, FEASIBILITY_SAMPLES].some((numRuns) => fc.sample(arb, { numRuns, seed: FEASIBILITY_SEED }).some(ok));
}

// ------------------------------------------------------------------ strings

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const alnum = (minLength: number, maxLength: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...ALNUM), minLength, maxLength });
const pad = (n: number): string => String(n).padStart(2, '0');

const dateArb = fc
  .date({ min: new Date('1920-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true })
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
/** Per-target url prefixes (`{ref_url}`, `{contracts_url}`): urls are matched by suffix. */
const URL_PREFIXES = ['https://ref.example', 'https://contracts.example', 'https://clearing.example'];

/** Real calendar values for the date patterns of `common` (a pattern alone would allow month 19). */
const KNOWN_PATTERNS: Record<string, fc.Arbitrary<string>> = {
  '^\\d{4}-\\d{2}-\\d{2}$': dateArb,
  '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})?$': fc
    .tuple(dateArb, timeArb, fc.option(offsetArb))
    .map(([d, t, o]) => `${d}T${t}${o ?? ''}`),
  '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$': fc
    .tuple(dateArb, timeArb, offsetArb)
    .map(([d, t, o]) => `${d}T${t}${o}`),
  '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?[+-]\\d{4}$': fc
    .tuple(
      dateArb,
      timeArb,
      offsetArb.filter((o) => o !== 'Z'),
    )
    .map(([d, t, o]) => `${d}T${t}${o.replace(':', '')}`),
  '^[0-9]+$': fc.nat({ max: 500 }).map(String),
};

const FORMATS: Record<string, fc.Arbitrary<string>> = {
  date: dateArb,
  'date-time': fc.tuple(dateArb, timeArb, offsetArb).map(([d, t, o]) => `${d}T${t}${o}`),
  email: fc.tuple(alnum(1, 8), alnum(1, 8)).map(([local, host]) => `${local}@${host}.example`.toLowerCase()),
  uri: fc.tuple(fc.constantFrom(...URL_PREFIXES), alnum(0, 8)).map(([prefix, tail]) => `${prefix}/${tail}`),
};

/**
 * A pattern's `.` (any character) read as a letter or digit: every string of the narrowed pattern
 * matches the original, and bodies stay readable, so a server that stores and echoes them back
 * is judged on its behaviour, not on escaping.
 */
function readableDots(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') {
      out += ch + (pattern[i + 1] ?? '');
      i++;
    } else if (ch === '[') {
      inClass = true;
      out += ch;
    } else if (ch === ']') {
      inClass = false;
      out += ch;
    } else if (ch === '.' && !inClass) out += '[A-Za-z0-9]';
    else out += ch;
  }
  return out;
}

function patternArb(pattern: string): fc.Arbitrary<string> {
  const known = KNOWN_PATTERNS[pattern];
  if (known) return known;
  // A literal suffix such as `/extension/patient/insurer$`: an extension url or system.
  const suffix = /^(\/[A-Za-z0-9_/-]+)\$$/.exec(pattern);
  if (suffix) return fc.constantFrom(...URL_PREFIXES).map((prefix) => prefix + suffix[1]);
  // Anchored at both ends: fc.stringMatching pads an unanchored pattern with any characters, and
  // every string matching `^(?:P)$` matches P.
  return fc.stringMatching(new RegExp(`^(?:${readableDots(pattern)})$`, 'u'));
}

const stringFits =
  (m: Merged) =>
  (v: unknown): boolean =>
    typeof v === 'string' &&
    [...v].length >= m.minLength &&
    (m.maxLength === undefined || [...v].length <= m.maxLength) &&
    m.patterns.every((p) => new RegExp(p, 'u').test(v));

function stringArb(m: Merged): Arb | null {
  const ok = stringFits(m);
  const sources: fc.Arbitrary<string>[] = [];
  for (const format of m.formats) {
    const arb = FORMATS[format];
    if (!arb)
      throw new Error(
        `Expected a format bodyArbitrary supports (${Object.keys(FORMATS).join(', ')}), received ${format}`,
      );
    sources.push(arb);
  }
  sources.push(...m.patterns.map(patternArb));
  if (sources.length === 0) {
    const max = Math.min(m.maxLength ?? Number.POSITIVE_INFINITY, Math.max(m.minLength, 8));
    return max < m.minLength ? null : alnum(m.minLength, max);
  }
  for (const arb of sources) {
    if (feasible(arb, ok)) return arb.filter(ok);
  }
  return null;
}

// ------------------------------------------------------------------ negative cases

/** Merges are independent of options: one derivation serves every walk, its cache shared. */
const walker = new Derivation({});

/**
 * Walks a valid value beside its schema and offers one mutation per site: the parts that govern
 * a value are its own schema plus the oneOf/anyOf branches it satisfies and the then/else its
 * `if` selects, so a mutation targets what the value was actually checked against.
 */
function collectSites(
  d: Derivation,
  uris: readonly string[],
  value: unknown,
  at: string[],
  rebuild: (replacement: unknown) => unknown,
  offer: (c: InvalidBody) => void,
): void {
  const applied = new Set(flatten(uris));
  for (let grew = true; grew; ) {
    grew = false;
    const m = d.merged([...applied]);
    const more = [
      ...[...m.oneOf, ...m.anyOf].flatMap((g) => g.branches.filter((b) => satisfies(b, value))),
      ...m.conditionals.flatMap((c) => {
        const branch = satisfies(c.ifUri, value) ? c.thenUri : c.elseUri;
        return branch === undefined ? [] : [branch];
      }),
    ];
    for (const uri of flatten(more)) {
      if (!applied.has(uri)) {
        applied.add(uri);
        grew = true;
      }
    }
  }
  const m = d.merged([...applied]);
  const path = at.map((s) => `/${pointerSegment(s)}`).join('');
  const root = at.length === 0;

  if (!root && m.typed && m.type !== undefined) {
    offer({ reason: 'wrong-type', path, keyword: 'type', instancePath: path, body: rebuild(wrongTypeOf(m.type)) });
  }
  if (!root && (m.enums.length > 0 || m.consts.length > 0)) {
    offer({
      reason: 'not-in-enum',
      path,
      keyword: m.enums.length > 0 ? 'enum' : 'const',
      instancePath: path,
      body: rebuild(outsideOf(value)),
    });
  }
  if (!root && typeof value === 'string' && m.patterns.length > 0) {
    const mismatch = ['!', '!!!!!!!!', ' ', ''].find(
      (s) => [...s].length >= m.minLength && m.patterns.some((p) => !new RegExp(p, 'u').test(s)),
    );
    if (mismatch !== undefined)
      offer({ reason: 'pattern-mismatch', path, keyword: 'pattern', instancePath: path, body: rebuild(mismatch) });
  }
  if (isObject(value)) {
    for (const name of m.required) {
      if (name in value) {
        const { [name]: _, ...rest } = value;
        offer({
          reason: 'missing-required',
          path: `${path}/${pointerSegment(name)}`,
          keyword: 'required',
          instancePath: path,
          body: rebuild(rest),
        });
      }
    }
    for (const [name, member] of Object.entries(value)) {
      const locations = m.properties.get(name);
      if (locations) {
        collectSites(d, locations, member, [...at, name], (v) => rebuild({ ...value, [name]: v }), offer);
      }
    }
  } else if (Array.isArray(value) && m.items.length > 0) {
    value.forEach((item, i) => {
      const replaced = (v: unknown) => rebuild(value.map((x, j) => (j === i ? v : x)));
      collectSites(d, m.items, item, [...at, String(i)], replaced, offer);
    });
  }
}

function wrongTypeOf(type: string): unknown {
  switch (type) {
    case 'string':
      return 1234;
    case 'object':
    case 'array':
      return 'text';
    default:
      return 'text-not-a-number';
  }
}

function outsideOf(value: unknown): unknown {
  if (typeof value === 'number') return 987654321;
  if (typeof value === 'boolean') return 'not-listed';
  return `${typeof value === 'string' ? value : ''}-not-listed`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function pointerSegment(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

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
      return isObject(value);
    default:
      return false;
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
