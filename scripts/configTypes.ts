/**
 * The config file's TypeScript types are generated from core/config.schema.json, so the schema
 * (what a config file may say, and what editors complete) and the types the code reads cannot
 * drift: `npm run gen:config-types` writes core/configTypes.ts; core/configTypes.test.ts fails
 * when the committed file is not what the schema gives.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compile, type JSONSchema } from 'json-schema-to-typescript';

export const SCHEMA_FILE = fileURLToPath(new URL('../core/config.schema.json', import.meta.url));
export const TYPES_FILE = fileURLToPath(new URL('../core/configTypes.ts', import.meta.url));

/**
 * The schema without the descriptions written beside a `$ref` (they say what the reference means
 * at that place, for editors and docs/config.md): json-schema-to-typescript would make every such
 * place a type of its own (Service1, Service2 ...) instead of naming the one it refers to.
 */
function withoutReferenceDescriptions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutReferenceDescriptions);
  if (node === null || typeof node !== 'object') return node;
  const entries = Object.entries(node).filter(([k]) => !(k === 'description' && '$ref' in node));
  return Object.fromEntries(entries.map(([k, v]) => [k, withoutReferenceDescriptions(v)]));
}

/** The generated module text. */
export async function configTypesSource(): Promise<string> {
  const schema = withoutReferenceDescriptions(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8'))) as JSONSchema;
  return compile(schema, 'ConfigFile', {
    bannerComment: '/* Generated from core/config.schema.json by `npm run gen:config-types`; do not edit by hand. */',
    additionalProperties: false,
    unreachableDefinitions: false,
    style: { singleQuote: true, printWidth: 120, trailingComma: 'all' },
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(TYPES_FILE, await configTypesSource());
  console.log(`wrote ${TYPES_FILE}`);
}
