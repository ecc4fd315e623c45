/**
 * Pact matchers from a JSON Schema (schemas/, core/schemaRegistry.ts) and a valid example of it
 * (schemas/examples/<name>.valid.json): the template any schema-valid answer matches. Only what
 * every valid answer must hold goes in: required members (the ones all `oneOf` / `anyOf` branches
 * require), types for strings, numbers and booleans, a regex where the schema fixes a pattern or
 * an enum, a literal (`equal`) where it fixes a value (`const`: a resourceType, a code). What the
 * schema leaves to choice (a member of several types, `contains`, optional members) is left out:
 * a pact that demands less than the documents is weaker, never wrong.
 */
import { MatchersV3 } from '@pact-foundation/pact';
import { schemaFor } from '../core/schemaRegistry.ts';

type Schema = Record<string, unknown>;
interface Located {
  schema: Schema | boolean;
  file: string;
}

/** Literal values pinned by JSON path (`$.issue[*].details.coding[*].code`): the documented error code. */
export type Pins = Readonly<Record<string, unknown>>;

const SKIP = Symbol('skip');
type Template = unknown;

const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

function resolveRef(ref: string, file: string): Located {
  const [target, pointer = ''] = ref.split('#');
  const targetFile = target === '' ? file : (target.split('/').pop() ?? target);
  let node: unknown = schemaFor(targetFile);
  for (const part of pointer.split('/').filter((s) => s !== '')) {
    node = (node as Schema)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  if (!isObject(node) && typeof node !== 'boolean') throw new Error(`Unresolvable $ref ${ref} in ${file}`);
  return { schema: node, file: targetFile };
}

/** One schema as a list of flat alternatives (no $ref, allOf, oneOf or anyOf left). */
function flatten(at: Located, depth = 0): Located[] {
  if (depth > 40) throw new Error(`Schema nesting too deep in ${at.file}`);
  if (typeof at.schema === 'boolean') return [at];
  const { $ref, allOf, oneOf, anyOf, ...own } = at.schema;
  let alternatives: Located[] = [{ schema: own, file: at.file }];
  const parts: Located[] = [];
  if (typeof $ref === 'string') parts.push(resolveRef($ref, at.file));
  if (Array.isArray(allOf)) for (const s of allOf) parts.push({ schema: s as Schema, file: at.file });
  for (const part of parts) {
    const flat = flatten(part, depth + 1);
    alternatives = alternatives.flatMap((a) => flat.map((f) => merge(a, f)));
  }
  const branches = Array.isArray(oneOf) ? oneOf : Array.isArray(anyOf) ? anyOf : undefined;
  if (branches) {
    const flat = branches.flatMap((b) => flatten({ schema: b as Schema, file: at.file }, depth + 1));
    alternatives = alternatives.flatMap((a) => flat.map((f) => merge(a, f)));
  }
  return alternatives;
}

/** Both schemas at once (allOf): required and properties joined, the other keywords of either. */
function merge(a: Located, b: Located): Located {
  if (a.schema === false || b.schema === false) return { schema: false, file: a.file };
  if (a.schema === true) return b;
  if (b.schema === true) return a;
  const required = [
    ...new Set([...((a.schema.required as string[]) ?? []), ...((b.schema.required as string[]) ?? [])]),
  ];
  const pa = (a.schema.properties as Record<string, unknown>) ?? {};
  const pb = (b.schema.properties as Record<string, unknown>) ?? {};
  // A member constrained by both keeps both constraints: its schemas join through allOf, each
  // resolved in its own file (the files differ when one side came through a $ref).
  const properties: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(pa), ...Object.keys(pb)])) {
    if (pa[key] !== undefined && pb[key] !== undefined)
      properties[key] = { allOf: [located(pa[key], a.file), located(pb[key], b.file)] };
    else properties[key] = located(pa[key] ?? pb[key], pa[key] !== undefined ? a.file : b.file);
  }
  const items =
    a.schema.items !== undefined
      ? located(a.schema.items, a.file)
      : b.schema.items !== undefined
        ? located(b.schema.items, b.file)
        : undefined;
  const schema: Schema = { ...a.schema, ...b.schema };
  if (required.length > 0) schema.required = required;
  if (Object.keys(properties).length > 0) schema.properties = properties;
  if (items !== undefined) schema.items = items;
  return { schema, file: a.file };
}

/** A sub-schema carried with its file, so a later $ref resolves where it was written. */
const LOCATED = Symbol('located');
function located(schema: unknown, file: string): unknown {
  if (isObject(schema) && (schema as { [LOCATED]?: Located })[LOCATED]) return schema;
  return { [LOCATED]: { schema, file } };
}
function unwrap(schema: unknown, file: string): Located {
  if (isObject(schema) && (schema as { [LOCATED]?: Located })[LOCATED])
    return (schema as { [LOCATED]: Located })[LOCATED];
  if (isObject(schema) && Array.isArray(schema.allOf) && schema.allOf.some((s) => isObject(s) && LOCATED in s)) {
    // allOf of located parts: flatten each in its own file.
    return { schema: { allOf: schema.allOf }, file };
  }
  return { schema: schema as Schema | boolean, file };
}

