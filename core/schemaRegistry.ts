/**
 * The schema registry: every `schemas/*.schema.json` loaded once into one strict Ajv (draft
 * 2020-12, all errors, ajv-formats), looked up by file name as `spec/operations.ts` names them.
 *
 * Compiling the 59 schemas takes about 1.2 s of CPU, and every suite worker of every run needed
 * them again. The validators are therefore compiled once into standalone code (Ajv's own
 * `standaloneCode`) kept in `node_modules/.cache/conformance-schemas/<digest>.cjs`, the digest
 * covering the schema files, the Ajv version and the options: a changed schema gets new code, and a
 * worker loads the code in about 70 ms. Where the cache cannot be written, validators are compiled
 * in memory as before; the two give the same errors (core/schemaRegistry.test.ts).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import addFormatsModule from 'ajv-formats';

/** Base URI of every schema `$id`: `<SCHEMA_BASE_URI><file name>`. */
export const SCHEMA_BASE_URI = 'https://conformance.local/schemas/';

/** At most this many error lines per validation. */
export const MAX_ERRORS = 20;

export interface ValidationResult {
  valid: boolean;
  /** One line per problem: `<instancePath or /> <message>`, the causes first. Empty when valid. */
  errors: string[];
  /**
   * How many of `errors` are causes; the rest are failed alternatives (anyOf, oneOf, if/then)
   * that a cause already explains, shown on demand (evidence), not in a message.
   */
  causes?: number;
}

/** A JSON Schema as stored on disk (an object; the registry never holds boolean schemas). */
export type JsonSchema = Record<string, unknown>;

const schemasDir = fileURLToPath(new URL('../schemas/', import.meta.url));

// ajv-formats is CommonJS: under NodeNext its default import is the module object at type level.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv2020,
) => Ajv2020;

const standaloneCode = ((standaloneModule as unknown as { default?: unknown }).default ??
  standaloneModule) as unknown as (ajv: Ajv2020, refs: Record<string, string>) => string;

// `verbose` keeps the failing subschema on each error, so messages can quote its description.
const AJV_OPTIONS = { strict: true, allErrors: true, verbose: true } as const;

interface Registry {
  schemas: Map<string, JsonSchema>;
  validators: Map<string, ValidateFunction>;
  /** Compiles a schema file's validator when the precompiled code is not at hand. */
  compile: (schemaFile: string) => ValidateFunction | undefined;
}

let registry: Registry | undefined;

function newAjv(source: boolean): Ajv2020 {
  const ajv = new Ajv2020({ ...AJV_OPTIONS, ...(source ? { code: { source: true } } : {}) });
  addFormats(ajv);
  return ajv;
}

function readSchemas(): { schemas: Map<string, JsonSchema>; texts: string[] } {
  const schemas = new Map<string, JsonSchema>();
  const texts: string[] = [];
  for (const file of readdirSync(schemasDir)
    .filter((f) => f.endsWith('.schema.json'))
    .sort()) {
    const text = readFileSync(schemasDir + file, 'utf8');
    const schema = JSON.parse(text) as JsonSchema;
    if (schema.$id !== SCHEMA_BASE_URI + file) {
      throw new Error(`Schema ${file} must have $id ${SCHEMA_BASE_URI + file}, received ${String(schema.$id)}`);
    }
    schemas.set(file, schema);
    texts.push(file, text);
  }
  return { schemas, texts };
}

const cacheDir = fileURLToPath(new URL('../node_modules/.cache/conformance-schemas/', import.meta.url));
const require = createRequire(import.meta.url);

