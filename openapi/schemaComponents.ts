/**
 * The JSON Schemas of schemas/ as OpenAPI 3.1 components (issue 12). OpenAPI 3.1 schema objects
 * are JSON Schema 2020-12, so each file is taken as it is, with three rewrites that make a
 * document self-contained (no external `$ref`, nothing for a linter or a client generator to
 * fetch):
 * - a file becomes the component named after it (`operation-outcome.schema.json` ->
 *   `OperationOutcome`); each of its top-level `$defs` becomes a component of its own
 *   (`common.schema.json#/$defs/money` -> `Common_money`), which client generators name better
 *   than a pointer into `$defs`;
 * - every `$ref` (relative to the file's `$id`) is rewritten to `#/components/schemas/...`;
 * - `$id` and `$schema` are dropped: an `$id` would move the base URI of the refs inside, and the
 *   document states the dialect once (`jsonSchemaDialect`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SCHEMA_BASE_URI } from '../core/schemaRegistry.ts';

/** A JSON value as the schema files hold them. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

const schemasDir = fileURLToPath(new URL('../schemas/', import.meta.url));
const SUFFIX = '.schema.json';

const pascal = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter((p) => p !== '')
    .map((p) => p[0].toUpperCase() + p.slice(1))
    .join('');

/** The component name of a schema file (`patient-create-request.schema.json` -> `PatientCreateRequest`). */
export const componentNameOf = (schemaFile: string): string => pascal(schemaFile.slice(0, -SUFFIX.length));

/** The `$ref` of a schema file's component. */
export const componentRef = (schemaFile: string): string => `#/components/schemas/${componentNameOf(schemaFile)}`;

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The component `$ref` for a ref found in `file` (resolved against the file's `$id`). */
function rewriteRef(ref: string, file: string): string {
  const url = new URL(ref, SCHEMA_BASE_URI + file);
  const target = url.href.slice(0, url.href.length - url.hash.length);
  if (!target.startsWith(SCHEMA_BASE_URI))
    throw new Error(`Expected a $ref inside ${SCHEMA_BASE_URI}, received ${ref}`);
  const targetFile = target.slice(SCHEMA_BASE_URI.length);
  const pointer = decodeURIComponent(url.hash.slice(1));
  const def = /^\/\$defs\/([^/]+)(.*)$/.exec(pointer);
  if (def) return `#/components/schemas/${componentNameOf(targetFile)}_${def[1]}${def[2]}`;
  return `${componentRef(targetFile)}${pointer}`;
}

function rewrite(node: Json, file: string): Json {
  if (Array.isArray(node)) return node.map((n) => rewrite(n, file));
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$id' || key === '$schema') continue;
    out[key] = key === '$ref' && typeof value === 'string' ? rewriteRef(value, file) : rewrite(value, file);
  }
  return out;
}

let all: ReadonlyMap<string, JsonObject> | undefined;

/**
 * Every schema file as components, by component name, in a stable order (files sorted, each
 * file's own component before its hoisted `$defs`).
 */
export function allSchemaComponents(): ReadonlyMap<string, JsonObject> {
  if (all) return all;
  const components = new Map<string, JsonObject>();
  for (const file of readdirSync(schemasDir)
    .filter((f) => f.endsWith(SUFFIX))
    .sort()) {
    const schema = JSON.parse(readFileSync(schemasDir + file, 'utf8')) as JsonObject;
    if (schema.$id !== SCHEMA_BASE_URI + file) {
      throw new Error(`Expected schema ${file} to have $id ${SCHEMA_BASE_URI + file}, received ${String(schema.$id)}`);
    }
    const { $defs, ...root } = schema;
    const name = componentNameOf(file);
    components.set(name, rewrite(root, file) as JsonObject);
    if (isObject($defs)) {
      for (const [def, body] of Object.entries($defs))
        components.set(`${name}_${def}`, rewrite(body, file) as JsonObject);
    }
  }
  all = components;
  return all;
}

/** Component names a node refers to (`#/components/schemas/<name>...`). */
function refsOf(node: Json, found: Set<string>): void {
  if (Array.isArray(node)) for (const n of node) refsOf(n, found);
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const name = /^#\/components\/schemas\/([^/]+)/.exec(value)?.[1];
        if (name !== undefined) found.add(name);
      } else refsOf(value, found);
    }
  }
}

/**
 * The components a set of nodes needs, transitively, in the stable order of
 * {@link allSchemaComponents} then `extra` (components the export defines itself): a
 * per-service document carries only its own schemas.
 */
export function schemaComponentsFor(
  nodes: readonly Json[],
  extra: Readonly<Record<string, JsonObject>> = {},
): JsonObject {
  const components = new Map([...allSchemaComponents(), ...Object.entries(extra)]);
  const needed = new Set<string>();
  for (const node of nodes) refsOf(node, needed);
  const queue = [...needed];
  while (queue.length > 0) {
    const name = queue.pop() as string;
    const body = components.get(name);
    if (!body) throw new Error(`Expected a schema component ${name}, received a $ref to nothing`);
    const more = new Set<string>();
    refsOf(body, more);
    for (const m of more) {
      if (!needed.has(m)) {
        needed.add(m);
        queue.push(m);
      }
    }
  }
  const out: JsonObject = {};
  for (const [name, body] of components) if (needed.has(name)) out[name] = body;
  return out;
}
