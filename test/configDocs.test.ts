/**
 * Configs a person can write (issue 23 item 6): every node of core/config.schema.json carries a
 * description (editors show it through `$schema`), docs/config.md is what the schema gives, every
 * credential and fixture a suite asks for is described under its name, all missing environment
 * variables are named in one line, the sandbox's addresses written once resolve as written whole,
 * and `conformance init --target` fills a starter from a running sandbox.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../core/config.ts';
import { configDocsSource, DOCS_FILE, SCHEMA_FILE } from '../scripts/configTypes.ts';
import { DEMO_CONFIG_FILE, DEMO_ENVIRONMENT } from '../server/demoConfig.ts';
import { type RunningSandbox, startSandbox } from '../server/http.ts';
import { ROOT, reportDir, runInProcess } from './support/cli.ts';

type Node = Record<string, unknown>;
const schema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as Node;

/** Every schema node below `node` (itself included), by its JSON pointer. */
function nodesOf(node: unknown, pointer = '#', into: [string, Node][] = []): [string, Node][] {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return into;
  const n = node as Node;
  into.push([pointer, n]);
  for (const key of ['properties', '$defs', 'patternProperties', 'dependentSchemas'])
    for (const [name, child] of Object.entries((n[key] as Node | undefined) ?? {}))
      nodesOf(child, `${pointer}/${key}/${name}`, into);
  for (const key of ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'])
    nodesOf(n[key], `${pointer}/${key}`, into);
  for (const key of ['oneOf', 'anyOf', 'allOf', 'prefixItems'])
    for (const [i, child] of ((n[key] as unknown[] | undefined) ?? []).entries())
      nodesOf(child, `${pointer}/${key}/${i}`, into);
  return into;
}

/** The schema node of a dotted path under a node, following `$ref`s. */
function nodeAt(path: string, from: Node): Node | undefined {
  const deref = (n: Node | undefined): Node | undefined => {
    const ref = n?.$ref as string | undefined;
    return ref ? ((schema.$defs as Record<string, Node>)[ref.replace('#/$defs/', '')] ?? n) : n;
  };
  let node: Node | undefined = from;
  for (const name of path.split('.')) node = (deref(node)?.properties as Record<string, Node> | undefined)?.[name];
  return node;
}

const suiteSources = () =>
  readdirSync(join(ROOT, 'suites'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => readFileSync(join(ROOT, 'suites', f), 'utf8'))
    .join('\n');

describe('the config schema explains itself', () => {
  test('every node has a description: properties, items, definitions, oneOf branches, additional members', () => {
    const nodes = nodesOf(schema);
    expect(nodes.length).toBeGreaterThan(150);
    const bare = nodes.filter(([, n]) => typeof n.description !== 'string' || n.description.trim() === '');
    expect(bare.map(([pointer]) => pointer)).toEqual([]);
  });

  test('a node without a description is found by the walk (the test can fail)', () => {
    const broken = structuredClone(schema) as { $defs: { fixtures: { properties: { diary: Node } } } };
    delete (broken.$defs.fixtures.properties.diary.properties as Record<string, Node>).validCode.description;
    const bare = nodesOf(broken).filter(([, n]) => typeof n.description !== 'string');
    expect(bare.map(([pointer]) => pointer)).toEqual(['#/$defs/fixtures/properties/diary/properties/validCode']);
  });

  test('every fixture a suite declares or reads is described under its name', () => {
    const source = suiteSources();
    const declared = new Set<string>();
    for (const m of source.matchAll(/fixtures\.([a-zA-Z0-9]+)\?\.([a-zA-Z0-9]+)/g)) declared.add(`${m[1]}.${m[2]}`);
    for (const m of source.matchAll(/fixtures: \[([^\]]*)\]/g))
      for (const q of m[1].matchAll(/'([a-zA-Z0-9]+\.[a-zA-Z0-9]+)'/g)) declared.add(q[1]);
    for (const m of source.matchAll(/\b(?:need|fixture)\('([a-zA-Z0-9]+\.[a-zA-Z0-9]+)'/g)) declared.add(m[1]);
    expect(declared.size).toBeGreaterThan(40);
    expect(declared).toContain('accounts.siteWithoutUsers');
    const fixtures = (schema.$defs as Record<string, Node>).fixtures;
    const undescribed = [...declared].filter((path) => typeof nodeAt(path, fixtures)?.description !== 'string');
    expect(undescribed).toEqual([]);
  });

  test('every named credential and Basic credential a suite uses is described under its name', () => {
    const source = suiteSources();
    const names = (pattern: RegExp) => new Set([...source.matchAll(pattern)].map((m) => m[1]));
    const tokens = names(/(?:tokenFor\(|freshTokens\(|as\(id, )'([a-zA-Z]+)'/g);
    const basic = names(/basicFor\('([a-zA-Z]+)'\)/g);
    expect([...tokens].sort()).toEqual([
      'client',
      'clientInactive',
      'clientWithoutAccount',
      'user',
      'userWithoutFeatures',
    ]);
    expect([...basic]).toEqual(['client']);
    const properties = schema.properties as Record<string, Node>;
    for (const name of tokens) expect(nodeAt(name, properties.credentials)?.description, name).toBeTypeOf('string');
    for (const name of basic) expect(nodeAt(name, properties.basic)?.description, name).toBeTypeOf('string');
  });

  test('docs/config.md is what the schema gives (run `npm run gen:config-types` after a schema change)', () => {
    const docs = readFileSync(DOCS_FILE, 'utf8');
    expect(docs).toBe(configDocsSource());
    for (const path of ['services.base', 'tokenUrl', 'fixtures.accounts.siteWithoutUsers', 'http.caFile'])
      expect(docs).toContain(`\`${path}\``);
    expect(docs).toContain(
      (nodeAt('multipleAfterRefine', nodeAt('findMemberV2', (schema.$defs as Record<string, Node>).fixtures) as Node)
        ?.description ?? 'missing') as string,
    );
  });
});

describe('a config of the sandbox a person can write', () => {
  const file = (content: unknown) => {
    const f = join(mkdtempSync(join(tmpdir(), 'cfg-')), 'c.json');
    writeFileSync(f, JSON.stringify(content));
    return f;
  };

  test('the demo config without its fallbacks names its ten variables in one line', () => {
    let message = '';
    try {
      loadConfig({ file: DEMO_CONFIG_FILE, target: 'http://127.0.0.1:1', environment: {} });
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      message = (e as Error).message;
    }
    expect(message).toMatch(/^Environment variables CONFORMANCE_CLIENT_ID, .* are not set \(the config names them/);
    expect(message.split('\n')).toHaveLength(1);
    expect(Object.keys(DEMO_ENVIRONMENT).filter((name) => !message.includes(name))).toEqual([]);
  });

  test('its 17 addresses written once (services.base, paths, one tokenUrl) resolve as written whole', () => {
    const demo = JSON.parse(readFileSync(DEMO_CONFIG_FILE, 'utf8')) as Node & {
      services: Record<string, { discovery: string }>;
      credentials: Record<string, Node>;
      auth: Node;
    };
    const tokenUrls = [demo.auth, ...Object.values(demo.credentials)].filter((c) => 'tokenUrl' in c);
    expect(Object.keys(demo.services).length + tokenUrls.length).toBe(17);
    const once = {
      ...demo,
      $schema: undefined,
      services: {
        base: '{target}',
        ...Object.fromEntries(
          Object.entries(demo.services).map(([id, s]) => [id, { discovery: s.discovery.replace('{target}/', '') }]),
        ),
      },
      tokenUrl: '{target}/oauth/token',
      auth: { ...demo.auth, tokenUrl: undefined },
      credentials: Object.fromEntries(
        Object.entries(demo.credentials).map(([name, c]) => [name, { ...c, tokenUrl: undefined }]),
      ),
    };
    for (const target of ['https://staging.example', 'http://127.0.0.1:8080/api/v2']) {
      const whole = loadConfig({ file: DEMO_CONFIG_FILE, target, environment: {}, fallbacks: DEMO_ENVIRONMENT });
      const written = loadConfig({ file: file(once), target, environment: {}, fallbacks: DEMO_ENVIRONMENT });
      expect(written.services).toEqual(whole.services);
      expect(written.credentials).toEqual(whole.credentials);
      expect(written.named).toEqual(whole.named);
      expect(whole.services.contracts.discovery).toBe(`${target}/contracts/contract/.well-known/api-configuration`);
    }
    // Elsewhere than the target: two edits, not seventeen.
    const moved = loadConfig({
      file: file({
        ...once,
        services: { ...once.services, base: 'https://api.staging.example/v2' },
        tokenUrl: 'https://login.staging.example/token',
      }),
      target: 'https://staging.example',
      environment: {},
      fallbacks: DEMO_ENVIRONMENT,
    });
    expect(Object.values(moved.services).every((s) => s.discovery.startsWith('https://api.staging.example/v2/'))).toBe(
      true,
    );
    expect(
      [moved.credentials, ...Object.values(moved.named)].every(
        (c) => c.type === 'bearer' || c.tokenUrl === 'https://login.staging.example/token',
      ),
    ).toBe(true);
  });
});

describe('conformance init --target (a sandbox over real HTTP)', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, pathPrefix: '/partner' });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  test('writes what answers, says what is left to fill, and the config it writes loads', async () => {
    const out = join(reportDir(), 'conformance.config.json');
    const target = `${sandbox.url}/partner`;
    const { code, stdout, stderr } = await runInProcess(['init', '--target', target, '--out', out]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain(`Read from ${target}:`);
    expect(stdout).toContain(
      '  services.claims.discovery: claims/.well-known/api-configuration (7 of 7 discovery keys)',
    );
    expect(stdout).toContain(
      '  tokenUrl: {target}/oauth/token (answers a token request without credentials with HTTP 401 invalid_client)',
    );
    expect(stdout).toMatch(/^Left to fill:\n {2}siteId and fixtures: /m);
    expect(stdout).toMatch(
      /^ {2}the credential variables the config names, to export before a run: CONFORMANCE_CLIENT_ID, /m,
    );
    const written = JSON.parse(readFileSync(out, 'utf8')) as Node;
    expect(written).toMatchObject({ target, tokenUrl: '{target}/oauth/token', services: { base: '{target}' } });
    const config = loadConfig({ file: out, environment: {}, fallbacks: DEMO_ENVIRONMENT });
    expect(config.services.contracts.discovery).toBe(`${target}/contracts/contract/.well-known/api-configuration`);
  });

  test('a target that answers nothing is one line, exit 2, and nothing is written', async () => {
    const out = join(reportDir(), 'c.json');
    const { code, stdout, stderr } = await runInProcess(['init', '--target', 'http://127.0.0.1:9', '--out', out]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(
      /^conformance: Target unreachable: .* \(init reads the discovery documents of http:\/\/127\.0\.0\.1:9\); nothing written/,
    );
    expect(existsSync(out)).toBe(false);
  });

  test('a --target that is not an http URL is a usage error before any request', async () => {
    const { code, stderr } = await runInProcess(['init', '--target', 'ftp://x', '--out', join(reportDir(), 'c.json')]);
    expect(code).toBe(2);
    expect(stderr.split('\n')[0]).toBe('conformance: --target must be an http or https URL, received "ftp://x"');
  });
});