/** The precompiled validators by schema file, written to the cache first when missing; undefined when the cache cannot be used. */
function precompiled(schemas: Map<string, JsonSchema>, texts: string[]): Record<string, ValidateFunction> | undefined {
  const ajvVersion = (require('ajv/package.json') as { version: string }).version;
  const digest = createHash('sha256')
    .update(JSON.stringify([ajvVersion, AJV_OPTIONS, texts]))
    .digest('hex')
    .slice(0, 24);
  const file = `${cacheDir}${digest}.cjs`;
  try {
    return require(file) as Record<string, ValidateFunction>;
  } catch {
    // not generated yet (or unreadable): generate below
  }
  try {
    const ajv = newAjv(true);
    for (const schema of schemas.values()) ajv.addSchema(schema);
    const code = standaloneCode(ajv, Object.fromEntries([...schemas.keys()].map((f) => [f, SCHEMA_BASE_URI + f])));
    mkdirSync(cacheDir, { recursive: true });
    // Written under a unique name and renamed: workers generating at once never read half a file.
    const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    writeFileSync(temporary, code);
    renameSync(temporary, file);
    return require(file) as Record<string, ValidateFunction>;
  } catch {
    return undefined;
  }
}

function load(): Registry {
  if (registry) return registry;
  const { schemas, texts } = readSchemas();
  const code = process.env.CONFORMANCE_SCHEMA_CACHE === '0' ? undefined : precompiled(schemas, texts);
  let ajv: Ajv2020 | undefined;
  const compile = (schemaFile: string): ValidateFunction | undefined => {
    if (code?.[schemaFile]) return code[schemaFile];
    if (!ajv) {
      ajv = newAjv(false);
      for (const schema of schemas.values()) ajv.addSchema(schema);
    }
    return ajv.getSchema(SCHEMA_BASE_URI + schemaFile);
  };
  registry = { schemas, validators: new Map(), compile };
  return registry;
}

/** Compiles every schema in memory, without the cache (strict mode: throws on the first that does not compile). */
export function compileAllInMemory(): Map<string, ValidateFunction> {
  const { schemas } = readSchemas();
  const ajv = newAjv(false);
  for (const schema of schemas.values()) ajv.addSchema(schema);
  return new Map([...schemas.keys()].map((f) => [f, ajv.getSchema(SCHEMA_BASE_URI + f) as ValidateFunction] as const));
}

function known(schemaFile: string): Registry {
  const reg = load();
  if (!reg.schemas.has(schemaFile)) {
    throw new Error(`Unknown schema file ${schemaFile}; known: ${[...reg.schemas.keys()].join(', ')}`);
  }
  return reg;
}

/** The compiled validator of a schema file (compiled on first use, then cached). */
function validatorFor(schemaFile: string): ValidateFunction {
  const reg = known(schemaFile);
  let validate = reg.validators.get(schemaFile);
  if (!validate) {
    validate = reg.compile(schemaFile);
    if (!validate) throw new Error(`Schema ${schemaFile} did not compile`);
    reg.validators.set(schemaFile, validate);
  }
  return validate;
}

/** File names of every schema, sorted (e.g. `coverage.schema.json`). */
export function schemaFiles(): string[] {
  return [...load().schemas.keys()];
}

/** The raw schema object of a file, as stored on disk. Throws for an unknown file (a suite bug). */
export function schemaFor(schemaFile: string): JsonSchema {
  return known(schemaFile).schemas.get(schemaFile) as JsonSchema;
}

/** Compile every schema now; throws on the first that does not compile under strict mode. */
export function compileAll(): void {
  compileAllInMemory();
  for (const file of schemaFiles()) validatorFor(file);
}

/**
 * Validate `data` against a schema file. Errors are one line each, `<instancePath or /> <message>`,
 * at most {@link MAX_ERRORS}. Throws only for an unknown schema file (a suite bug).
 */
export function validateAgainst(schemaFile: string, data: unknown): ValidationResult {
  const validate = validatorFor(schemaFile);
  if (validate(data)) return { valid: true, errors: [] };
  const lines = errorLines(validate.errors ?? []);
  return {
    valid: false,
    errors: [...lines.causes, ...lines.explained].slice(0, MAX_ERRORS),
    causes: lines.causes.length,
  };
}

