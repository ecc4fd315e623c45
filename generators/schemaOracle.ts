/**
 * Schema locations and the two Ajv instances the body generators lean on (issue 14).
 *
 * `core/schemaRegistry.ts` answers "valid or not" with readable lines; the generators need more:
 * the subschema at a location (`<file $id>#<JSON pointer>`), whether a value satisfies one
 * subschema on its own (a oneOf branch, an `if`), and Ajv's raw errors (`keyword`,
 * `instancePath`) to prove that a negative case is refused for the reason it states. Both
 * instances load the same files as the registry, with its options (2020-12, ajv-formats), so a
 * `$ref` resolves here exactly as it does there.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { SCHEMA_BASE_URI, schemaFiles, schemaFor, type JsonSchema } from '../core/schemaRegistry.ts';

/** A subschema: the registry holds objects, but subschemas may be `true` / `false`. */
export type SchemaNode = JsonSchema | boolean;

/** One Ajv error, reduced to what a negative case is judged by. */
export interface SchemaError {
  keyword: string;
  /** JSON pointer of the refused value (`''` for the whole body). */
  instancePath: string;
  params: Record<string, unknown>;
}

// ajv-formats is CommonJS: under NodeNext its default import is the module object at type level.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv2020,
) => Ajv2020;

/** Schemas given as objects (a cloned or draft schema), by their given object. */
const inlineIds = new WeakMap<JsonSchema, string>();
const inlineSchemas = new Map<string, JsonSchema>();

let strict: Ajv2020 | undefined;
let lenient: Ajv2020 | undefined;
const strictValidators = new Map<string, ValidateFunction>();
const lenientValidators = new Map<string, ValidateFunction>();

function instances(): { strict: Ajv2020; lenient: Ajv2020 } {
  if (!strict || !lenient) {
    // The registry's options: its answers and ours must agree on every body.
    strict = addFormats(new Ajv2020({ strict: true, allErrors: true }));
    // Not strict: a subschema compiled on its own lacks the context (`type`) strict mode wants.
    lenient = addFormats(new Ajv2020({ strict: false, allErrors: false }));
    for (const file of schemaFiles()) {
      strict.addSchema(schemaFor(file));
      lenient.addSchema(schemaFor(file));
    }
    for (const schema of inlineSchemas.values()) {
      strict.addSchema(schema);
      lenient.addSchema(schema);
    }
  }
  return { strict, lenient };
}

/**
 * The `$id` of a schema: a registry file name (`patient.schema.json`) gives its registry id; a
 * schema object is registered once under an id of its own beside the registry files (so its
 * relative `$ref`s still reach them), even when it is a clone that kept the original's `$id`.
 * The object is copied when first seen: change a schema by cloning it again, not in place.
 */
export function schemaId(schema: string | JsonSchema): string {
  if (typeof schema === 'string') {
    schemaFor(schema); // throws for an unknown file (a suite bug)
    return SCHEMA_BASE_URI + schema;
  }
  const known = inlineIds.get(schema);
  if (known) return known;
  const id = `${SCHEMA_BASE_URI}inline-${inlineSchemas.size + 1}.schema.json`;
  const copy = { ...structuredClone(schema), $id: id };
  inlineIds.set(schema, id);
  inlineSchemas.set(id, copy);
  if (strict && lenient) {
    strict.addSchema(copy);
    lenient.addSchema(copy);
  }
  return id;
}

/** The subschema at an absolute location `<file $id>#<JSON pointer>`. */
export function schemaAt(uri: string): SchemaNode {
  const hash = uri.indexOf('#');
  const fileId = hash < 0 ? uri : uri.slice(0, hash);
  const pointer = hash < 0 ? '' : uri.slice(hash + 1);
  let node: unknown = inlineSchemas.get(fileId);
  if (node === undefined) {
    if (!fileId.startsWith(SCHEMA_BASE_URI))
      throw new Error(`Expected a reference inside the registry, received ${uri}`);
    node = schemaFor(fileId.slice(SCHEMA_BASE_URI.length));
  }
  if (pointer !== '') {
    for (const raw of pointer.slice(1).split('/')) {
      const segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      node = (node as Record<string, unknown> | undefined)?.[segment];
    }
  }
  if (typeof node !== 'boolean' && (node === null || typeof node !== 'object')) {
    throw new Error(`Expected a schema at ${uri}, received ${String(node)}`);
  }
  return node as SchemaNode;
}

/** The location of a keyword or member below `uri` (JSON pointer escaping). */
export function childLocation(uri: string, ...segments: (string | number)[]): string {
  return uri + segments.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** The location a `$ref` found at `uri` points to. */
export function refLocation(uri: string, ref: string): string {
  const hash = uri.indexOf('#');
  const href = new URL(ref, hash < 0 ? uri : uri.slice(0, hash)).href;
  return href.includes('#') ? href : `${href}#`;
}

/** Whether `value` satisfies the one subschema at `uri` on its own (a branch, an `if`). */
export function satisfies(uri: string, value: unknown): boolean {
  let check = lenientValidators.get(uri);
  if (!check) {
    check = instances().lenient.compile({ $ref: uri });
    lenientValidators.set(uri, check);
  }
  return check(value) === true;
}

/**
 * Ajv's errors for `value` against a whole schema (file name or schema object), all of them
 * (`allErrors`); empty when the value is valid.
 */
export function schemaErrors(schema: string | JsonSchema, value: unknown): SchemaError[] {
  const id = schemaId(schema);
  let validate = strictValidators.get(id);
  if (!validate) {
    validate = instances().strict.getSchema(id);
    if (!validate) throw new Error(`Expected schema ${id} to compile`);
    strictValidators.set(id, validate);
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => ({
    keyword: e.keyword,
    instancePath: e.instancePath,
    params: e.params as Record<string, unknown>,
  }));
}
