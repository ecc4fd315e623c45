/**
 * The config file's TypeScript types and its reference are generated from core/config.schema.json,
 * so the schema (what a config file may say, and what editors complete and explain), the types the
 * code reads and the page a person reads cannot drift: `npm run gen:config-types` writes
 * core/configTypes.ts and docs/config.md; core/configTypes.test.ts and test/configDocs.test.ts
 * fail when a committed file is not what the schema gives.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compile, type JSONSchema } from 'json-schema-to-typescript';

export const SCHEMA_FILE = fileURLToPath(new URL('../core/config.schema.json', import.meta.url));
export const TYPES_FILE = fileURLToPath(new URL('../core/configTypes.ts', import.meta.url));
export const DOCS_FILE = fileURLToPath(new URL('../docs/config.md', import.meta.url));

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

/** A node of the config schema, as far as the reference reads it. */
interface SchemaNode {
  description?: string;
  $ref?: string;
  type?: string;
  const?: unknown;
  enum?: unknown[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  uniqueItems?: boolean;
  required?: string[];
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode;
  oneOf?: SchemaNode[];
  dependentRequired?: Record<string, string[]>;
  $defs?: Record<string, SchemaNode>;
}

/** What a shared definition is, in a few words, where a setting refers to it. */
const DEFINITION_NAMES: Record<string, string> = {
  auth: 'a credential',
  basicCredential: 'a Basic credential',
  envName: 'name of an environment variable',
  service: 'a discovery document',
  memberSearch: 'a member search',
  fixtures: 'object',
};

const json = (v: unknown) => `\`${JSON.stringify(v)}\``;
const code = (s: string) => `\`${s}\``;

/**
 * docs/config.md: every setting of the schema, by its path (`services.base`,
 * `fixtures.accounts.siteWithoutUsers`), with its type and what the schema says of it. A shared
 * definition is spelled out where it is first used; later uses name that place.
 */
export function configDocsSource(): string {
  const schema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as SchemaNode;
  const defs = schema.$defs ?? {};
  const expandedAt = new Map<string, string>();
  const out: string[] = [];
  const defName = (ref: string) => ref.replace('#/$defs/', '');

  const typeOf = (node: SchemaNode): string => {
    if (node.$ref) {
      const name = defName(node.$ref);
      return DEFINITION_NAMES[name] ?? typeOf(defs[name] ?? {});
    }
    if (node.const !== undefined) return json(node.const);
    if (node.enum) return `one of ${node.enum.map(json).join(', ')}`;
    if (node.oneOf) return `one of: ${node.oneOf.map(typeOf).join('; ')}`;
    if (node.type === 'string')
      return node.pattern === '^https?://' ? 'string, an http or https URL' : node.pattern ? `string` : 'string';
    if (node.type === 'integer' || node.type === 'number') {
      const low =
        node.minimum ?? (node.exclusiveMinimum !== undefined ? `more than ${node.exclusiveMinimum}` : undefined);
      const range =
        low !== undefined && node.maximum !== undefined
          ? `, from ${low} to ${node.maximum}`
          : low !== undefined
            ? `, ${typeof low === 'number' ? `at least ${low}` : low}`
            : '';
      return `${node.type}${range}`;
    }
    if (node.type === 'array')
      return `list${node.uniqueItems ? ' (each once)' : ''} of ${node.items ? typeOf(node.items) : 'values'}`;
    if (node.type === 'object' || node.properties) {
      if (node.properties?.type?.const !== undefined) return `${json(node.properties.type.const)} credential`;
      return 'object';
    }
    return 'value';
  };

  const emit = (path: string, node: SchemaNode, required: boolean): void => {
    const ref = node.$ref ? defName(node.$ref) : undefined;
    const target = ref ? (defs[ref] ?? {}) : node;
    const description = node.description ?? target.description ?? '';
    const level = path.includes('.') || path.includes('<') ? '###' : '##';
    out.push(`${level} ${code(path)}`, '', `${typeOf(node)}${required ? ', required' : ''}.`, '', description, '');
    if (ref !== undefined) {
      const first = expandedAt.get(ref);
      if (first !== undefined) {
        if (target.properties || target.oneOf || target.additionalProperties)
          out.push(`Its members are those of ${code(first)} above.`, '');
        return;
      }
      expandedAt.set(ref, path);
    }
    children(path, target);
  };

  const children = (path: string, node: SchemaNode): void => {
    const prefix = path === '' ? '' : `${path}.`;
    for (const [name, child] of Object.entries(node.properties ?? {}))
      emit(`${prefix}${name}`, child, node.required?.includes(name) ?? false);
    for (const [name, needs] of Object.entries(node.dependentRequired ?? {}))
      out.push(`With ${code(`${prefix}${name}`)}, give ${needs.map((n) => code(`${prefix}${n}`)).join(' and ')}.`, '');
    if (typeof node.additionalProperties === 'object' && Object.keys(node.additionalProperties).length > 0)
      emit(`${prefix}<name>`, node.additionalProperties, false);
    if (node.items && (node.items.properties || node.items.$ref)) emit(`${path}[]`, node.items, false);
    for (const branch of node.oneOf ?? []) {
      out.push(`**${typeOf(branch)}**: ${branch.description ?? ''}`, '');
      for (const [name, child] of Object.entries(branch.properties ?? {}))
        out.push(
          `- ${code(`${prefix}${name}`)} (${typeOf(child)}${branch.required?.includes(name) ? ', required' : ''}): ${child.description ?? ''}`,
        );
      out.push('');
    }
  };

  out.push(
    '# Config reference',
    '',
    '<!-- Generated from core/config.schema.json by `npm run gen:config-types`; do not edit by hand. -->',
    '',
    'A config file is JSON checked against `core/config.schema.json`. Name the schema in `$schema` and an',
    'editor completes every setting and shows what is written here. `npx conformance init --target URL`',
    'writes a starter config, filled with the discovery documents and the token endpoint it finds on the',
    'target. Secrets are never written in the file: each `*Env` setting names the environment variable',
    'that holds one, and a run that lacks any of them names them all in one message.',
    '',
    'Addresses are written once. `{target}` stands for the target (`--target`, or `target`); a',
    'discovery path is appended to `services.base`; one `tokenUrl` serves every credential. A server',
    'with other addresses than the sandbox takes one edit per address that differs:',
    '',
    '```json',
    '{',
    '  "$schema": "./node_modules/api-conformance-suite/dist/core/config.schema.json",',
    '  "target": "https://staging.example",',
    '  "services": {',
    '    "base": "https://api.staging.example/v2",',
    '    "membership": { "discovery": ".well-known/api-configuration" },',
    '    "claims": { "discovery": "claims/.well-known/api-configuration" }',
    '  },',
    '  "tokenUrl": "https://login.staging.example/oauth/token",',
    '  "auth": { "type": "client-credentials", "clientIdEnv": "CONFORMANCE_CLIENT_ID", "clientSecretEnv": "CONFORMANCE_CLIENT_SECRET" },',
    '  "siteId": "SITE001"',
    '}',
    '```',
    '',
    'A run needs `auth` and `siteId`; everything else has a default or is skipped without it. Fixtures',
    'name records the target holds: a step whose fixture is missing is skipped (`fixture-configured`)',
    'and counts against coverage, so a run with few fixtures judges little.',
    '',
  );
  children('', schema);
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(TYPES_FILE, await configTypesSource());
  console.log(`wrote ${TYPES_FILE}`);
  writeFileSync(DOCS_FILE, configDocsSource());
  console.log(`wrote ${DOCS_FILE}`);
}