function flattenAny(schema: unknown, file: string): Located[] {
  const at = unwrap(schema, file);
  if (typeof at.schema !== 'boolean' && Array.isArray(at.schema.allOf)) {
    const { allOf, ...own } = at.schema;
    let alternatives = flatten({ schema: own, file: at.file });
    for (const part of allOf) {
      const flat = flattenAny(part, at.file);
      alternatives = alternatives.flatMap((x) => flat.map((f) => merge(x, f)));
    }
    return alternatives;
  }
  return flatten(at);
}

function typesOf(s: Schema): string[] {
  if (typeof s.type === 'string') return [s.type];
  if (Array.isArray(s.type)) return s.type as string[];
  if (s.const !== undefined)
    return [s.const === null ? 'null' : typeof s.const === 'object' ? 'object' : typeof s.const];
  if (s.properties || s.required) return ['object'];
  if (s.items) return ['array'];
  if (s.pattern || s.format || s.enum) return ['string'];
  return [];
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** Constructs JavaScript and Rust regexes read alike: no look-around, no back-references. */
const portable = (pattern: string) => !/\(\?<?[=!]|\\[1-9]|\\k</.test(pattern);

function build(alts: Located[], example: unknown, path: string, pins: Pins): Template | typeof SKIP {
  if (path in pins) return MatchersV3.equal(pins[path]);
  if (alts.length === 0 || alts.some((a) => typeof a.schema === 'boolean')) return SKIP;
  const schemas = alts.map((a) => a.schema as Schema);
  const consts = schemas.map((s) => s.const);
  if (consts.every((c) => c !== undefined && JSON.stringify(c) === JSON.stringify(consts[0])))
    return MatchersV3.equal(consts[0]);
  const types = schemas.map(typesOf);
  if (types.some((t) => t.length !== 1)) return SKIP;
  let kinds = new Set(types.map((t) => t[0]));
  if (kinds.has('integer') && kinds.has('number')) kinds = new Set(['number']);
  if (kinds.size !== 1) return SKIP;
  const kind = [...kinds][0];
  switch (kind) {
    case 'string': {
      if (typeof example !== 'string') return SKIP;
      if (schemas.every((s) => Array.isArray(s.enum))) {
        const values = [...new Set(schemas.flatMap((s) => s.enum as unknown[]))].filter(
          (v): v is string => typeof v === 'string',
        );
        if (values.length === 1 && values[0] === example) return MatchersV3.equal(example);
        const pattern = `^(?:${values.map(escapeRegex).join('|')})$`;
        if (new RegExp(pattern).test(example)) return MatchersV3.regex(pattern, example);
      }
      const pattern = schemas[0].pattern;
      if (
        typeof pattern === 'string' &&
        schemas.every((s) => s.pattern === pattern) &&
        portable(pattern) &&
        new RegExp(pattern, 'u').test(example)
      )
        return MatchersV3.regex(pattern, example);
      return MatchersV3.string(example);
    }
    case 'integer':
      return typeof example === 'number' && Number.isInteger(example) ? MatchersV3.integer(example) : SKIP;
    case 'number':
      return typeof example === 'number' ? MatchersV3.number(example) : SKIP;
    case 'boolean':
      return typeof example === 'boolean' ? MatchersV3.boolean(example) : SKIP;
    case 'object': {
      if (!isObject(example)) return SKIP;
      const required = schemas
        .map((s) => (s.required as string[] | undefined) ?? [])
        .reduce((acc, r) => acc.filter((k) => r.includes(k)));
      const out: Record<string, unknown> = {};
      for (const key of required) {
        if (!(key in example)) continue;
        const subs = alts.map((a) => ((a.schema as Schema).properties as Record<string, unknown> | undefined)?.[key]);
        if (subs.some((s) => s === undefined)) continue;
        const subAlts = subs.flatMap((s, i) => flattenAny(s, alts[i].file));
        const t = build(subAlts, example[key], `${path}.${key}`, pins);
        if (t !== SKIP) out[key] = t;
      }
      return out;
    }
    case 'array': {
      if (!Array.isArray(example) || example.length === 0) return SKIP;
      const min = Math.min(...schemas.map((s) => (typeof s.minItems === 'number' ? s.minItems : 0)));
      const items = alts.map((a) => (a.schema as Schema).items);
      if (items.some((i) => i === undefined)) return SKIP;
      const itemAlts = items.flatMap((s, i) => flattenAny(s, alts[i].file));
      const item = build(itemAlts, example[0], `${path}[*]`, pins);
      if (item === SKIP) return SKIP;
      return MatchersV3.atLeastLike(item, min, 1);
    }
    default:
      return SKIP;
  }
}

/**
 * The Pact body template of a schema file for this valid example: matchers wherever the schema
 * fixes only a type or a form, literals where it fixes a value, `pins` where the interaction fixes
 * one (the documented error code).
 */
export function templateFromSchema(schemaFile: string, example: unknown, pins: Pins = {}): unknown {
  const t = build(flatten({ schema: schemaFor(schemaFile), file: schemaFile }), example, '$', pins);
  return t === SKIP ? undefined : t;
}