/**
 * Readable lines from Ajv errors, the causes first. When a oneOf, anyOf or contains fails, the
 * errors raised inside it are folded into its one line, which names what was expected (those inner
 * errors are mostly "must have required property" or "must match pattern" noise, one per array
 * item); duplicate lines are dropped.
 *
 * A failed composite (anyOf, oneOf, if/then, not, contains) says only that no alternative fitted;
 * where a plain error (a wrong type, a missing member, an unlisted value) was raised at the same
 * member or inside it, that error is the cause and comes first: "/meta/tag/0/display must be
 * string, received 1" before "/meta/tag/0/display must match a schema in anyOf: display, or null
 * when absent". The composite's line follows among the details (issue 24: messages lead with the
 * cause; the alternatives follow on demand).
 */
export function formatErrors(errors: readonly ErrorObject[]): string[] {
  const { causes, explained } = errorLines(errors);
  return [...causes, ...explained].slice(0, MAX_ERRORS);
}

/** The lines of {@link formatErrors}, the causes apart from the failed alternatives they explain. */
export function errorLines(errors: readonly ErrorObject[]): { causes: string[]; explained: string[] } {
  const composites = errors.filter((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf' || e.keyword === 'contains');
  const causes: string[] = [];
  const explained: string[] = [];
  for (const e of errors) {
    if (composites.some((c) => c !== e && isBranchError(e, c))) continue;
    const line = `${e.instancePath || '/'} ${describe(e)}`;
    const composite = COMPOSITE_KEYWORDS.has(e.keyword);
    const hasCause =
      composite &&
      errors.some(
        (o) =>
          !COMPOSITE_KEYWORDS.has(o.keyword) &&
          (o.instancePath === e.instancePath || o.instancePath.startsWith(`${e.instancePath}/`)) &&
          !composites.some((c) => c !== o && isBranchError(o, c)),
      );
    const list = hasCause ? explained : causes;
    if (!causes.includes(line) && !explained.includes(line)) list.push(line);
  }
  return { causes, explained };
}

/** Keywords whose failure says only that no alternative or condition held. */
const COMPOSITE_KEYWORDS = new Set(['oneOf', 'anyOf', 'contains', 'if', 'not', 'allOf']);

/** True when `e` was raised inside a branch of the failed composite `c`. */
function isBranchError(e: ErrorObject, c: ErrorObject): boolean {
  if (!(e.instancePath === c.instancePath || e.instancePath.startsWith(`${c.instancePath}/`))) return false;
  if (e.schemaPath.startsWith(`${c.schemaPath}/`)) return true;
  // Errors from a $ref'd schema carry that schema's path; a failed composite's branches are
  // reported just before it, so also fold errors that ajv listed among the branch errors.
  return (
    Array.isArray(c.schema) && c.schema.some((branch) => branchPaths(branch).some((p) => e.schemaPath.startsWith(p)))
  );
}

function branchPaths(branch: unknown): string[] {
  if (branch && typeof branch === 'object' && typeof (branch as { $ref?: unknown }).$ref === 'string') {
    const ref = (branch as { $ref: string }).$ref;
    const hash = ref.indexOf('#');
    return hash >= 0 ? [`${ref.slice(hash)}/`] : [];
  }
  return [];
}

function describe(e: ErrorObject): string {
  const message = e.message ?? e.keyword;
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'enum':
      return `${message}: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}, received ${show(e.data)}`;
    case 'const':
      return `${message} ${JSON.stringify(params.allowedValue)}, received ${show(e.data)}`;
    case 'type':
    case 'pattern':
    case 'minimum':
    case 'minLength':
      return `${message}, received ${show(e.data)}`;
    case 'contains':
      return withDescription(message, e.schema);
    case 'oneOf':
    case 'anyOf':
    case 'not':
    case 'if':
      return withDescription(message, e.parentSchema);
    default:
      return message;
  }
}

function withDescription(message: string, schema: unknown): string {
  const description =
    schema && typeof schema === 'object' ? (schema as { description?: unknown }).description : undefined;
  return typeof description === 'string' ? `${message}: ${description}` : message;
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
